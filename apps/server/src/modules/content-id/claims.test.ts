/**
 * Content ID claims API on the test database (PGlite by default, PostgreSQL with DATABASE_URL), decision 193:
 * a YouTube report imported and posted like any report credits the artist exactly (by ISRC and by asset
 * id), lists the claims with views and earnings, releases allow-listed channels at import; an artist
 * releases only their own claims, a Basic artist none; staff mark released claims done.
 */
import { CONTENT_ID_ELIGIBLE_ANSWERS } from '@tunedrop/shared/schemas/content-id';
import type { AdminContentIdClaim, ContentIdClaimView } from '@tunedrop/shared/schemas/content-id-claims';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, profiles } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

type Person = { userId: string; cookie: string; email: string };

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let pro: Person;
let other: Person;
let basic: Person;
let proTracks: string[];
const OWN_CHANNEL = 'UCownchannel0000000000_a';
const ASSET = 'A900000000000001';

const get = async <T>(path: string, cookie: string) => {
  const response = await system.request(path, { cookie });
  return { status: response.status, body: (await response.json()) as T };
};
const send = async <T>(method: string, path: string, cookie: string, json?: unknown) => {
  const response = await system.request(path, { method, cookie, ...(json === undefined ? {} : { json }) });
  return { status: response.status, body: (await response.json()) as T };
};

async function balanceOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  return row?.balanceCents ?? 0;
}

async function importAndPost(csv: string, name: string): Promise<string> {
  const search = new URLSearchParams({ filename: name, format: 'youtube' });
  const uploaded = await afterJobs(
    system,
    await system.request(`/api/admin/royalties/imports?${search}`, {
      method: 'POST',
      body: csv,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: people.admin.cookie,
    }),
    people.admin.cookie,
  );
  const summary = (await uploaded.json()) as { id: string; errors: string[]; format: string };
  expect(summary.errors).toEqual([]);
  expect(summary.format).toBe('youtube');
  const posted = await afterJobs(
    system,
    await system.request(`/api/admin/royalties/imports/${summary.id}/post`, {
      method: 'POST',
      cookie: people.admin.cookie,
    }),
    people.admin.cookie,
  );
  if (posted.status !== 202)
    throw new Error(`post: ${posted.status} ${await posted.text()} ${JSON.stringify(summary)}`);
  return summary.id;
}

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  [pro, other, basic] = await Promise.all([
    system.signedInUser({ plan: 'pro' }),
    system.signedInUser({ plan: 'pro' }),
    system.signedInUser({ plan: 'basic' }),
  ]);
  const release = await createTestRelease(system, pro.userId, {
    status: 'live',
    // Released before the report's months: no sanity warning to accept (record 187).
    releaseDate: '2026-01-01',
    trackCount: 2,
    isrcs: ['QZH8A2600001', 'QZH8A2600002'],
  });
  proTracks = release.trackIds;
  await createTestRelease(system, other.userId, {
    status: 'live',
    releaseDate: '2026-01-01',
    isrcs: ['QZH8B2600001'],
  });
  for (const trackId of proTracks) {
    const opted = await send(
      'PUT',
      `/api/content-id/tracks/${trackId}`,
      pro.cookie,
      CONTENT_ID_ELIGIBLE_ANSWERS,
    );
    expect(opted.status).toBe(200);
  }
  expect(
    (await send('POST', '/api/content-id/channels', pro.cookie, { channelId: OWN_CHANNEL })).status,
  ).toBe(201);
});
afterAll(async () => {
  await system.close();
});

describe("a track's YouTube asset id", () => {
  it('is set by an admin for an opted-in track, refused on another track and for a track never opted in', async () => {
    const asArtist = await send('PUT', `/api/admin/content-id/tracks/${proTracks[1]}/asset`, pro.cookie, {
      assetId: ASSET,
    });
    expect(asArtist.status).toBe(403);
    const set = await send('PUT', `/api/admin/content-id/tracks/${proTracks[1]}/asset`, people.admin.cookie, {
      assetId: ASSET,
    });
    expect(set).toEqual({ status: 200, body: { trackId: proTracks[1], assetId: ASSET } });
    const listed = await get<{
      items: { userId: string; tracks: { trackId: string; assetId: string | null }[] }[];
    }>('/api/admin/content-id', people.admin.cookie);
    const artist = listed.body.items.find((item) => item.userId === pro.userId);
    expect(artist?.tracks.map((track) => [track.trackId, track.assetId])).toEqual([
      [proTracks[0], null],
      [proTracks[1], ASSET],
    ]);
    const taken = await send(
      'PUT',
      `/api/admin/content-id/tracks/${proTracks[0]}/asset`,
      people.admin.cookie,
      {
        assetId: ASSET,
      },
    );
    expect(taken.status).toBe(409);
    const bad = await send('PUT', `/api/admin/content-id/tracks/${proTracks[0]}/asset`, people.admin.cookie, {
      assetId: 'not an asset',
    });
    expect(bad.status).toBe(422);
  });
});

