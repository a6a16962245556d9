/**
 * Release delivery end to end with real parts: PGlite/PostgreSQL, a real OpenSSH sshd serving SFTP,
 * the fake store of test-support/sftp.ts, xmllint against the ERN 4.3 schema.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DELIVERY_MESSAGES, isUpc } from '@tunedrop/shared/schemas/delivery';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { deliveries, deliveryAttempts, mailOutbox, releases, tracks } from '../../db/schema';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { validateErn43 } from '../../test-support/ddex';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import {
  ackXml,
  readDeliveries,
  type SftpServer,
  startSftpServer,
  storeAcknowledgeAll,
  writeAck,
} from '../../test-support/sftp';
import { parseAck } from '../ddex';
import { upcFor } from './codes';
import { sendDelivery } from './job-handlers';
import { claimJobs, resolveOptions } from './state';
import { runDeliveryOnce } from './worker';

let system: TestSystem;
let sftp: SftpServer;
let people: Awaited<ReturnType<typeof staff>>;
const DPID = 'PADPIDA2009101501Y';
const run = () => runDeliveryOnce(system, { retryBaseMs: 0 });

beforeAll(async () => {
  // One after the other: had one failed inside Promise.all, afterAll could not stop the other (an orphaned sshd).
  sftp = await startSftpServer();
  system = await createTestSystem();
  people = await staff(system);
}, 60_000);

afterAll(async () => {
  await system?.close();
  await sftp?.stop();
});

const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
  system.request(url, { ...init, cookie: people.admin.cookie });

async function setCodes() {
  const response = await admin('/api/admin/settings', {
    method: 'PUT',
    json: {
      isrcRegistrant: 'qz-abc',
      upcPrefix: '0614141',
      ddexSenderPartyId: 'PADPIDA2013042401U',
      ddexSenderName: 'Tunedrop',
    },
  });
  expect(response.status).toBe(200);
  return readJson(response);
}

async function addTarget(body: Record<string, unknown>) {
  const response = await admin('/api/admin/delivery/targets', {
    method: 'POST',
    json: { dpid: DPID, platforms: 'all', profile: 'release', ...body },
  });
  const json = await readJson(response);
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json as { id: string; urlMasked: string };
}

async function approve(releaseId: string) {
  const response = await system.request(`/api/admin/releases/${releaseId}/approve`, {
    method: 'POST',
    cookie: people.moderator.cookie,
  });
  expect(response.status).toBe(200);
}

async function deliveriesOf(releaseId: string) {
  return system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
}

async function disableAllTargets() {
  const list = await readJson(await admin('/api/admin/delivery/targets'));
  for (const t of list.items) {
    await admin(`/api/admin/delivery/targets/${t.id}`, { method: 'PATCH', json: { enabled: false } });
  }
}

describe('codes', () => {
  it('without a prefix, approval works and the release waits in "needs codes"; backfill gives it codes', async () => {
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      trackCount: 2,
    });
    await approve(releaseId);
    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(release?.status).toBe('approved');
    expect(release?.upc).toBeNull();
    const settings = await readJson(await admin('/api/admin/settings'));
    expect(settings.needsCodesCount).toBeGreaterThanOrEqual(1);
    expect(settings.ddexSenderPartyId).toBe(system.config.DDEX_SENDER_PARTY_ID);
    const detail = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: people.artist.cookie }),
    );
    expect(detail.codesPending).toBe(true);

    await setCodes(); // saving the prefixes backfills
    const output = await cliCommands['codes:backfill']?.run(system, [], {});
    expect(output).toMatch(/Assigned/);
    const [after] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(after?.upc && isUpc(after.upc)).toBe(true);
    const trackRows = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    const year = String(new Date().getUTCFullYear() % 100).padStart(2, '0');
    for (const t of trackRows) expect(t.isrc).toMatch(new RegExp(`^QZABC${year}\\d{5}$`));
    expect((await readJson(await admin('/api/admin/settings'))).needsCodesCount).toBe(0);
  });

  it('UPCs carry a correct GS1 check digit', () => {
    expect(upcFor('0614141', 1)).toBe('614141000012');
    expect(isUpc(upcFor('0614141', 1))).toBe(true);
    expect(isUpc(upcFor('5901234', 12345))).toBe(true);
  });

  it('parallel approvals never hand out one code twice; artist codes are kept', async () => {
    await setCodes();
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createTestRelease(system, people.artist.userId, {
          status: 'pending',
          trackCount: 3,
          ...(i === 0 ? { upc: '5901234123457', isrcs: ['USRC17607839', null, null] } : {}),
        }),
      ),
    );
    await Promise.all(created.map((c) => approve(c.releaseId)));
    const all = await system.db.select({ isrc: tracks.isrc, releaseId: tracks.releaseId }).from(tracks);
    const mine = all.filter((t) => created.some((c) => c.releaseId === t.releaseId));
    expect(mine.every((t) => t.isrc)).toBe(true);
    expect(new Set(mine.map((t) => t.isrc)).size).toBe(mine.length);
    expect(mine.map((t) => t.isrc)).toContain('USRC17607839');
    const upcs = (await system.db.select({ id: releases.id, upc: releases.upc }).from(releases)).filter((r) =>
      created.some((c) => c.releaseId === r.id),
    );
    expect(new Set(upcs.map((r) => r.upc)).size).toBe(6);
    expect(upcs.find((r) => r.id === created[0]?.releaseId)?.upc).toBe('5901234123457');
  });

  it('refuses to approve a release whose artist UPC another release already carries', async () => {
    await setCodes();
    const first = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      upc: '4006381333931',
    });
    const second = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      upc: '4006381333931',
    });
    await approve(first.releaseId);
    const refused = await system.request(`/api/admin/releases/${second.releaseId}/approve`, {
      method: 'POST',
      cookie: people.moderator.cookie,
    });
    expect(refused.status).toBe(409);
    expect((await readJson(refused)).error.message).toBe(DELIVERY_MESSAGES.upcTakenAtApproval);
    const [row] = await system.db.select().from(releases).where(eq(releases.id, second.releaseId));
    expect(row?.status).toBe('pending');
  });
});

describe('delivery over real SFTP', () => {
  let targetId: string;

  it('validates target input and never returns the credentials', async () => {
    const bad = await admin('/api/admin/delivery/targets', {
      method: 'POST',
      json: { name: 'x', url: 'ftp://nope', dpid: DPID, platforms: 'all' },
    });
    expect(bad.status).toBe(422);
    const target = await addTarget({
      name: 'Store A',
      url: `sftp://${sftp.user}:s3cret@127.0.0.1:${sftp.port}${sftp.root}`,
      privateKey: sftp.privateKey,
      platforms: ['spotify'],
    });
    targetId = target.id;
    expect(target.urlMasked).toContain(':***@');
    const list = await readJson(await admin('/api/admin/delivery/targets'));
    expect(JSON.stringify(list)).not.toContain('s3cret');
    expect(JSON.stringify(list)).not.toContain('PRIVATE KEY');
    const test = await readJson(
      await admin(`/api/admin/delivery/targets/${targetId}/test`, { method: 'POST' }),
    );
    expect(test).toMatchObject({ ok: true });
    const forbidden = await system.request('/api/admin/delivery/targets', {
      cookie: people.moderator.cookie,
    });
    expect(forbidden.status).toBe(403);
  });

  it('a double approval (two requests at once) makes one delivery job and, run twice, one package', async () => {
    await setCodes();
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      trackCount: 1,
      distributionStores: ['spotify'],
    });
    const answers = await Promise.all(
      [1, 2].map(() =>
        system.request(`/api/admin/releases/${releaseId}/approve`, {
          method: 'POST',
          cookie: people.moderator.cookie,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toContain(200);
    const queued = await deliveriesOf(releaseId);
    expect(queued).toHaveLength(1);
    const deliveryId = queued[0]?.id ?? '';
    const jobs = await rows<{ state: string }>(
      system.db,
      sql`select state from pgboss.job where name = 'delivery.send' and data->>'deliveryId' = ${deliveryId}`,
    );
    expect(jobs).toEqual([{ state: 'created' }]);
    // The job's handler, run twice (as a retry would): one package, then nothing to do.
    const context = { deps: system, jobId: 'test', retryCount: 0, logger: system.logger };
    await sendDelivery.run({ deliveryId }, context);
    await sendDelivery.run({ deliveryId }, context);
    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    const packages = readDeliveries(sftp.root).filter((p) => p.xml.includes(`<ICPN>${release?.upc}</ICPN>`));
    expect(packages).toHaveLength(1);
    expect((await deliveriesOf(releaseId))[0]?.state).toBe('delivered');
  });

  it('approval → schema-valid ERN package with MD5s over SFTP → ack → acknowledged → live on its date', async () => {
    await setCodes();
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      trackCount: 2,
      releaseDate: '2020-01-10',
      distributionStores: ['spotify', 'apple_music'],
    });
    await approve(releaseId);
    const [queued] = await deliveriesOf(releaseId);
    expect(queued?.state).toBe('queued');
    expect(queued?.platforms).toEqual(['spotify']);

    const pass = await run();
    expect(pass.jobs).toBeGreaterThanOrEqual(1);
    const [delivered] = await deliveriesOf(releaseId);
    expect(delivered?.state).toBe('delivered');

    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    const pkg = readDeliveries(sftp.root).find((p) => p.xml.includes(`<ICPN>${release?.upc}</ICPN>`));
    expect(pkg).toBeDefined();
    if (!pkg) return;
    expect(pkg.folder).toMatch(new RegExp(`^N_${release?.upc}_\\d{17}$`));
    expect(pkg.xmlFile).toBe(`${pkg.folder}/${release?.upc}.xml`);
    expect(pkg.resources).toEqual([
      `${release?.upc}_T1_SoundRecording_001_001.wav`,
      `${release?.upc}_T2_SoundRecording_001_002.wav`,
    ]);
    const validation = validateErn43(pkg.xml);
    expect(validation.status, validation.report).toBe(0);
    for (const name of pkg.resources) {
      const sum = createHash('md5')
        .update(fs.readFileSync(path.join(sftp.root, pkg.folder, 'resources', name)))
        .digest('hex');
      expect(pkg.xml).toContain(`<URI>resources/${name}</URI>`);
      expect(pkg.xml).toContain(`<HashSumValue>${sum}</HashSumValue>`);
    }
    expect(pkg.xml).toContain('<FullName>Spotify</FullName>');
    expect(pkg.xml).not.toContain('Apple Music');
    expect(pkg.xml).toContain('<StartDate>2020-01-10</StartDate>');
    expect(pkg.xml).toMatch(/<ISRC>QZABC\d{7}<\/ISRC>/);

    storeAcknowledgeAll(sftp.root);
    await run();
    const [acked] = await deliveriesOf(releaseId);
    expect(acked?.state).toBe('acknowledged');
    const [live] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(live?.status).toBe('live');

    const detail = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: people.artist.cookie }),
    );
    expect(detail.stores.find((s: { platformId: string }) => s.platformId === 'spotify').state).toBe('live');
    // No enabled target serves Apple Music: the artist is told so, not left "Waiting" (issue 44).
    expect(detail.stores.find((s: { platformId: string }) => s.platformId === 'apple_music').state).toBe(
      'no_connection',
    );
    expect(detail.tracks[0].isrc).toMatch(/^QZABC/);
    expect(detail.statusHistory.map((e: { status: string }) => e.status)).toContain('live');
    const other = await system.request(`/api/releases/${releaseId}/detail`, {
      cookie: people.moderator.cookie,
    });
    expect(other.status).toBe(404);

    const deliveryId = acked?.id as string;
    const full = await readJson(await admin(`/api/admin/deliveries/${deliveryId}`));
    expect(full.attemptsList[0].acks[0].outcome).toBe('accepted');
    const zip = await admin(
      `/api/admin/deliveries/${deliveryId}/attempts/${full.attemptsList[0].id}/package`,
    );
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('a rejection shows the store message; retry delivers again and the next ack is accepted', async () => {
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    await approve(releaseId);
    await run();
    const [first] = await deliveriesOf(releaseId);
    const firstPkg = readDeliveries(sftp.root).filter((p) => p.folder.includes(''));
    storeAcknowledgeAll(sftp.root, () => ({
      status: 'SignatureOrHashSumWrongOrMissing',
      errorText: 'T1 checksum mismatch',
    }));
    await run();
    const [rejected] = await deliveriesOf(releaseId);
    expect(rejected?.state).toBe('rejected');
    expect(rejected?.lastError).toContain('T1 checksum mismatch');
    const list = await readJson(await admin(`/api/admin/deliveries?state=rejected`));
    expect(list.items.some((i: { id: string }) => i.id === first?.id)).toBe(true);
    const retried = await admin(`/api/admin/deliveries/${first?.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(200);
    expect((await readJson(retried)).state).toBe('queued');
    await run();
    storeAcknowledgeAll(sftp.root);
    await run();
    const [final] = await deliveriesOf(releaseId);
    expect(final?.state).toBe('acknowledged');
    const history = await readJson(await admin(`/api/admin/deliveries/${final?.id}`));
    expect(history.attemptsList.map((a: { number: number }) => a.number)).toEqual([2, 1]);
    expect(history.attemptsList[1].acks[0]).toMatchObject({
      outcome: 'rejected',
      errorText: 'T1 checksum mismatch',
    });
    expect(readDeliveries(sftp.root).length).toBeGreaterThan(firstPkg.length);
    const again = await admin(`/api/admin/deliveries/${first?.id}/retry`, { method: 'POST' });
    expect(again.status).toBe(409);
  });

  it('takedown approval sends a message without deals and the release becomes taken_down on the ack', async () => {
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    await approve(releaseId);
    await run();
    storeAcknowledgeAll(sftp.root);
    await run();
    const refused = await system.request(`/api/admin/releases/${releaseId}`, {
      method: 'DELETE',
      cookie: people.moderator.cookie,
    });
    expect(refused.status).toBe(409);
    expect((await readJson(refused)).error.message).toMatch(/take it down from every store first/);
    await system.db
      .update(releases)
      .set({ takedownRequested: true, takedownRequestedAt: new Date() })
      .where(eq(releases.id, releaseId));
    const decided = await system.request(`/api/admin/releases/${releaseId}/takedown/approve`, {
      method: 'POST',
      cookie: people.moderator.cookie,
    });
    expect(decided.status).toBe(200);
    const [pending] = await deliveriesOf(releaseId);
    expect(pending?.state).toBe('takedown_queued');
    const [stillOut] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(['approved', 'live']).toContain(stillOut?.status);
    await run();
    const [sent] = await deliveriesOf(releaseId);
    expect(sent?.state).toBe('takedown_sent');
    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    const takedownXml = readDeliveries(sftp.root)
      .filter((p) => p.xml.includes(`<ICPN>${release?.upc}</ICPN>`))
      .pop();
    expect(takedownXml?.xml).not.toContain('<DealList>');
    expect(takedownXml?.resources).toEqual([]);
    expect(validateErn43(takedownXml?.xml ?? '').status).toBe(0);
    storeAcknowledgeAll(sftp.root);
    await run();
    const [down] = await deliveriesOf(releaseId);
    expect(down?.state).toBe('taken_down');
    const [after] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(after?.status).toBe('taken_down');
    const deleted = await system.request(`/api/admin/releases/${releaseId}`, {
      method: 'DELETE',
      cookie: people.moderator.cookie,
    });
    expect(deleted.status).toBe(200);
  });
});

describe('per-store takedown and batches (folder targets)', () => {
  it('the artist asks for one store; the admin approves; an update drops only that store', async () => {
    await disableAllTargets();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-folder-'));
    await addTarget({ name: `Aggregator ${Date.now()}`, url: `file://${folder}`, platforms: 'all' });
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify', 'deezer'],
    });
    await approve(releaseId);
    await run();
    storeAcknowledgeAll(folder);
    await run();
    const requested = await system.request(`/api/releases/${releaseId}/store-takedowns`, {
      method: 'POST',
      cookie: people.artist.cookie,
      json: { platformId: 'deezer' },
    });
    expect(requested.status).toBe(201);
    const detail = await readJson(requested);
    expect(detail.stores.find((s: { platformId: string }) => s.platformId === 'deezer').state).toBe(
      'takedown_requested',
    );
    const twice = await system.request(`/api/releases/${releaseId}/store-takedowns`, {
      method: 'POST',
      cookie: people.artist.cookie,
      json: { platformId: 'deezer' },
    });
    expect(twice.status).toBe(409);
    const list = await readJson(await admin(`/api/admin/deliveries?releaseId=${releaseId}`));
    expect(list.items[0].pendingStoreTakedowns).toEqual(['deezer']);
    const approved = await admin(`/api/admin/releases/${releaseId}/takedown`, {
      method: 'POST',
      json: { platformId: 'deezer' },
    });
    expect(approved.status).toBe(200);
    const [update] = await deliveriesOf(releaseId);
    expect(update?.action).toBe('update');
    expect(update?.platforms).toEqual(['spotify']);
    await run();
    const xml = readDeliveries(folder).pop()?.xml ?? '';
    expect(xml).toContain('<FullName>Spotify</FullName>');
    expect(xml).not.toContain('Deezer');
    expect(validateErn43(xml).status).toBe(0);
    storeAcknowledgeAll(folder);
    await run();
    const after = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: people.artist.cookie }),
    );
    expect(after.stores.find((s: { platformId: string }) => s.platformId === 'deezer').state).toBe(
      'taken_down',
    );
    expect(['acknowledged', 'live']).toContain(
      after.stores.find((s: { platformId: string }) => s.platformId === 'spotify').state,
    );
  });

  it('batch profile: one batch folder, the BatchComplete manifest written last', async () => {
    await disableAllTargets();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-batch-'));
    await addTarget({
      name: `Batch ${Date.now()}`,
      url: `file://${folder}`,
      platforms: 'all',
      profile: 'batch',
    });
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const { releaseId } = await createTestRelease(system, people.artist.userId, { status: 'pending' });
      await approve(releaseId);
      ids.push(releaseId);
    }
    await run();
    const batches = fs.readdirSync(folder).filter((n) => n.startsWith('N_'));
    expect(batches).toHaveLength(1);
    const batch = batches[0] as string;
    const entries = fs.readdirSync(path.join(folder, batch));
    const manifestName = entries.find((n) => n.startsWith('BatchComplete_'));
    expect(manifestName).toBe(`BatchComplete_${batch.slice(2)}.xml`);
    const manifest = fs.readFileSync(path.join(folder, batch, manifestName as string), 'utf8');
    expect(manifest).toContain('<NumberOfMessages>3</NumberOfMessages>');
    const manifestTime = fs.statSync(path.join(folder, batch, manifestName as string)).mtimeMs;
    for (const pkg of readDeliveries(folder)) {
      expect(fs.statSync(path.join(folder, pkg.xmlFile)).mtimeMs).toBeLessThanOrEqual(manifestTime);
    }
    storeAcknowledgeAll(folder);
    await run();
    for (const id of ids) expect((await deliveriesOf(id))[0]?.state).toBe('acknowledged');
  });
});

describe('CLI', () => {
  it('settings:set validates its value; delivery:target:add registers a target with a clear summary', async () => {
    const settingsSet = cliCommands['settings:set'];
    const targetAdd = cliCommands['delivery:target:add'];
    if (!settingsSet || !targetAdd) throw new Error('delivery commands are not registered');
    await expect(settingsSet.run(system, ['UPC_PREFIX', '12x'], {})).rejects.toThrow(/GS1 company prefix/);
    await expect(settingsSet.run(system, ['NOPE', '1'], {})).rejects.toThrow(/KEY must be one of/);
    expect(await settingsSet.run(system, ['DDEX_SENDER_NAME', 'Tunedrop CLI'], {})).toBe(
      'DDEX_SENDER_NAME = Tunedrop CLI',
    );
    expect((await readJson(await admin('/api/admin/settings'))).ddexSenderName).toBe('Tunedrop CLI');
    await expect(
      targetAdd.run(system, [], {
        name: 'CLI bad',
        url: 'sftp://h/in',
        dpid: DPID,
        platforms: 'spotify,nope',
      }),
    ).rejects.toThrow(/--platforms/);
    await expect(targetAdd.run(system, [], { name: 'CLI missing url' })).rejects.toThrow('--url is required');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-'));
    const output = await targetAdd.run(system, [], {
      name: `CLI ${Date.now()}`,
      url: `file://${folder}`,
      dpid: DPID,
      platforms: 'spotify,deezer',
      profile: 'batch',
    });
    expect(output).toMatch(/^Added delivery target CLI \d+ .*spotify, deezer, batch profile$/);
  });
});

describe('unapprove', () => {
  it('takes delivered packages down and drops jobs never sent', async () => {
    await setCodes();
    await disableAllTargets();
    const sent = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-unapprove-'));
    await addTarget({ name: `Sent ${Date.now()}`, url: `file://${sent}`, platforms: ['spotify'] });
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    await approve(releaseId);
    await run();
    expect((await deliveriesOf(releaseId))[0]?.state).toBe('delivered');
    const response = await system.request(`/api/admin/releases/${releaseId}/unapprove`, {
      method: 'POST',
      cookie: people.moderator.cookie,
    });
    expect(response.status).toBe(200);
    expect((await deliveriesOf(releaseId))[0]?.state).toBe('takedown_queued');
    await run();
    const last = readDeliveries(sent).pop();
    expect(last?.xml).not.toContain('<DealList>');
  });
});

describe('several workers', () => {
  it('two workers claiming at once never deliver one release twice', async () => {
    await setCodes();
    await disableAllTargets();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-workers-'));
    await addTarget({ name: `Workers ${Date.now()}`, url: `file://${folder}`, platforms: 'all' });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { releaseId } = await createTestRelease(system, people.artist.userId, { status: 'pending' });
      await approve(releaseId);
      ids.push(releaseId);
    }
    await Promise.all([
      runDeliveryOnce(system, { workerId: 'w1', pollAcks: false }),
      runDeliveryOnce(system, { workerId: 'w2', pollAcks: false }),
    ]);
    const attempts = await system.db
      .select({ deliveryId: deliveryAttempts.deliveryId })
      .from(deliveryAttempts)
      .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
      .where(inArray(deliveries.releaseId, ids));
    expect(attempts).toHaveLength(8);
    expect(new Set(attempts.map((a) => a.deliveryId)).size).toBe(8);
    expect(readDeliveries(folder)).toHaveLength(8);
  });

  it('a job whose worker died mid-upload is taken over when its lease runs out and restarts cleanly', async () => {
    await setCodes();
    await disableAllTargets();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-lease-'));
    await addTarget({ name: `Lease ${Date.now()}`, url: `file://${folder}`, platforms: 'all' });
    const { releaseId } = await createTestRelease(system, people.artist.userId, { status: 'pending' });
    await approve(releaseId);
    // A worker claims the job and dies: its attempt stays "running", the row "uploading".
    const options = resolveOptions({ workerId: 'dead', leaseMs: 60_000 });
    const [claimed] = await claimJobs(system.db, options);
    expect(claimed?.releaseId).toBe(releaseId);
    await system.db.insert(deliveryAttempts).values({
      deliveryId: claimed?.id as string,
      number: 1,
      action: 'new',
      messageId: `DEAD-${Date.now()}`,
    });
    await run();
    expect((await deliveriesOf(releaseId))[0]?.state).toBe('uploading'); // lease still valid: nobody touches it
    await system.db
      .update(deliveries)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(deliveries.id, claimed?.id as string));
    await run();
    const [row] = await deliveriesOf(releaseId);
    expect(row?.state).toBe('delivered');
    const attempts = await system.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, row?.id as string));
    expect(attempts.map((a) => a.outcome).sort()).toEqual(['failed', 'uploaded']);
    expect(attempts.find((a) => a.outcome === 'failed')?.error).toMatch(/Interrupted/);
  });
});

describe('bad input', () => {
  it('unreachable host, wrong login and an unwritable path each give a clear state; other deliveries go on', async () => {
    await disableAllTargets();
    const good = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-good-'));
    fs.writeFileSync(path.join(sftp.root, 'a-file'), 'x');
    // Enabled, each would be refused by the add's own test (issue 26): added disabled, then switched on.
    const addBroken = async (body: Record<string, unknown>) => {
      const { id } = await addTarget({ ...body, enabled: false });
      await admin(`/api/admin/delivery/targets/${id}`, { method: 'PATCH', json: { enabled: true } });
    };
    await addBroken({ name: `Down ${Date.now()}`, url: 'sftp://u:p@127.0.0.1:1/in', platforms: ['spotify'] });
    await addBroken({
      name: `Wrong ${Date.now()}`,
      url: `sftp://${sftp.user}:wrong@127.0.0.1:${sftp.port}${sftp.root}`,
      platforms: ['spotify'],
    });
    await addBroken({
      name: `Unwritable ${Date.now()}`,
      url: sftp.url('a-file/sub'),
      privateKey: sftp.privateKey,
      platforms: ['spotify'],
    });
    await addTarget({ name: `Good ${Date.now()}`, url: `file://${good}`, platforms: ['spotify'] });
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    await approve(releaseId);
    await runDeliveryOnce(system, { retryBaseMs: 60_000 });
    const rows = await system.db
      .select({ state: deliveries.state, error: deliveries.lastError, attempts: deliveries.attempts })
      .from(deliveries)
      .where(eq(deliveries.releaseId, releaseId));
    expect(rows).toHaveLength(4);
    const errors = rows.map((r) => r.error ?? '').join('\n');
    expect(errors).toMatch(/Connection refused/);
    expect(errors).toMatch(/Login refused/);
    expect(rows.filter((r) => r.state === 'delivered')).toHaveLength(1);
    expect(rows.filter((r) => r.state === 'queued')).toHaveLength(3);
    expect(
      rows.find((r) => r.error && !/Connection refused|Login refused/.test(r.error))?.error,
    ).toBeTruthy();

    // Bounded attempts: after max_attempts the job is failed and the admin is mailed.
    await system.db
      .update(deliveries)
      .set({ maxAttempts: 2, nextAttemptAt: new Date() })
      .where(eq(deliveries.releaseId, releaseId));
    await run();
    const failed = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(failed.filter((r) => r.state === 'failed')).toHaveLength(3);
    const mails = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, people.admin.email));
    expect(mails.some((m) => m.subject.startsWith('Delivery failed'))).toBe(true);
  });

  it('a full remote disk is named as such, keeps the job for a retry, and other deliveries go on', async () => {
    await setCodes();
    await disableAllTargets();
    // A 64 KB filesystem inside the SFTP root: smaller than one WAV (root is needed to mount; CI runs as root).
    const full = path.join(sftp.root, `full-${Date.now()}`);
    fs.mkdirSync(full);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]);
    expect(mounted.status, String(mounted.stderr)).toBe(0);
    try {
      const good = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-good-'));
      await addTarget({
        name: `Full ${Date.now()}`,
        url: sftp.url(path.basename(full)),
        privateKey: sftp.privateKey,
        platforms: ['spotify'],
      });
      await addTarget({ name: `Roomy ${Date.now()}`, url: `file://${good}`, platforms: ['spotify'] });
      const { releaseId } = await createTestRelease(system, people.artist.userId, {
        status: 'pending',
        distributionStores: ['spotify'],
      });
      await approve(releaseId);
      await runDeliveryOnce(system, { retryBaseMs: 60_000 });
      const rows = await system.db
        .select({ state: deliveries.state, error: deliveries.lastError })
        .from(deliveries)
        .where(eq(deliveries.releaseId, releaseId));
      expect(rows.map((r) => r.state).sort()).toEqual(['delivered', 'queued']);
      expect(rows.find((r) => r.state === 'queued')?.error).toMatch(/^The target is full/);
    } finally {
      spawnSync('umount', [full]);
    }
  });

  it('a half-written ack is kept as malformed and read again when complete; an unknown message is kept and shown', async () => {
    await disableAllTargets();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-acks-'));
    await addTarget({ name: `Acks ${Date.now()}`, url: `file://${folder}`, platforms: 'all' });
    const { releaseId } = await createTestRelease(system, people.artist.userId, { status: 'pending' });
    await approve(releaseId);
    await run();
    const pkg = readDeliveries(folder)[0];
    expect(pkg).toBeDefined();
    const full = ackXml({ messageId: pkg?.messageId ?? '' });
    const file = writeAck(folder, pkg?.folder ?? '', pkg?.messageId ?? '', full.slice(0, 200));
    writeAck(folder, pkg?.folder ?? '', 'NOT-OURS', ackXml({ messageId: 'TD-UNKNOWN-1' }));
    await run();
    expect((await deliveriesOf(releaseId))[0]?.state).toBe('delivered');
    const unmatched = await readJson(await admin('/api/admin/delivery/unmatched-acks'));
    const outcomes = unmatched.items.map((a: { outcome: string }) => a.outcome);
    expect(outcomes).toContain('malformed');
    expect(outcomes).toContain('unknown_message');
    fs.writeFileSync(file, full);
    await run();
    expect((await deliveriesOf(releaseId))[0]?.state).toBe('acknowledged');
  });

  it('parses both acknowledgement generations and refuses junk without throwing', () => {
    expect(parseAck('<a><b>')).toMatchObject({ kind: 'malformed' });
    expect(parseAck('')).toMatchObject({ kind: 'malformed' });
    expect(parseAck('<Foo/>')).toMatchObject({ kind: 'malformed' });
    expect(
      parseAck(
        '<ern-c:FtpAcknowledgementMessage xmlns:ern-c="http://ddex.net/xml/ern-c/14"><FileStatus>ResourceCorrupt</FileStatus><ErrorText>bad wav</ErrorText></ern-c:FtpAcknowledgementMessage>',
      ),
    ).toMatchObject({ kind: 'ack', items: [{ isAccepted: false, errorText: 'bad wav' }] });
  });
});
