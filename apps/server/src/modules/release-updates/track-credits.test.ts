/**
 * Credits and ISRC fixed after release (issue 44 finding 4, record 236): the owner of a live release
 * proposes a track's new songwriters, producers, performers and ISRC through the post-release update; it
 * waits in review (the track and the store unchanged), the moderator approves it, the track takes it and
 * the store gets an update carrying the new credits and code. An ISRC is checked: its format, Pro only,
 * not another track's, and again at approval; a refused request changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { RELEASE_UPDATE_MESSAGES } from '@tunedrop/shared/schemas/release-updates';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, producers, releases, songwriters, tracks } from '../../db/schema';
import { releaseUpdates } from '../../db/schema/release-updates';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { readDeliveries, storeAcknowledgeAll } from '../../test-support/sftp';
import { runDeliveryOnce } from '../delivery';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let folder: string;
let pro: Awaited<ReturnType<TestSystem['signedInUser']>>;
const run = () => runDeliveryOnce(system, { retryBaseMs: 0 });

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  pro = await system.signedInUser({ plan: 'pro', artistName: 'Credit Fixer' });
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
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-track-credits-'));
  const added = await system.request('/api/admin/delivery/targets', {
    method: 'POST',
    cookie: people.admin.cookie,
    json: {
      name: 'Credits Store',
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

const staffPost = (url: string) => system.request(url, { method: 'POST', cookie: people.moderator.cookie });

async function liveRelease(userId: string, title: string) {
  const { releaseId } = await createTestRelease(system, userId, {
    status: 'pending',
    title,
    releaseDate: '2024-01-05',
    trackCount: 2,
  });
  expect((await staffPost(`/api/admin/releases/${releaseId}/approve`)).status).toBe(200);
  await run();
  storeAcknowledgeAll(folder);
  await run();
  const trackRows = await system.db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  return { releaseId, trackRows };
}

/** A track's credits as the update form sends them, with `overrides`. */
const creditsOf = (trackId: string, overrides: Record<string, unknown> = {}) => ({
  trackId,
  primaryArtists: [{ name: 'Credit Fixer' }],
  featuredArtists: [],
  songwriters: [{ firstName: 'Ada', lastName: 'Writer', role: 'music_and_lyrics' }],
  producers: [{ firstName: 'Max', lastName: 'Beats' }],
  ...overrides,
});

const propose = (cookie: string, releaseId: string, json: unknown) =>
  system.request(`/api/releases/${releaseId}/update`, { method: 'POST', cookie, json });

const updatesOf = async (releaseId: string) =>
  system.db.select().from(releaseUpdates).where(eq(releaseUpdates.releaseId, releaseId));

