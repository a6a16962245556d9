/**
 * Post-release edits (issue 26, record 197), through the app and a folder store: the owner's change to a
 * live release waits in review (release and stores unchanged), a moderator approves it (the release takes
 * it, codes stay, one update goes to the store resending only the changed file) or rejects it with a
 * reason (nothing changes, the proposed file goes); a store's rejection fixed by the artist is re-delivered
 * and cleared by the accepted answer. The rules: owner only, approved or live only, one update in review,
 * nothing-changed refused, Basic locks kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RELEASE_UPDATE_MESSAGES } from '@tunedrop/shared/schemas/release-updates';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deliveries, mailOutbox, releases, tracks } from '../../db/schema';
import { releaseUpdates } from '../../db/schema/release-updates';
import { staff } from '../../test-support/admin-fixtures';
import { tusUpload } from '../../test-support/builder-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { makeImage, makeWav } from '../../test-support/media';
import { readDeliveries, storeAcknowledgeAll } from '../../test-support/sftp';
import { runDeliveryOnce } from '../delivery';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let folder: string;
const run = () => runDeliveryOnce(system, { retryBaseMs: 0 });

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  const settings = await system.request('/api/admin/settings', {
    method: 'PUT',
    cookie: people.admin.cookie,
    json: {
      isrcRegistrant: 'qz-abc',
      upcPrefix: '0614141',
      ddexSenderPartyId: 'PADPIDA2013042401U',
      ddexSenderName: 'Tunedrop',
    },
  });
  expect(settings.status).toBe(200);
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-release-updates-'));
  const added = await system.request('/api/admin/delivery/targets', {
    method: 'POST',
    cookie: people.admin.cookie,
    json: {
      name: 'Update Store',
      url: `file://${folder}`,
      dpid: 'PADPIDA2009101501Y',
      platforms: 'all',
      profile: 'release',
    },
  });
  expect(added.status).toBe(201);
});
afterAll(async () => {
  await system?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

type Signed = Awaited<ReturnType<TestSystem['signedInUser']>>;

/** The Edit Release form's values for a release as it is, with some changed. */
const detailsOf = async (releaseId: string, overrides: Record<string, unknown> = {}) => {
  const row = await releaseRow(releaseId);
  return {
    title: row.title,
    primaryArtists: row.primaryArtists,
    featuredArtists: row.featuredArtists,
    genre: row.genre,
    labelName: row.labelName,
    copyrightHolder: row.copyrightHolder,
    copyrightYear: row.copyrightYear,
    publishingHolder: row.publishingHolder,
    ...overrides,
  };
};

const propose = (who: Signed, releaseId: string, json: unknown) =>
  system.request(`/api/releases/${releaseId}/update`, { method: 'POST', cookie: who.cookie, json });

const staffPost = (url: string, json?: unknown) =>
  system.request(url, { method: 'POST', cookie: people.moderator.cookie, ...(json ? { json } : {}) });

async function uploadCover(who: Signed) {
  const result = await tusUpload(system, who.cookie, {
    kind: 'cover',
    name: 'new-cover.jpg',
    body: await makeImage({ width: 3000, height: 3000, format: 'jpeg' }),
  });
  if (!result.id) throw new Error('cover upload failed');
  return result.id;
}

async function uploadWav(who: Signed, name: string) {
  const result = await tusUpload(system, who.cookie, {
    kind: 'audio',
    name,
    body: makeWav({ seconds: 1, sampleRate: 44100, bitDepth: 16, channels: 2 }),
  });
  if (!result.id) throw new Error('audio upload failed');
  return result.id;
}

const releaseRow = async (id: string) => {
  const [row] = await system.db.select().from(releases).where(eq(releases.id, id));
  if (!row) throw new Error('release missing');
  return row;
};

const deliveryOf = async (releaseId: string) => {
  const [row] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
  if (!row) throw new Error('delivery missing');
  return row;
};

const mailsTo = async (email: string) =>
  (await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email))).map((m) => m.subject);

