/**
 * Issue 26 findings 1-2 (record 177): a target holding releases can be disabled (no new releases; its
 * updates and takedowns still go out) but not removed until nothing is live there, or after the admin
 * had everything there taken down. Against a real OpenSSH SFTP store with a key-only login.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PLATFORMS } from '@tunedrop/shared';
import {
  DELIVERY_MESSAGES,
  type DeliveryTargetView,
  removalNotConfirmedMessage,
  STORE_STATE_LABELS,
  targetHoldsMessage,
  unconnectedStoresMessage,
} from '@tunedrop/shared/schemas/delivery';
import { and, asc, eq, like, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deliveries, deliveryTargets, mailOutbox, releases } from '../../db/schema';
import { run } from '../../lib/sql';
import { type DeliveryBed, startDeliveryBed } from '../../test-support/delivery-fixtures';
import { readJson, type TestSystem } from '../../test-support/harness';
import {
  readDeliveries,
  type SftpServer,
  startSftpServer,
  storeAcknowledgeAll,
} from '../../test-support/sftp';
import { REMOVED_BEFORE_SENT } from './target-lifecycle';
import { runDeliveryOnce } from './worker';

let bed: DeliveryBed;
let system: TestSystem;
let sftp: SftpServer;
let people: DeliveryBed['people'];

beforeAll(async () => {
  sftp = await startSftpServer();
  bed = await startDeliveryBed();
  ({ system, people } = bed);
}, 60_000);

afterAll(async () => {
  await bed?.close();
  await sftp?.stop();
});

const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
  system.request(url, { ...init, cookie: people.admin.cookie });

/** A key-only target (no password in the URL) in its own folder of the store, the only one enabled. */
async function keyOnlyTarget(folder: string) {
  fs.mkdirSync(path.join(sftp.root, folder), { recursive: true });
  const id = await bed.onlyTarget({
    name: `Key store ${folder}`,
    url: sftp.url(folder),
    privateKey: sftp.privateKey,
  });
  return { id, root: path.join(sftp.root, folder) };
}

async function targetView(id: string): Promise<DeliveryTargetView | undefined> {
  const list = await readJson(await admin('/api/admin/delivery/targets'));
  return list.items.find((t: DeliveryTargetView) => t.id === id);
}

const deliveryOf = async (releaseId: string, targetId: string) =>
  (await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId))).find(
    (d) => d.targetId === targetId,
  );

/** Sends what is due, lets the store acknowledge every package, and reads the acknowledgements. */
async function sendAndAcknowledge(root: string) {
  await runDeliveryOnce(system, { pollAcks: false });
  storeAcknowledgeAll(root);
  await runDeliveryOnce(system, { pollAcks: true });
}

const mailsTo = (email: string) =>
  system.db
    .select({ subject: mailOutbox.subject, textBody: mailOutbox.textBody })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.recipient, email),
        or(
          like(mailOutbox.subject, '%being taken down from%'),
          like(mailOutbox.subject, '%will not be sent to%'),
        ),
      ),
    )
    .orderBy(asc(mailOutbox.createdAt));

const titleOf = async (releaseId: string) =>
  (await system.db.select({ title: releases.title }).from(releases).where(eq(releases.id, releaseId)))[0]
    ?.title as string;

const auditOf = (targetId: string) =>
  system.db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'delivery.target.remove'), eq(auditLog.subjectId, targetId)))
    .orderBy(asc(auditLog.createdAt));

async function approveTakedown(releaseId: string) {
  const asked = await system.request(`/api/releases/${releaseId}/takedown`, {
    method: 'POST',
    cookie: people.artist.cookie,
  });
  expect(asked.status).toBe(200);
  const approved = await system.request(`/api/admin/releases/${releaseId}/takedown/approve`, {
    method: 'POST',
    cookie: people.moderator.cookie,
  });
  expect(approved.status).toBe(200);
}