describe('credits and ISRC after release', () => {
  it('go through review, reach the track at approval and the store as an update', async () => {
    const { releaseId, trackRows } = await liveRelease(pro.userId, 'Wrong Credits');
    const [first, second] = trackRows;
    if (!first || !second) throw new Error('two tracks expected');
    const [other] = (await liveRelease(pro.userId, 'Other Release')).trackRows;

    // Refused, changing nothing: a malformed ISRC, another track's ISRC, one ISRC on two tracks.
    const bad = await propose(pro.cookie, releaseId, { tracks: [creditsOf(first.id, { isrc: 'QZ-12' })] });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await readJson(bad))).toContain(BUILDER_MESSAGES.isrcInvalid);
    const taken = await propose(pro.cookie, releaseId, {
      tracks: [creditsOf(first.id, { isrc: other?.isrc })],
    });
    expect(taken.status).toBe(422);
    expect((await readJson(taken)).error.fields).toEqual({ 'tracks.0.isrc': BUILDER_MESSAGES.isrcTaken });
    const twice = await propose(pro.cookie, releaseId, {
      tracks: [creditsOf(first.id, { isrc: 'QZFIX2600001' }), creditsOf(second.id, { isrc: 'QZFIX2600001' })],
    });
    expect(twice.status).toBe(422);
    expect(await updatesOf(releaseId)).toHaveLength(0);

    const proposed = await propose(pro.cookie, releaseId, {
      tracks: [
        creditsOf(first.id, {
          isrc: 'qz-fix-26-00001',
          featuredArtists: [{ name: 'Guest Singer' }],
          songwriters: [
            { firstName: 'Ada', lastName: 'Writer', role: 'music' },
            { firstName: 'Lyra', middleName: 'J', lastName: 'Poet', role: 'lyrics' },
          ],
          producers: [{ firstName: 'Nia', lastName: 'Knobs' }],
        }),
      ],
    });
    const body = await readJson(proposed);
    expect(proposed.status, JSON.stringify(body)).toBe(201);
    const labels = body.update.changes.map((change: { label: string }) => change.label);
    expect(labels).toEqual([
      `ISRC, track 1 "${first.title}"`,
      `Primary artists, track 1 "${first.title}"`,
      `Featured artists, track 1 "${first.title}"`,
      `Songwriters, track 1 "${first.title}"`,
      `Producers, track 1 "${first.title}"`,
    ]);
    expect(body.update.changes[0]).toMatchObject({ before: first.isrc, after: 'QZFIX2600001' });
    expect(body.update.changes[1]).toMatchObject({ after: 'Credit Fixer' });
    expect(body.update.changes[4]).toMatchObject({ after: 'Nia Knobs' });
    // Nothing changes before the decision.
    const [waiting] = await system.db.select().from(tracks).where(eq(tracks.id, first.id));
    expect(waiting?.isrc).toBe(first.isrc);

    const approved = await staffPost(`/api/admin/release-updates/${body.update.id}/approve`);
    expect(approved.status, await approved.clone().text()).toBe(200);
    const [fixed] = await system.db.select().from(tracks).where(eq(tracks.id, first.id));
    expect(fixed).toMatchObject({ isrc: 'QZFIX2600001', featuredArtistsData: [{ name: 'Guest Singer' }] });
    const writers = await system.db.select().from(songwriters).where(eq(songwriters.trackId, first.id));
    expect(writers.map((w) => `${w.firstName} ${w.lastName} ${w.role}`).sort()).toEqual([
      'Ada Writer music',
      'Lyra Poet lyrics',
    ]);
    const makers = await system.db.select().from(producers).where(eq(producers.trackId, first.id));
    expect(makers.map((p) => p.lastName)).toEqual(['Knobs']);
    const [delivery] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(delivery).toMatchObject({ action: 'update', updateScope: { cover: false, audioTrackIds: [] } });

    await run();
    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    const update = readDeliveries(folder).find(
      (pkg) => pkg.folder.includes(release?.upc ?? '-') && pkg.xml.includes('QZFIX2600001'),
    );
    expect(update?.xml).toContain('Poet');
    expect(update?.xml).toContain('Knobs');
    expect(update?.xml).not.toContain(first.isrc ?? '-');
    // Metadata only: no file travels again.
    expect(update?.resources).toEqual([]);
  }, 120_000);

  it('keeps an ISRC change to Pro, and re-checks the code at approval', async () => {
    const basic = await system.signedInUser({ plan: 'basic', artistName: 'Basic Fixer' });
    const { releaseId, trackRows } = await liveRelease(basic.userId, 'Basic Credits');
    const [first] = trackRows;
    if (!first) throw new Error('a track expected');
    const refused = await propose(basic.cookie, releaseId, {
      tracks: [creditsOf(first.id, { primaryArtists: [{ name: 'Basic Fixer' }], isrc: 'QZFIX2600002' })],
    });
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).error.message).toBe(RELEASE_UPDATE_MESSAGES.isrcProOnly);

    // A Pro update whose new ISRC another track takes before the decision: approval refused, nothing changes.
    const { releaseId: proRelease, trackRows: proTracks } = await liveRelease(pro.userId, 'Race Credits');
    const [track] = proTracks;
    if (!track) throw new Error('a track expected');
    const proposed = await propose(pro.cookie, proRelease, {
      tracks: [creditsOf(track.id, { isrc: 'QZFIX2600003' })],
    });
    expect(proposed.status).toBe(201);
    const [rival] = proTracks.slice(1);
    await system.db
      .update(tracks)
      .set({ isrc: 'QZFIX2600003' })
      .where(eq(tracks.id, rival?.id ?? ''));
    const approval = await staffPost(
      `/api/admin/release-updates/${(await readJson(proposed)).update.id}/approve`,
    );
    expect(approval.status).toBe(409);
    expect((await readJson(approval)).error.message).toBe(BUILDER_MESSAGES.isrcTaken);
    const [unchanged] = await system.db.select().from(tracks).where(eq(tracks.id, track.id));
    expect(unchanged?.isrc).toBe(track.isrc);
  }, 120_000);
});