/** A release approved by a moderator and delivered to the folder store, which accepts it: live. */
async function liveRelease(title: string) {
  const { releaseId } = await createTestRelease(system, people.artist.userId, {
    status: 'pending',
    title,
    releaseDate: '2024-01-05',
    trackCount: 2,
  });
  const approved = await staffPost(`/api/admin/releases/${releaseId}/approve`);
  expect(approved.status).toBe(200);
  await run();
  storeAcknowledgeAll(folder);
  await run();
  expect((await releaseRow(releaseId)).status).toBe('live');
  return releaseId;
}

/** The staff mails about an update of `title` waiting in review (record 179), with their bodies. */
const updateMailsTo = async (email: string, title: string) =>
  (await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email))).filter((m) =>
    m.subject.startsWith(`Release update to review: "${title}"`),
  );

/** My Songs' row of a release, as its owner's list shows it (GET /api/releases). */
const mySongsRow = async (who: Signed, releaseId: string) => {
  const list = await readJson(await system.request('/api/releases?limit=50', { cookie: who.cookie }));
  return list.items.find((item: { id: string }) => item.id === releaseId);
};

const packagesOf = (upc: string) => readDeliveries(folder).filter((pkg) => pkg.folder.includes(upc));

describe('post-release edits', () => {
  it('an edit of a live release waits in review, then goes to the store with only the changed file', async () => {
    const releaseId = await liveRelease('Old Title');
    const before = await releaseRow(releaseId);
    const trackRows = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, releaseId))
      .orderBy(asc(tracks.position));
    const coverId = await uploadCover(people.artist);

    const proposed = await propose(people.artist, releaseId, {
      details: await detailsOf(releaseId, { title: 'New Title' }),
      coverUploadId: coverId,
    });
    const body = await readJson(proposed);
    expect(proposed.status, JSON.stringify(body)).toBe(201);
    expect(body.update).toMatchObject({ state: 'in_review', releaseTitle: 'Old Title' });
    expect(body.update.changes).toEqual([
      expect.objectContaining({ kind: 'detail', field: 'title', before: 'Old Title', after: 'New Title' }),
      expect.objectContaining({ kind: 'cover', afterName: 'new-cover.jpg' }),
    ]);
    // Moderators and admins are mailed at once (their default), in the proposal's transaction; the
    // artist is not.
    for (const who of [people.moderator, people.admin]) {
      const mails = await updateMailsTo(who.email, 'Old Title');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.textBody).toContain('Changed: Release title, cover.');
      expect(mails[0]?.textBody).toContain('Admin → Review, under "Updates in review"');
    }
    expect(await updateMailsTo(people.artist.email, 'Old Title')).toHaveLength(0);
    // My Songs marks the row "Update in review" (and still shows the current title).
    expect(await mySongsRow(people.artist, releaseId)).toMatchObject({
      title: 'Old Title',
      status: 'live',
      updateInReview: true,
    });
    // Nothing changed yet: the release row and the store's delivery are as they were.
    const waiting = await releaseRow(releaseId);
    expect(waiting).toMatchObject({ title: 'Old Title', coverArtKey: before.coverArtKey, status: 'live' });
    expect((await deliveryOf(releaseId)).state).toBe('acknowledged');
    const proposedCover = await system.request(`/api/release-updates/${body.update.id}/cover/after`, {
      cookie: people.moderator.cookie,
    });
    expect(proposedCover.status).toBe(200);
    // Another artist sees neither the update nor its files.
    const stranger = await system.signedInUser({ plan: 'pro' });
    expect(
      (
        await system.request(`/api/release-updates/${body.update.id}/cover/after`, {
          cookie: stranger.cookie,
        })
      ).status,
    ).toBe(404);
    expect(
      (await propose(stranger, releaseId, { details: await detailsOf(releaseId, { title: 'Hijack' }) }))
        .status,
    ).toBe(404);

    // A second update while one is in review is refused, and changes nothing.
    const second = await propose(people.artist, releaseId, {
      details: await detailsOf(releaseId, { title: 'Newer Title' }),
    });
    expect(second.status).toBe(409);
    expect((await readJson(second)).error.message).toBe(RELEASE_UPDATE_MESSAGES.inReview);
    expect(await updateMailsTo(people.moderator.email, 'Old Title')).toHaveLength(1);

    // The reviewer's list shows the diff.
    const list = await readJson(
      await system.request('/api/admin/release-updates', { cookie: people.moderator.cookie }),
    );
    expect(list.items.find((item: { id: string }) => item.id === body.update.id)?.changes).toHaveLength(2);

    const approved = await staffPost(`/api/admin/release-updates/${body.update.id}/approve`);
    expect(approved.status, await approved.clone().text()).toBe(200);
    const after = await releaseRow(releaseId);
    expect(after).toMatchObject({ title: 'New Title', status: 'live', upc: before.upc });
    expect(after.coverArtKey).not.toBe(before.coverArtKey);
    const afterTracks = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    expect(afterTracks.map((t) => t.isrc).sort()).toEqual(trackRows.map((t) => t.isrc).sort());
    const delivery = await deliveryOf(releaseId);
    expect(delivery).toMatchObject({
      action: 'update',
      state: 'queued',
      updateScope: { cover: true, audioTrackIds: [] },
    });
    expect(await mailsTo(people.artist.email)).toContain('Your update to "New Title" has been approved');
    expect(await mySongsRow(people.artist, releaseId)).toMatchObject({
      title: 'New Title',
      updateInReview: false,
    });
    // Approving twice is refused.
    expect((await staffPost(`/api/admin/release-updates/${body.update.id}/approve`)).status).toBe(409);

    await run();
    const upc = after.upc ?? '';
    const packages = packagesOf(upc);
    expect(packages).toHaveLength(2);
    const update = packages.find((pkg) => pkg.xml.includes('New Title'));
    // Only the new cover travels with the update; the WAVs stay at the store.
    expect(update?.resources).toEqual([expect.stringMatching(/_CoverArt\.jpg$/)]);
    expect((await deliveryOf(releaseId)).state).toBe('delivered');
    const audits = await system.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.releaseId, releaseId));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(['release.update_request', 'release.update_approve']),
    );
  }, 120_000);

  it('a store rejection is fixed by the artist, re-delivered, and cleared by the accepted answer', async () => {
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      title: 'Bad Metadata',
      releaseDate: '2024-01-05',
    });
    expect((await staffPost(`/api/admin/releases/${releaseId}/approve`)).status).toBe(200);
    await run();
    storeAcknowledgeAll(folder, () => ({ status: 'MetadataMissing', errorText: 'Genre does not fit' }));
    await run();
    expect((await deliveryOf(releaseId)).state).toBe('rejected');
    const detail = async () =>
      readJson(await system.request(`/api/releases/${releaseId}/detail`, { cookie: people.artist.cookie }));
    expect((await detail()).storeRejections).toHaveLength(1);

    const proposed = await propose(people.artist, releaseId, {
      details: await detailsOf(releaseId, { title: 'Bad Metadata', genre: 'Rock' }),
    });
    const body = await readJson(proposed);
    expect(proposed.status, JSON.stringify(body)).toBe(201);
    expect(body.update.changes).toEqual([
      expect.objectContaining({ field: 'genre', before: 'Pop', after: 'Rock' }),
    ]);
    expect((await staffPost(`/api/admin/release-updates/${body.update.id}/approve`)).status).toBe(200);
    // The store never took the first package: the fix is resent whole.
    const delivery = await deliveryOf(releaseId);
    expect(delivery.action).toBe('update');
    expect(delivery.updateScope?.cover).toBe(true);
    expect(delivery.updateScope?.audioTrackIds).toHaveLength(1);
    await run();
    expect((await detail()).storeRejections).toHaveLength(1);
    storeAcknowledgeAll(folder);
    await run();
    expect((await detail()).storeRejections).toEqual([]);
    expect((await releaseRow(releaseId)).status).toBe('live');
  }, 120_000);

  it('refuses what the rules forbid and changes nothing', async () => {
    const pending = await createTestRelease(system, people.artist.userId, { status: 'pending' });
    const refused = await propose(people.artist, pending.releaseId, {
      details: await detailsOf(pending.releaseId, { title: 'X' }),
    });
    expect(refused.status).toBe(409);
    expect((await readJson(refused)).error.message).toBe(RELEASE_UPDATE_MESSAGES.notUpdatable);

    const live = await createTestRelease(system, people.artist.userId, { status: 'live' });
    const same = await propose(people.artist, live.releaseId, { details: await detailsOf(live.releaseId) });
    expect(same.status).toBe(422);
    expect((await readJson(same)).error.message).toBe(RELEASE_UPDATE_MESSAGES.nothingChanged);
    const [track] = await system.db.select().from(tracks).where(eq(tracks.releaseId, pending.releaseId));
    const wav = await uploadWav(people.artist, 'other.wav');
    const wrongTrack = await propose(people.artist, live.releaseId, {
      audio: [{ trackId: track?.id, uploadId: wav }],
    });
    expect(wrongTrack.status).toBe(422);

    const asked = await createTestRelease(system, people.artist.userId, {
      status: 'live',
      takedownRequested: true,
    });
    expect(
      (
        await propose(people.artist, asked.releaseId, {
          details: await detailsOf(asked.releaseId, { title: 'Y' }),
        })
      ).status,
    ).toBe(409);
    // No subscription: refused by the gate.
    const lapsed = await system.signedInUser({ plan: 'pro', subscription: 'inactive' });
    const theirs = await createTestRelease(system, lapsed.userId, { status: 'live' });
    expect(
      (
        await propose(lapsed, theirs.releaseId, {
          details: await detailsOf(theirs.releaseId, { title: 'Z' }),
        })
      ).status,
    ).toBe(402);
    expect(
      await system.db.select().from(releaseUpdates).where(eq(releaseUpdates.releaseId, live.releaseId)),
    ).toEqual([]);

    // Basic: the label and holders stay locked; only the title change is proposed.
    const basic = await system.signedInUser({ plan: 'basic', artistName: 'Basic Artist' });
    const own = await createTestRelease(system, basic.userId, { status: 'live', title: 'Basic Song' });
    const basicProposal = await propose(basic, own.releaseId, {
      details: await detailsOf(own.releaseId, { title: 'Basic Song 2', labelName: 'My Own Label' }),
    });
    const basicBody = await readJson(basicProposal);
    expect(basicProposal.status, JSON.stringify(basicBody)).toBe(201);
    const fields = basicBody.update.changes.map((change: { field: string }) => change.field);
    expect(fields).toContain('title');
    expect(fields).not.toContain('labelName');

    // A rejection needs a reason, keeps the release as it was and mails the artist.
    expect(
      (await staffPost(`/api/admin/release-updates/${basicBody.update.id}/reject`, { reason: ' ' })).status,
    ).toBe(422);
    const rejected = await staffPost(`/api/admin/release-updates/${basicBody.update.id}/reject`, {
      reason: 'The new title is not on the artwork.',
    });
    expect(rejected.status).toBe(200);
    expect((await releaseRow(own.releaseId)).title).toBe('Basic Song');
    expect(await mailsTo(basic.email)).toContain('Your update to "Basic Song" was not approved');
    // The artist may then send another.
    const again = await propose(basic, own.releaseId, {
      details: await detailsOf(own.releaseId, { title: 'Basic Song 3' }),
    });
    expect(again.status).toBe(201);
    // The artist cannot decide their own update.
    const own404 = await system.request(
      `/api/admin/release-updates/${(await readJson(again)).update.id}/approve`,
      {
        method: 'POST',
        cookie: basic.cookie,
      },
    );
    expect(own404.status).toBe(403);
    const state = await system.db
      .select({ state: releaseUpdates.state })
      .from(releaseUpdates)
      .where(and(eq(releaseUpdates.releaseId, own.releaseId), eq(releaseUpdates.state, 'in_review')));
    expect(state).toHaveLength(1);
  }, 120_000);
});