describe('a target holding releases', () => {
  it('is disabled, not removed; a takedown approved afterwards still reaches the store', async () => {
    const target = await keyOnlyTarget('held');
    const [live] = await bed.approvedReleases(1, { distributionStores: ['spotify'] });
    await sendAndAcknowledge(target.root);
    expect((await deliveryOf(live as string, target.id))?.state).toBe('acknowledged');
    const name = (await targetView(target.id))?.name as string;
    expect((await targetView(target.id))?.holds).toBe(1);

    const refused = await admin(`/api/admin/delivery/targets/${target.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect((await readJson(refused)).error).toMatchObject({
      code: 'target_holds_releases',
      message: targetHoldsMessage(name, 1),
    });
    expect(await targetView(target.id)).toBeDefined();

    const disabled = await admin(`/api/admin/delivery/targets/${target.id}`, {
      method: 'PATCH',
      json: { enabled: false },
    });
    expect((await readJson(disabled)).enabled).toBe(false);
    // No new release goes to a disabled target.
    const [later] = await bed.approvedReleases(1, { distributionStores: ['spotify'] });
    expect(await deliveryOf(later as string, target.id)).toBeUndefined();

    await approveTakedown(live as string);
    expect((await deliveryOf(live as string, target.id))?.state).toBe('takedown_queued');
    const before = readDeliveries(target.root).length;
    await sendAndAcknowledge(target.root);
    const sent = readDeliveries(target.root);
    expect(sent).toHaveLength(before + 1);
    // The takedown: the release without deals.
    const takedown = sent.find((p) => !sent.slice(0, before).some((q) => q.folder === p.folder));
    expect(takedown?.xml).not.toContain('<Deal>');
    const done = await deliveryOf(live as string, target.id);
    expect(done?.state).toBe('taken_down');
    expect(done?.attempts).toBe(1);

    expect((await targetView(target.id))?.holds).toBe(0);
    const removed = await admin(`/api/admin/delivery/targets/${target.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await readJson(removed)).toEqual({ ok: true, removed: true });
    expect(await targetView(target.id)).toBeUndefined();
  }, 60_000);

  it('"take everything down first" queues the takedowns, keeps it disabled until they are acknowledged', async () => {
    const target = await keyOnlyTarget('all-down');
    const ids = await bed.approvedReleases(2, { distributionStores: ['spotify'] });
    await sendAndAcknowledge(target.root);
    const queuedOnly = await bed.approvedReleases(1, { distributionStores: ['spotify'] });
    await system.db.update(deliveryTargets).set({ enabled: true }).where(eq(deliveryTargets.id, target.id));

    // Issue 44: the admin sees who is affected and confirms those counts; a removal without them changes nothing.
    const name = (await targetView(target.id))?.name as string;
    expect((await targetView(target.id))?.removal).toEqual({ releases: 2, artists: 1 });
    const unconfirmed = await admin(`/api/admin/delivery/targets/${target.id}?takeDown=all`, {
      method: 'DELETE',
    });
    expect(unconfirmed.status).toBe(409);
    expect((await readJson(unconfirmed)).error).toEqual({
      code: 'removal_not_confirmed',
      message: removalNotConfirmedMessage(name, { releases: 2, artists: 1 }),
    });
    const stale = await admin(`/api/admin/delivery/targets/${target.id}?takeDown=all&releases=1&artists=1`, {
      method: 'DELETE',
    });
    expect(stale.status).toBe(409);
    expect((await targetView(target.id))?.enabled).toBe(true);
    for (const id of ids) expect((await deliveryOf(id, target.id))?.state).toBe('acknowledged');
    expect(await mailsTo(people.artist.email)).toEqual([]);

    const accepted = await admin(
      `/api/admin/delivery/targets/${target.id}?takeDown=all&releases=2&artists=1`,
      {
        method: 'DELETE',
      },
    );
    expect(accepted.status).toBe(202);
    expect(await readJson(accepted)).toEqual({ ok: true, removed: false, takedowns: 2, held: 2 });
    const view = await targetView(target.id);
    expect(view?.enabled).toBe(false);
    for (const id of ids) expect((await deliveryOf(id, target.id))?.state).toBe('takedown_queued');

    await sendAndAcknowledge(target.root);
    for (const id of ids) expect((await deliveryOf(id, target.id))?.state).toBe('taken_down');
    // The release approved but never sent there is not held: it does not go out to a disabled target.
    expect((await deliveryOf(queuedOnly[0] as string, target.id))?.state).toBe('queued');

    // The artist is told, in one mail, which releases leave which store.
    const [takedownMail] = await mailsTo(people.artist.email);
    expect(takedownMail?.subject).toBe('2 of your releases are being taken down from some stores');
    for (const id of ids) {
      expect(takedownMail?.textBody).toContain(`"${await titleOf(id)}" is being taken down from Spotify.`);
    }
    expect(takedownMail?.textBody).toContain('Every other store keeps your releases as they are.');
    const [audited] = await auditOf(target.id);
    expect(audited?.after).toMatchObject({ takedownsQueued: 2, artistsMailed: 1 });

    expect((await targetView(target.id))?.removal).toEqual({ releases: 1, artists: 1 });
    const removed = await admin(`/api/admin/delivery/targets/${target.id}?releases=1&artists=1`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
    const closedMail = (await mailsTo(people.artist.email))[1];
    expect(closedMail?.subject).toBe(
      `Your release "${await titleOf(queuedOnly[0] as string)}" will not be sent to Spotify`,
    );
    // Its job never sent is closed with the reason, which the artist sees on the store row.
    const closed = await deliveryOf(queuedOnly[0] as string, target.id);
    expect(closed).toMatchObject({ state: 'failed', lastError: REMOVED_BEFORE_SENT });
    const detail = await readJson(
      await system.request(`/api/releases/${queuedOnly[0]}/detail`, { cookie: people.artist.cookie }),
    );
    expect(detail.stores.find((s: { platformId: string }) => s.platformId === 'spotify')).toMatchObject({
      state: 'failed',
      message: REMOVED_BEFORE_SENT,
    });
  }, 60_000);

  it('a store no enabled target serves says "No store connection"; the admin is told which and how many wait', async () => {
    const target = await keyOnlyTarget('spotify-only');
    await admin(`/api/admin/delivery/targets/${target.id}`, {
      method: 'PATCH',
      json: { platforms: ['spotify'] },
    });
    const [releaseId] = await bed.approvedReleases(1, { distributionStores: ['spotify', 'deezer'] });
    const detail = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: people.artist.cookie }),
    );
    const stateOf = (platformId: string) =>
      detail.stores.find((s: { platformId: string }) => s.platformId === platformId)?.state;
    expect(stateOf('spotify')).toBe('queued');
    expect(stateOf('deezer')).toBe('no_connection');
    expect(STORE_STATE_LABELS.no_connection).toBe('No store connection');

    const warning = await readJson(await admin('/api/admin/delivery/unconnected-stores'));
    expect(warning.stores.map((s: { platformId: string }) => s.platformId)).not.toContain('spotify');
    expect(warning.stores.find((s: { platformId: string }) => s.platformId === 'deezer')).toEqual({
      platformId: 'deezer',
      name: 'Deezer',
      releases: 1,
    });
    expect(warning.stores).toHaveLength(PLATFORMS.length - 1);
    expect(unconnectedStoresMessage(warning)).toMatch(/^24 stores have no store connection/);
    const moderator = await system.request('/api/admin/delivery/unconnected-stores', {
      cookie: people.moderator.cookie,
    });
    expect(moderator.status).toBe(403);

    // Once a target serves Deezer, it is no longer listed.
    await admin(`/api/admin/delivery/targets/${target.id}`, {
      method: 'PATCH',
      json: { platforms: ['spotify', 'deezer'] },
    });
    const after = await readJson(await admin('/api/admin/delivery/unconnected-stores'));
    expect(after.stores.map((s: { platformId: string }) => s.platformId)).not.toContain('deezer');
  });

  it('a DPID with a wrong check character is refused for a target and for the sender', async () => {
    const target = await admin('/api/admin/delivery/targets', {
      method: 'POST',
      json: { name: 'Typo store', url: sftp.url(), dpid: 'PADPIDA2009101501Z', platforms: 'all' },
    });
    expect(target.status).toBe(422);
    expect((await readJson(target)).error.fields.dpid).toBe(DELIVERY_MESSAGES.dpidCheckInvalid);
    // The server's placeholder sender is not a value an operator can save.
    const settings = await admin('/api/admin/settings', {
      method: 'PUT',
      json: {
        isrcRegistrant: 'QZ-ABC',
        upcPrefix: '0614141',
        ddexSenderPartyId: 'PADPIDA0000000000T',
        ddexSenderName: 'Tunedrop',
      },
    });
    expect(settings.status).toBe(422);
    expect((await readJson(settings)).error.fields.ddexSenderPartyId).toBe(
      DELIVERY_MESSAGES.dpidCheckInvalid,
    );
  });

  it('an unknown target is 404 to remove', async () => {
    const response = await admin('/api/admin/delivery/targets/00000000-0000-4000-8000-000000000000', {
      method: 'DELETE',
    });
    expect(response.status).toBe(404);
    expect((await readJson(response)).error.message).toBe(DELIVERY_MESSAGES.targetNotFound);
  });
});

