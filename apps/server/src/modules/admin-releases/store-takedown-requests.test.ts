/**
 * Per-store takedown requests in the "Takedown Requests" tab (issue 26 finding 3): counted (once per
 * release, beside whole-release requests), listed with their stores, found by the search, and approved
 * from there by the staff who review.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseStoreTakedowns } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let moderator: Awaited<ReturnType<TestSystem['signedInUser']>>;
let artist: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  moderator = await system.signedInUser({ roles: ['moderator'], email: 'mod@example.com' });
  artist = await system.signedInUser({ plan: 'pro', email: 'artist@example.com' });
});
afterAll(async () => system?.close());

type Card = {
  id: string;
  title: string;
  isTakedownRequested: boolean;
  storeTakedownRequests: { platformId: string; requestedAt: string }[];
};
type Page = { items: Card[]; counts: Record<string, number>; total?: number };

const tab = async (query = ''): Promise<Page> =>
  readJson(await system.request(`/api/admin/releases?tab=takedown${query}`, { cookie: moderator.cookie }));

const requestStore = (releaseId: string, platformId: string) =>
  system.request(`/api/releases/${releaseId}/store-takedowns`, {
    method: 'POST',
    cookie: artist.cookie,
    json: { platformId },
  });

describe('per-store takedown requests in the Takedown Requests tab', () => {
  it('are counted once per release, listed with their stores, found by the search and approved there', async () => {
    const empty = await tab();
    expect(empty.counts.takedown).toBe(0);

    const { releaseId } = await createTestRelease(system, artist.userId, {
      status: 'live',
      title: 'Leaving Spotify',
      distributionStores: ['spotify', 'apple_music', 'deezer'],
    });
    expect((await requestStore(releaseId, 'spotify')).status).toBe(201);
    expect((await requestStore(releaseId, 'deezer')).status).toBe(201);
    const whole = await createTestRelease(system, artist.userId, { status: 'live', title: 'All Gone' });
    expect(
      (
        await system.request(`/api/releases/${whole.releaseId}/takedown`, {
          method: 'POST',
          cookie: artist.cookie,
        })
      ).status,
    ).toBe(200);

    const listed = await tab();
    expect(listed.counts.takedown).toBe(2);
    expect(listed.items.map((item) => item.title)).toEqual(['Leaving Spotify', 'All Gone']);
    const card = listed.items[0];
    expect(card?.isTakedownRequested).toBe(false);
    expect(card?.storeTakedownRequests.map((r) => r.platformId)).toEqual(['spotify', 'deezer']);
    expect(Number.isNaN(Date.parse(card?.storeTakedownRequests[0]?.requestedAt ?? ''))).toBe(false);
    expect(listed.items[1]?.storeTakedownRequests).toEqual([]);

    // A release with both kinds of request is counted once.
    expect((await requestStore(whole.releaseId, 'spotify')).status).toBe(201);
    expect((await tab()).counts.takedown).toBe(2);

    const found = await tab('&q=leaving');
    expect(found.counts.takedown).toBe(1);
    expect(found.items.map((item) => item.title)).toEqual(['Leaving Spotify']);

    // The artist may not approve; the moderator approves one store (never delivered there: done at once).
    const approve = (cookie: string, platformId: string) =>
      system.request(`/api/admin/releases/${releaseId}/store-takedowns/approve`, {
        method: 'POST',
        cookie,
        json: { platformId },
      });
    expect((await approve(artist.cookie, 'spotify')).status).toBe(403);
    expect((await approve(moderator.cookie, 'spotify')).status).toBe(200);
    const [spotify] = await system.db
      .select()
      .from(releaseStoreTakedowns)
      .where(
        and(eq(releaseStoreTakedowns.releaseId, releaseId), eq(releaseStoreTakedowns.platformId, 'spotify')),
      );
    expect(spotify?.state).toBe('done');
    const afterOne = await tab();
    expect(afterOne.counts.takedown).toBe(2);
    expect(afterOne.items[0]?.storeTakedownRequests.map((r) => r.platformId)).toEqual(['deezer']);

    expect((await approve(moderator.cookie, 'deezer')).status).toBe(200);
    const afterBoth = await tab();
    expect(afterBoth.counts.takedown).toBe(1);
    expect(afterBoth.items.map((item) => item.title)).toEqual(['All Gone']);
  });
});
