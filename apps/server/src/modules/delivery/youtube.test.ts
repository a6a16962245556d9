/**
 * Delivery to YouTube (issue 28, record 192) with real parts: PGlite/PostgreSQL, a real OpenSSH sshd
 * as the YouTube dropbox, xmllint against the ERN 4.3 schema. A track opted in to Content ID reaches the
 * YouTube target with its Content ID deal once the release is approved; opting out sends the update that
 * withdraws it; a release without YouTube Music goes there only for Content ID; other targets never see it.
 */
import { CONTENT_ID_ELIGIBLE_ANSWERS } from '@tunedrop/shared/schemas/content-id';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentIdTracks, deliveries, releases } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { validateErn43 } from '../../test-support/ddex';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import {
  readDeliveries,
  type SftpServer,
  startSftpServer,
  storeAcknowledgeAll,
} from '../../test-support/sftp';
import { runDeliveryOnce } from './worker';

let system: TestSystem;
let youtube: SftpServer;
let store: SftpServer;
let people: Awaited<ReturnType<typeof staff>>;
let youtubeTargetId: string;
const YOUTUBE_DPID = 'PADPIDA2013020802I';
const CONTENT_ID_DPID = 'PADPIDA2015120100H';
const run = () => runDeliveryOnce(system, { retryBaseMs: 0 });

const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
  system.request(url, { ...init, cookie: people.admin.cookie });