describe('migration 0031: targets removed before this fix', () => {
  it('brings back, disabled, a removed target whose takedown was stranded, and the takedown goes out', async () => {
    const target = await keyOnlyTarget('legacy');
    const [stranded] = await bed.approvedReleases(1, { distributionStores: ['spotify'] });
    await sendAndAcknowledge(target.root);
    // What the old delete did: soft-deleted and disabled while it held the release; then a takedown.
    await system.db
      .update(deliveryTargets)
      .set({ deletedAt: new Date(), enabled: false })
      .where(eq(deliveryTargets.id, target.id));
    await system.db
      .update(deliveries)
      .set({ action: 'takedown', state: 'takedown_queued', attempts: 0 })
      .where(eq(deliveries.releaseId, stranded as string));
    await runDeliveryOnce(system, { pollAcks: false });
    expect((await deliveryOf(stranded as string, target.id))?.attempts).toBe(0);

    const file = path.join(__dirname, '../../../drizzle/0031_stranded_target_deliveries.sql');
    for (const statement of fs.readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
      await run(system.db, sql.raw(statement));
    }
    const restored = await targetView(target.id);
    expect(restored?.enabled).toBe(false);
    expect(restored?.name).toBe(`Key store legacy (restored ${target.id.slice(0, 8)})`);
    await sendAndAcknowledge(target.root);
    expect((await deliveryOf(stranded as string, target.id))?.state).toBe('taken_down');
  }, 60_000);
});
