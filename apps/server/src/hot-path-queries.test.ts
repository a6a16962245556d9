/**
 * The hot paths (issue 42: /api/me, the ledger, the review list, the dashboard's first load) send a fixed
 * number of queries whatever the rows behind them: a change that adds a query per row, or a query to every
 * request, fails here. The counts are today's: a change that saves a query lowers them here. Each is counted
 * uncached (the embedded database's read cache, record 305, emptied first); the cache has its own test below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from './db/query-count';
import { noteWrite } from './db/read-cache';
import { createTestRelease } from './test-support/fixtures';
import { createTestSystem, type TestSystem } from './test-support/harness';
import { fundUser } from './test-support/wallet-fixtures';

const DASHBOARD_FIRST_LOAD = ['/api/me', '/api/config', '/api/artist-profiles', '/api/me/stats'];
const REVIEW_LIST = '/api/admin/releases?tab=pending&q=&page=1&pageSize=10';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system?.close();
});

/** The queries of one signed-in request, answered 200 and read to its end; uncached unless `cached`. */
async function queriesOf(url: string, cookie: string, cached = false): Promise<number> {
  if (!cached) noteWrite();
  const { queries } = await countQueries(async () => {
    const response = await system.request(url, { cookie });
    expect(response.status, url).toBe(200);
    await response.text();
  });
  return queries;
}

async function queriesOfAll(urls: string[], cookie: string): Promise<number[]> {
  const counts: number[] = [];
  for (const url of urls) counts.push(await queriesOf(url, cookie));
  return counts;
}

describe('hot paths send as many queries for many rows as for one', () => {
  it('/api/me and the dashboard first load: one release or twelve', async () => {
    const artist = await system.signedInUser({ plan: 'pro' });
    await createTestRelease(system, artist.userId, { status: 'live', trackCount: 2 });
    await queriesOfAll(DASHBOARD_FIRST_LOAD, artist.cookie); // warm caches a first request may fill
    const few = await queriesOfAll(DASHBOARD_FIRST_LOAD, artist.cookie);
    for (let index = 0; index < 11; index += 1) {
      await createTestRelease(system, artist.userId, {
        status: index % 2 ? 'live' : 'pending',
        trackCount: 3,
      });
    }
    const many = await queriesOfAll(DASHBOARD_FIRST_LOAD, artist.cookie);
    expect(many).toEqual(few);
    // The session with its user, then the account with its plan, roles and profiles in one query.
    expect(many).toEqual([2, 2, 3, 2]);
  });

  it('the ledger: one balance change or twelve', async () => {
    const artist = await system.signedInUser({ plan: 'basic' });
    await fundUser(system, artist.userId, 1000);
    await queriesOf('/api/royalties/ledger', artist.cookie);
    const few = await queriesOf('/api/royalties/ledger', artist.cookie);
    for (let index = 2; index <= 12; index += 1) await fundUser(system, artist.userId, 1000 * index);
    const ledger = await system.request('/api/royalties/ledger', { cookie: artist.cookie });
    expect(((await ledger.json()) as { items: unknown[] }).items.length).toBeGreaterThanOrEqual(12);
    const many = await queriesOf('/api/royalties/ledger', artist.cookie);
    expect(many).toBe(few);
    expect(many).toBe(2);
  });

  it('the review list: one pending release or a full page from ten artists', async () => {
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    const first = await system.signedInUser({ plan: 'pro' });
    await createTestRelease(system, first.userId, { status: 'pending', trackCount: 2 });
    await queriesOf(REVIEW_LIST, moderator.cookie);
    const few = await queriesOf(REVIEW_LIST, moderator.cookie);
    for (let index = 0; index < 10; index += 1) {
      const artist = await system.signedInUser({ plan: index % 2 ? 'pro' : 'basic' });
      await createTestRelease(system, artist.userId, { status: 'pending', trackCount: 3 });
    }
    const page = await system.request(REVIEW_LIST, { cookie: moderator.cookie });
    expect(((await page.json()) as { items: unknown[] }).items).toHaveLength(10);
    const many = await queriesOf(REVIEW_LIST, moderator.cookie);
    expect(many).toBe(few);
    // The session, then the page of cards with every tab's count as one JSON query.
    expect(many).toBe(2);
  });
});

describe('the read cache (record 305)', () => {
  const isEmbedded = !process.env.DATABASE_URL;

  it('answers a repeated /api/me from memory on the embedded database only, and never past a write', async () => {
    const artist = await system.signedInUser({ plan: 'pro', artistName: 'Before' });
    const second = await system.signedInUser({ plan: 'basic' });
    await queriesOf('/api/me', artist.cookie);
    expect(await queriesOf('/api/me', artist.cookie, true)).toBe(isEmbedded ? 0 : 2);

    // The artist's own change, and another person's request in between, are seen at the next request.
    const renamed = await system.request('/api/me/profile', {
      method: 'PATCH',
      cookie: artist.cookie,
      json: { fullName: 'Test User', artistName: 'After' },
    });
    expect(renamed.status).toBe(200);
    await system.request('/api/me', { cookie: second.cookie });
    const me = await system.request('/api/me', { cookie: artist.cookie });
    expect(((await me.json()) as { profile: { artistName: string } }).profile.artistName).toBe('After');

    // A session signed out ends at its next request, although it was answered from memory just before.
    expect(await queriesOf('/api/me', second.cookie, true)).toBe(isEmbedded ? 0 : 2);
    const out = await system.request('/api/auth/sign-out', {
      method: 'POST',
      cookie: second.cookie,
      json: {},
    });
    expect(out.status).toBe(200);
    expect((await system.request('/api/me', { cookie: second.cookie })).status).toBe(401);
  });

  it('is not fooled by a read that started before a write and ended after it', async () => {
    const artist = await system.signedInUser({ plan: 'pro', artistName: 'Racing' });
    // A read and a rename sent together, many times: whatever their order, the read after both sees the rename.
    for (let round = 0; round < 10; round += 1) {
      const name = `Racing ${round}`;
      await Promise.all([
        system.request('/api/me', { cookie: artist.cookie }),
        system.request('/api/me/profile', {
          method: 'PATCH',
          cookie: artist.cookie,
          json: { fullName: 'Test User', artistName: name },
        }),
        system.request('/api/me', { cookie: artist.cookie }),
      ]);
      const me = await system.request('/api/me', { cookie: artist.cookie });
      expect(((await me.json()) as { profile: { artistName: string } }).profile.artistName).toBe(name);
    }
  });
});