beforeAll(async () => {
  youtube = await startSftpServer();
  store = await startSftpServer();
  system = await createTestSystem();
  people = await staff(system);
  const settings = await admin('/api/admin/settings', {
    method: 'PUT',
    json: {
      isrcRegistrant: 'qz-yta',
      upcPrefix: '0614142',
      ddexSenderPartyId: 'PADPIDA2013042401U',
      ddexSenderName: 'Tunedrop',
    },
  });
  expect(settings.status).toBe(200);
  const added = await admin('/api/admin/delivery/targets', {
    method: 'POST',
    json: {
      name: 'YouTube',
      url: youtube.url(),
      privateKey: youtube.privateKey,
      dpid: YOUTUBE_DPID,
      platforms: 'all',
      profile: 'youtube',
    },
  });
  const target = await readJson(added);
  expect(added.status, JSON.stringify(target)).toBe(201);
  expect(target.profile).toBe('youtube');
  youtubeTargetId = target.id;
  const other = await admin('/api/admin/delivery/targets', {
    method: 'POST',
    json: {
      name: 'Another store',
      url: store.url(),
      privateKey: store.privateKey,
      dpid: 'PADPIDA2009101501Y',
      platforms: ['spotify'],
      profile: 'release',
    },
  });
  expect(other.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await system?.close();
  await youtube?.stop();
  await store?.stop();
});

const optIn = (trackId: string) =>
  system.request(`/api/content-id/tracks/${trackId}`, {
    method: 'PUT',
    cookie: people.artist.cookie,
    json: CONTENT_ID_ELIGIBLE_ANSWERS,
  });
const optOut = (trackId: string) =>
  system.request(`/api/content-id/tracks/${trackId}`, { method: 'DELETE', cookie: people.artist.cookie });

async function approve(releaseId: string) {
  const response = await system.request(`/api/admin/releases/${releaseId}/approve`, {
    method: 'POST',
    cookie: people.moderator.cookie,
  });
  expect(response.status).toBe(200);
}

async function upcOf(releaseId: string) {
  const [row] = await system.db
    .select({ upc: releases.upc })
    .from(releases)
    .where(eq(releases.id, releaseId));
  return row?.upc ?? '';
}

/** The packages of a release at a store, oldest first. */
const packagesOf = (root: string, upc: string) =>
  readDeliveries(root)
    .filter((item) => item.xml.includes(`<ICPN>${upc}</ICPN>`))
    .sort((a, b) => a.folder.localeCompare(b.folder));

/** `R1: OnDemandStream+UserMakeAvailableUserProvided(end 2027-01-05)` per TrackRelease with deals. */
function dealSummary(xml: string): string[] {
  const deals = [...xml.matchAll(/<ReleaseDeal>([\s\S]*?)<\/ReleaseDeal>/g)].map((match) => match[1] ?? '');
  return deals.map((deal) => {
    const reference = /<DealReleaseReference>([^<]+)</.exec(deal)?.[1];
    const uses = [...deal.matchAll(/<Deal>([\s\S]*?)<\/Deal>/g)].map((one) => {
      const use = [...(one[1] ?? '').matchAll(/<UseType>([^<]+)</g)].map((m) => m[1]).join('+');
      const end = /<EndDate>([^<]+)</.exec(one[1] ?? '')?.[1];
      return end ? `${use}(ended)` : use;
    });
    return `${reference}: ${uses.join(', ')}`;
  });
}

const pendingFlags = async (trackIds: string[]) =>
  Promise.all(
    trackIds.map(async (trackId) => {
      const [row] = await system.db
        .select({ needs: contentIdTracks.needsYoutubeUpdate })
        .from(contentIdTracks)
        .where(eq(contentIdTracks.trackId, trackId));
      return row?.needs ?? null;
    }),
  );

describe('delivery to a YouTube target', () => {
  it('carries the Content ID deal for the opted-in track only, and opting out sends the withdrawal', async () => {
    const { releaseId, trackIds } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      trackCount: 2,
      distributionStores: ['spotify', 'youtube_music'],
    });
    const [first, second] = trackIds;
    if (!first || !second) throw new Error('two tracks expected');
    expect((await optIn(first)).status).toBe(200);
    // Nothing goes anywhere before approval.
    expect(await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId))).toEqual([]);

    await approve(releaseId);
    await run();
    const upc = await upcOf(releaseId);
    const [sent] = packagesOf(youtube.root, upc);
    if (!sent) throw new Error('no package at YouTube');
    expect(dealSummary(sent.xml)).toEqual([
      'R1: OnDemandStream, UserMakeAvailableUserProvided',
      'R2: OnDemandStream',
    ]);
    expect(sent.xml).toContain(`<PartyId>${CONTENT_ID_DPID}</PartyId>`);
    expect(sent.resources.filter((name) => name.endsWith('.wav'))).toHaveLength(2);
    const valid = validateErn43(sent.xml);
    expect(valid.status, valid.report).toBe(0);
    expect(await pendingFlags([first])).toEqual([false]);
    // The other store gets its release deal and no Content ID.
    const [elsewhere] = packagesOf(store.root, upc);
    expect(elsewhere?.xml).not.toContain('UserMakeAvailableUserProvided');
    expect(elsewhere?.xml).not.toContain('<TrackRelease>');

    storeAcknowledgeAll(youtube.root);
    storeAcknowledgeAll(store.root);
    await run();

    // Opting out queues an update to YouTube alone; it ends the Content ID deal, with no audio again.
    expect((await optOut(first)).status).toBe(200);
    const [queued] = await system.db
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.releaseId, releaseId), eq(deliveries.targetId, youtubeTargetId)));
    expect(queued).toMatchObject({ action: 'update', state: 'queued' });
    const others = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(others.filter((row) => row.state === 'queued')).toHaveLength(1);
    await run();
    const updates = packagesOf(youtube.root, upc);
    expect(updates).toHaveLength(2);
    const update = updates[1];
    expect(update?.folder.startsWith('N_')).toBe(true);
    expect(dealSummary(update?.xml ?? '')).toEqual([
      'R1: OnDemandStream, UserMakeAvailableUserProvided(ended)',
      'R2: OnDemandStream',
    ]);
    expect(update?.resources).toEqual([]);
    const validUpdate = validateErn43(update?.xml ?? '');
    expect(validUpdate.status, validUpdate.report).toBe(0);
    expect(await pendingFlags([first])).toEqual([false]);
    expect(packagesOf(store.root, upc)).toHaveLength(1);
  }, 60_000);

  it('a release without YouTube Music goes to YouTube only for Content ID, first when a track is opted in', async () => {
    const { releaseId, trackIds } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      trackCount: 2,
      distributionStores: ['spotify'],
    });
    const [first] = trackIds;
    if (!first) throw new Error('a track expected');
    await approve(releaseId);
    await run();
    const upc = await upcOf(releaseId);
    expect(packagesOf(youtube.root, upc)).toEqual([]);
    expect(packagesOf(store.root, upc)).toHaveLength(1);

    // Opted in after approval: a new delivery to YouTube, audio included, with the Content ID deal only.
    expect((await optIn(first)).status).toBe(200);
    await run();
    const [sent] = packagesOf(youtube.root, upc);
    expect(dealSummary(sent?.xml ?? '')).toEqual(['R1: UserMakeAvailableUserProvided']);
    expect(sent?.resources.filter((name) => name.endsWith('.wav'))).toHaveLength(2);
    const valid = validateErn43(sent?.xml ?? '');
    expect(valid.status, valid.report).toBe(0);
    expect(packagesOf(store.root, upc)).toHaveLength(1);
  }, 60_000);

  it('a release never opted in and without YouTube Music is not sent to YouTube', async () => {
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    await approve(releaseId);
    const rows = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(rows.map((row) => row.targetId)).not.toContain(youtubeTargetId);
  });
});
