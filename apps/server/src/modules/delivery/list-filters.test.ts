/** The admin Delivery list searched and filtered (issue 26 finding 9, record 195): each filter narrows. */
import type { PlatformId } from '@tunedrop/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryTargets, releases } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let admin: Awaited<ReturnType<TestSystem['signedInUser']>>;
let artist: Awaited<ReturnType<TestSystem['signedInUser']>>;
let aggregatorId: string;
let directId: string;
let midnightId: string;
let morningId: string;

async function target(name: string, platforms: PlatformId[]): Promise<string> {
  const [row] = await system.db
    .insert(deliveryTargets)
    .values({
      name,
      scheme: 'sftp',
      urlMasked: 'sftp://x',
      secret: 'x',
      dpid: 'PADPIDA2009101501Y',
      platforms,
    })
    .returning({ id: deliveryTargets.id });
  if (!row) throw new Error('no target');
  return row.id;
}

beforeAll(async () => {
  system = await createTestSystem();
  admin = await system.signedInUser({ artistName: 'Ops', roles: ['admin'] });
  artist = await system.signedInUser({ artistName: 'Label Artist' });
  aggregatorId = await target('Aggregator X', ['spotify', 'deezer', 'apple_music']);
  directId = await target('Direct Store', ['tidal']);
  const release = async (title: string, artists: string[], upc: string) => {
    const { releaseId } = await createTestRelease(system, artist.userId, {
      title,
      status: 'approved',
      upc,
      distributionStores: ['spotify', 'deezer', 'tidal', 'apple_music'],
    });
    await system.db.update(releases).set({ primaryArtists: artists }).where(eq(releases.id, releaseId));
    return releaseId;
  };
  const midnight = await release('Midnight Drive', ['Nova Lane'], '614141000012');
  midnightId = midnight;
  const morning = await release('Morning Light', ['Rio Park'], '614141000029');
  morningId = morning;
  await system.db.insert(deliveries).values([
    { releaseId: midnight, targetId: aggregatorId, state: 'acknowledged', platforms: ['spotify', 'deezer'] },
    { releaseId: midnight, targetId: directId, state: 'rejected', platforms: ['tidal'] },
    { releaseId: morning, targetId: aggregatorId, state: 'queued', platforms: ['spotify'] },
  ]);
});
afterAll(async () => system?.close());

async function rows(query: string): Promise<string[]> {
  const response = await system.request(`/api/admin/deliveries?${query}`, { cookie: admin.cookie });
  expect(response.status).toBe(200);
  const body = await readJson(response);
  return body.items
    .map((item: { releaseTitle: string; targetName: string }) => `${item.releaseTitle} → ${item.targetName}`)
    .sort();
}

describe('GET /api/admin/deliveries search and filters', () => {
  it('finds by title, artist and UPC', async () => {
    expect(await rows('q=midnight')).toEqual([
      'Midnight Drive → Aggregator X',
      'Midnight Drive → Direct Store',
    ]);
    expect(await rows('q=rio')).toEqual(['Morning Light → Aggregator X']);
    expect(await rows('q=000029')).toEqual(['Morning Light → Aggregator X']);
    expect(await rows('q=nothing-like-this')).toEqual([]);
  });

  it('filters by store, target and state, together with a search', async () => {
    expect(await rows('platform=spotify')).toEqual([
      'Midnight Drive → Aggregator X',
      'Morning Light → Aggregator X',
    ]);
    expect(await rows('platform=tidal')).toEqual(['Midnight Drive → Direct Store']);
    expect(await rows('platform=deezer&q=morning')).toEqual([]);
    expect(await rows(`targetId=${directId}`)).toEqual(['Midnight Drive → Direct Store']);
    expect(await rows('state=queued')).toEqual(['Morning Light → Aggregator X']);
    expect(await rows(`state=acknowledged&targetId=${aggregatorId}&q=nova`)).toEqual([
      'Midnight Drive → Aggregator X',
    ]);
    expect(await rows('q=&platform=&state=')).toHaveLength(3);
  });

  it('refuses an unknown store and stays admin-only', async () => {
    const unknown = await system.request('/api/admin/deliveries?platform=myspace', { cookie: admin.cookie });
    expect(unknown.status).toBe(422);
    const asArtist = await system.request('/api/admin/deliveries?q=midnight', { cookie: artist.cookie });
    expect(asArtist.status).toBe(403);
  });
});

describe('GET /api/releases/:id/detail store targets (grouped rows)', () => {
  const targetsOf = async (releaseId: string) => {
    const response = await system.request(`/api/releases/${releaseId}/detail`, { cookie: artist.cookie });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    return Object.fromEntries(
      body.stores.map((store: { platformId: string; target: { name: string } | null }) => [
        store.platformId,
        store.target?.name ?? null,
      ]),
    );
  };

  it('names the target that sends each store, null where no target has a delivery', async () => {
    expect(await targetsOf(midnightId)).toEqual({
      spotify: 'Aggregator X',
      deezer: 'Aggregator X',
      tidal: 'Direct Store',
      apple_music: 'Aggregator X',
    });
    expect(await targetsOf(morningId)).toEqual({
      spotify: 'Aggregator X',
      deezer: 'Aggregator X',
      tidal: null,
      apple_music: 'Aggregator X',
    });
    const stranger = await system.request(`/api/releases/${midnightId}/detail`, { cookie: admin.cookie });
    expect(stranger.status).toBe(404);
  });
});