describe('importing a YouTube Content ID report', () => {
  let importId: string;
  let before: { pro: number; other: number };

  it('posts like any report: each artist credited exactly, by ISRC and by asset id', async () => {
    before = { pro: await balanceOf(pro.userId), other: await balanceOf(other.userId) };
    importId = await importAndPost(
      [
        'adjustment_type,day,country,video_id,channel_id,asset_id,isrc,video_title,channel_display_name,owned_views,partner_revenue',
        // The same video in two countries: one claim, 1,500 views, $2.00.
        'None,2026-03-01,US,vidAAAAAAA1,UCfanchannel00000000000a,A900000000000077,QZH8A2600001,Fan edit,Fan Channel,1000,1.234567',
        'None,2026-03-02,DE,vidAAAAAAA1,UCfanchannel00000000000a,A900000000000077,QZH8A2600001,Fan edit,Fan Channel,500,0.765433',
        // Known only by the asset id the admin entered, on the artist's own channel.
        `None,2026-03-03,FR,vidBBBBBBB2,${OWN_CHANNEL},${ASSET},,My own upload,Me,10,0.50`,
        // Another artist's track.
        'None,2026-03-04,GB,vidCCCCCCC3,UCfanchannel00000000000b,A900000000000099,QZH8B2600001,Cover,Someone,5,1.00',
      ].join('\n'),
      'youtube-2026-03.csv',
    );
    expect((await balanceOf(pro.userId)) - before.pro).toBe(250);
    expect((await balanceOf(other.userId)) - before.other).toBe(100);
  });

  it("lists the artist's claims with views and exact earnings, the allow-listed channel already released", async () => {
    const { status, body } = await get<{ items: ContentIdClaimView[] }>('/api/content-id/claims', pro.cookie);
    expect(status).toBe(200);
    expect(body.items.map((claim) => [claim.videoId, claim.views, claim.earningsUsd, claim.status])).toEqual([
      ['vidAAAAAAA1', 1500, '2', 'active'],
      ['vidBBBBBBB2', 10, '0.5', 'release_requested'],
    ]);
    expect(body.items[0]).toMatchObject({
      videoTitle: 'Fan edit',
      channelName: 'Fan Channel',
      channelId: 'UCfanchannel00000000000a',
      trackId: proTracks[0],
      releaseReason: null,
    });
    expect(body.items[1]).toMatchObject({
      releaseReason: 'allow_list',
      trackId: proTracks[1],
      assetId: ASSET,
    });
    const others = await get<{ items: ContentIdClaimView[] }>('/api/content-id/claims', other.cookie);
    expect(others.body.items.map((claim) => claim.videoId)).toEqual(['vidCCCCCCC3']);
  });

  it('pages the claims with the count of all, and searches them by title, ISRC and asset id', async () => {
    type Page = { items: ContentIdClaimView[]; page: number; pageSize: number; total: number };
    const videos = async (query: string) => {
      const { status, body } = await get<Page>(`/api/content-id/claims?${query}`, pro.cookie);
      expect(status).toBe(200);
      return { ids: body.items.map((claim) => claim.videoId), total: body.total, page: body.page };
    };
    expect(await videos('limit=1')).toEqual({ ids: ['vidAAAAAAA1'], total: 2, page: 1 });
    expect(await videos('limit=1&page=2')).toEqual({ ids: ['vidBBBBBBB2'], total: 2, page: 2 });
    expect(await videos('limit=1&page=3')).toEqual({ ids: [], total: 2, page: 3 });
    expect((await videos('q=fan%20EDIT')).ids).toEqual(['vidAAAAAAA1']);
    expect((await videos('q=qzh8a2600002')).ids).toEqual(['vidBBBBBBB2']);
    expect((await videos(`q=${ASSET}`)).ids).toEqual(['vidBBBBBBB2']);
    // Another artist's claim is not found by its ISRC; a LIKE wildcard is text.
    expect(await videos('q=QZH8B2600001')).toEqual({ ids: [], total: 0, page: 1 });
    expect((await videos('q=%25')).ids).toEqual([]);
    const tooMany = await get<{ error: { code: string } }>('/api/content-id/claims?limit=101', pro.cookie);
    expect(tooMany.status).toBe(422);
  });

  it('refuses the claims list to a Basic artist (the Pro gate)', async () => {
    const { status, body } = await get<{ error: { code: string } }>('/api/content-id/claims', basic.cookie);
    expect(status).toBe(403);
    expect(body.error.code).toBe('pro_required');
  });

  it('lets the owner release a claim, refuses another artist (404) and a second release (409)', async () => {
    const list = await get<{ items: ContentIdClaimView[] }>('/api/content-id/claims', pro.cookie);
    const claim = list.body.items.find((item) => item.videoId === 'vidAAAAAAA1');
    if (!claim) throw new Error('no claim');
    const byOther = await send<{ error: { code: string } }>(
      'POST',
      `/api/content-id/claims/${claim.id}/release`,
      other.cookie,
    );
    expect(byOther.status).toBe(404);
    const byBasic = await send('POST', `/api/content-id/claims/${claim.id}/release`, basic.cookie);
    expect(byBasic.status).toBe(403);
    const released = await send<ContentIdClaimView>(
      'POST',
      `/api/content-id/claims/${claim.id}/release`,
      pro.cookie,
    );
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({
      id: claim.id,
      status: 'release_requested',
      releaseReason: 'artist',
    });
    const again = await send('POST', `/api/content-id/claims/${claim.id}/release`, pro.cookie);
    expect(again.status).toBe(409);
    const audited = await system.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'content_id.claim_release_request'));
    expect(audited.map((row) => row.subjectUserId)).toEqual([pro.userId]);
  });

  it('queues released claims for the admin, who marks them done', async () => {
    const refused = await get('/api/admin/content-id/claims', pro.cookie);
    expect(refused.status).toBe(403);
    const queue = await get<{ items: AdminContentIdClaim[] }>(
      '/api/admin/content-id/claims',
      people.admin.cookie,
    );
    expect(queue.body.items.map((claim) => [claim.videoId, claim.releaseReason, claim.email])).toEqual([
      ['vidBBBBBBB2', 'allow_list', pro.email],
      ['vidAAAAAAA1', 'artist', pro.email],
    ]);
    const [first] = queue.body.items;
    if (!first) throw new Error('empty queue');
    const done = await send<AdminContentIdClaim>(
      'POST',
      `/api/admin/content-id/claims/${first.id}/done`,
      people.admin.cookie,
    );
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('released');
    expect(done.body.releasedAt).not.toBeNull();
    const twice = await send('POST', `/api/admin/content-id/claims/${first.id}/done`, people.admin.cookie);
    expect(twice.status).toBe(409);
    const after = await get<{ items: AdminContentIdClaim[] }>(
      '/api/admin/content-id/claims',
      people.admin.cookie,
    );
    expect(after.body.items.map((claim) => claim.videoId)).toEqual(['vidAAAAAAA1']);
    const mine = await get<{ items: ContentIdClaimView[] }>('/api/content-id/claims', pro.cookie);
    expect(mine.body.items.find((claim) => claim.videoId === 'vidBBBBBBB2')?.status).toBe('released');
  });

  it('adds a later report to the same claim without releasing a claim twice', async () => {
    await importAndPost(
      [
        'asset_id,video_id,isrc,channel_id,owned_views,partner_revenue,day',
        'A900000000000077,vidAAAAAAA1,QZH8A2600001,UCfanchannel00000000000a,100,0.10,2026-04-01',
      ].join('\n'),
      'youtube-2026-04.csv',
    );
    const mine = await get<{ items: ContentIdClaimView[] }>('/api/content-id/claims', pro.cookie);
    expect(mine.body.items.find((claim) => claim.videoId === 'vidAAAAAAA1')).toMatchObject({
      views: 1600,
      earningsUsd: '2.1',
      status: 'release_requested',
      videoTitle: 'Fan edit',
    });
    expect(importId).toBeTruthy();
  });
});
