/**
 * The review search over the stored search column (migration 0036, record 183), read from the narrow
 * table its triggers keep (migration 0060, record 206): it finds what the old ILIKE over title, artists
 * and uploader email found, whatever the case, inside words too, follows edits of a title or its
 * artists, decisions, takedown requests and deletions, and pages within the matches.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseStoreTakedowns, releases } from '../../db/schema';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let cookie: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  system = await createTestSystem();
  cookie = (await system.signedInUser({ roles: ['moderator'] })).cookie;
  const owner = await createTestUser(system, { email: 'owner@example.com' });
  const other = await createTestUser(system, { email: 'night.owl@example.com' });
  const make = async (name: string, userId: string, status: 'pending' | 'approved' = 'pending') => {
    ids[name] = (await createTestRelease(system, userId, { title: name, status })).releaseId;
  };
  await make('Midnight Harbor', owner.userId);
  await make('Golden Midnight Echo', owner.userId);
  await make('After Midnight', owner.userId, 'approved');
  await make('Summer Rain', owner.userId);
  await make('Paper Moon', other.userId);
  await make('Corazón Roto', owner.userId);
});
afterAll(async () => system?.close());

type Page = {
  items: { title: string }[];
  counts: Record<string, number>;
  page: number;
  totalPages: number;
};
const search = async (query: string): Promise<Page> =>
  readJson(await system.request(`/api/admin/releases?${query}`, { cookie }));
const titles = (page: Page) => page.items.map((item) => item.title);

describe('review search', () => {
  it('finds by word prefix, inside a word and across words, in any case, with the counts of the matches', async () => {
    const prefix = await search('tab=pending&q=midn');
    expect(titles(prefix)).toEqual(['Midnight Harbor', 'Golden Midnight Echo']);
    expect(prefix.counts).toMatchObject({ pending: 2, approved: 1, rejected: 0 });
    expect(titles(await search('tab=pending&q=MIDNIGHT'))).toEqual([
      'Midnight Harbor',
      'Golden Midnight Echo',
    ]);
    expect(titles(await search('tab=pending&q=idnigh'))).toEqual(['Midnight Harbor', 'Golden Midnight Echo']);
    expect(titles(await search('tab=pending&q=golden%20mid'))).toEqual(['Golden Midnight Echo']);
    expect(titles(await search('tab=approved&q=After'))).toEqual(['After Midnight']);
    expect(titles(await search('tab=pending&q=coraz%C3%B3n'))).toEqual(['Corazón Roto']);
    expect(titles(await search('tab=pending&q=harbour'))).toEqual([]);
  });

  it('finds by artist and by the uploader email, and not by a title and an artist run together', async () => {
    await system.db
      .update(releases)
      .set({ primaryArtists: ['DJ Quasar'] })
      .where(eq(releases.id, ids['Summer Rain'] ?? ''));
    expect(titles(await search('tab=pending&q=quasar'))).toEqual(['Summer Rain']);
    expect(titles(await search('tab=pending&q=night.owl@'))).toEqual(['Paper Moon']);
    // Title and artists are joined by a control character no search can hold.
    expect(titles(await search('tab=pending&q=rain%20dj'))).toEqual([]);
  });

  it('follows a changed title', async () => {
    await system.db
      .update(releases)
      .set({ title: 'Velvet Storm' })
      .where(eq(releases.id, ids['Paper Moon'] ?? ''));
    expect(titles(await search('tab=pending&q=velvet'))).toEqual(['Velvet Storm']);
    expect(titles(await search('tab=pending&q=paper%20moon'))).toEqual([]);
  });

  it('pages within the matches in the tab order', async () => {
    const first = await search('tab=pending&q=midnight&pageSize=1&page=1');
    const second = await search('tab=pending&q=midnight&pageSize=1&page=2');
    expect([first.totalPages, titles(first), titles(second)]).toEqual([
      2,
      ['Midnight Harbor'],
      ['Golden Midnight Echo'],
    ]);
    expect(second.page).toBe(2);
    expect(titles(await search('tab=pending&q=midnight&pageSize=1&page=3'))).toEqual([]);
  });

  it('follows decisions, takedown requests and deletions, in the results and their counts', async () => {
    const harbor = ids['Midnight Harbor'] ?? '';
    const echo = ids['Golden Midnight Echo'] ?? '';
    const after = ids['After Midnight'] ?? '';
    const approve = await system.request(`/api/admin/releases/${harbor}/approve`, { method: 'POST', cookie });
    expect(approve.status).toBe(200);
    const approved = await search('tab=approved&q=midnight');
    // The decided tabs list the newest first.
    expect([titles(approved), approved.counts]).toEqual([
      ['After Midnight', 'Midnight Harbor'],
      expect.objectContaining({ pending: 1, approved: 2, takedown: 0 }),
    ]);
    // A whole-release request, and a per-store request on a release in the stores.
    await system.db
      .update(releases)
      .set({ takedownRequested: true, takedownRequestedAt: new Date() })
      .where(eq(releases.id, after));
    await system.db.insert(releaseStoreTakedowns).values({ releaseId: harbor, platformId: 'spotify' });
    const takedown = await search('tab=takedown&q=midnight');
    expect([titles(takedown).sort(), takedown.counts.takedown]).toEqual([
      ['After Midnight', 'Midnight Harbor'],
      2,
    ]);
    await system.db.delete(releases).where(eq(releases.id, echo));
    const left = await search('tab=pending&q=midnight');
    expect([titles(left), left.counts.pending]).toEqual([[], 0]);
  });
});
