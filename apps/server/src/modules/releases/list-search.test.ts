/** My Songs search and state filter (issue 26 finding 9, record 195): each filter narrows, ownership holds. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releases } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let artist: Awaited<ReturnType<TestSystem['signedInUser']>>;
let other: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  artist = await system.signedInUser({ artistName: 'Label Artist' });
  other = await system.signedInUser({ artistName: 'Other Artist' });
  const make = async (
    userId: string,
    title: string,
    artists: string[],
    extra: Parameters<typeof createTestRelease>[2] = {},
  ) => {
    const { releaseId } = await createTestRelease(system, userId, { title, ...extra });
    await system.db
      .update(releases)
      .set({ primaryArtists: artists, primaryArtistsData: artists.map((name) => ({ name })) })
      .where(eq(releases.id, releaseId));
  };
  await make(artist.userId, 'Midnight Drive', ['Nova Lane'], {
    status: 'approved',
    upc: '614141000012',
    isrcs: ['QZABC2600001'],
  });
  await make(artist.userId, 'Morning Light', ['Nova Lane', 'Guest Kid'], {
    status: 'live',
    upc: '614141000029',
    isrcs: ['QZABC2600002'],
  });
  await make(artist.userId, 'Summer 100%', ['Rio Park'], { status: 'pending' });
  // Another artist's releases share the words and a similar code: they never match.
  await make(other.userId, 'Midnight Drive', ['Nova Lane'], {
    status: 'approved',
    upc: '614141000036',
    isrcs: ['QZABC2600003'],
  });
});
afterAll(async () => system?.close());

async function titles(query: string, cookie = artist.cookie): Promise<string[]> {
  const response = await system.request(`/api/releases?${query}`, { cookie });
  expect(response.status).toBe(200);
  const body = await readJson(response);
  return body.items.map((item: { title: string }) => item.title);
}

describe('GET /api/releases search and filters', () => {
  it('finds by title and by artist, case-insensitive, only the owner releases', async () => {
    expect(await titles('q=midnight')).toEqual(['Midnight Drive']);
    expect(await titles('q=GUEST')).toEqual(['Morning Light']);
    expect(await titles('q=nova')).toEqual(['Morning Light', 'Midnight Drive']);
    // % is a literal character, not a wildcard.
    expect(await titles('q=100%25')).toEqual(['Summer 100%']);
    expect(await titles(`q=${encodeURIComponent('%')}`)).toEqual(['Summer 100%']);
    expect(await titles('q=midnight', other.cookie)).toEqual(['Midnight Drive']);
  });

  it('finds by UPC and by a track ISRC, with or without hyphens', async () => {
    expect(await titles('q=614141000029')).toEqual(['Morning Light']);
    expect(await titles('q=000012')).toEqual(['Midnight Drive']);
    expect(await titles('q=QZABC2600001')).toEqual(['Midnight Drive']);
    expect(await titles('q=qz-abc-26-00002')).toEqual(['Morning Light']);
    // The other artist's UPC and ISRC are not found by this artist.
    expect(await titles('q=614141000036')).toEqual([]);
    expect(await titles('q=QZABC2600003')).toEqual([]);
    expect(await titles('q=QZABC2600003', other.cookie)).toEqual(['Midnight Drive']);
  });

  it('filters by state, alone and with a search, and pages the filtered list', async () => {
    expect(await titles('status=live')).toEqual(['Morning Light']);
    expect(await titles('status=pending')).toEqual(['Summer 100%']);
    expect(await titles('status=approved&q=nova')).toEqual(['Midnight Drive']);
    expect(await titles('status=live&q=midnight')).toEqual([]);
    expect(await titles('status=&q=')).toEqual(['Summer 100%', 'Morning Light', 'Midnight Drive']);

    const first = await readJson(
      await system.request('/api/releases?q=nova&limit=1', { cookie: artist.cookie }),
    );
    expect(first.items.map((item: { title: string }) => item.title)).toEqual(['Morning Light']);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(await titles(`q=nova&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).toEqual([
      'Midnight Drive',
    ]);
  });

  it('refuses an unknown state', async () => {
    const response = await system.request('/api/releases?status=lost', { cookie: artist.cookie });
    expect(response.status).toBe(422);
  });
});
