/**
 * The review list's AI use filter (issue 41, record 295): each answer, any AI use, and the releases
 * submitted before the question was asked; counts follow the filter, the search narrows it, and every
 * card shows each track's answer.
 */
import type { AiArea, AiUsage } from '@tunedrop/shared/schemas/ai-disclosure';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracks } from '../../db/schema';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let cookie: string;

beforeAll(async () => {
  system = await createTestSystem();
  cookie = (await system.signedInUser({ roles: ['moderator'] })).cookie;
  const owner = await createTestUser(system, { email: 'ai-owner@example.com' });
  const make = async (
    title: string,
    answers: (AiUsage | null)[],
    status: 'pending' | 'approved' = 'pending',
  ) => {
    const { trackIds } = await createTestRelease(system, owner.userId, {
      title,
      status,
      trackCount: answers.length,
    });
    for (const [index, usage] of answers.entries()) {
      const areas: AiArea[] = usage === 'assisted' ? ['lyrics', 'vocals'] : [];
      await system.db
        .update(tracks)
        .set({ aiUsage: usage, aiAreas: areas })
        .where(eq(tracks.id, trackIds[index] as string));
    }
  };
  await make('Human Hands', ['none', 'none']);
  await make('Helper Lyrics', ['none', 'assisted']);
  await make('Machine Dream', ['generated']);
  await make('Old Upload', [null]);
  await make('Approved Helper', ['assisted'], 'approved');
});
afterAll(async () => system?.close());

type Page = {
  items: { title: string; tracks: { aiUsage: AiUsage | null; aiAreas: AiArea[] }[] }[];
  counts: Record<string, number>;
};
const list = async (query: string): Promise<Page> => {
  const response = await system.request(`/api/admin/releases?${query}`, { cookie });
  expect(response.status).toBe(200);
  return readJson(response);
};
const titles = (page: Page) => page.items.map((item) => item.title).sort();

describe('review list AI use filter', () => {
  it('filters by each answer, with the counts of the filtered releases', async () => {
    expect(titles(await list('tab=pending&ai=none'))).toEqual(['Human Hands']);
    expect(titles(await list('tab=pending&ai=assisted'))).toEqual(['Helper Lyrics']);
    expect(titles(await list('tab=pending&ai=generated'))).toEqual(['Machine Dream']);
    expect(titles(await list('tab=pending&ai=unanswered'))).toEqual(['Old Upload']);
    const any = await list('tab=pending&ai=any');
    expect(titles(any)).toEqual(['Helper Lyrics', 'Machine Dream']);
    expect(any.counts).toMatchObject({ pending: 2, approved: 1, rejected: 0 });
    expect(titles(await list('tab=approved&ai=assisted'))).toEqual(['Approved Helper']);
  });

  it('a search narrows the filter', async () => {
    expect(titles(await list('tab=pending&ai=any&q=machine'))).toEqual(['Machine Dream']);
    expect(titles(await list('tab=pending&ai=none&q=machine'))).toEqual([]);
  });

  it('every card carries each track answer; an unknown filter is refused', async () => {
    const page = await list('tab=pending&ai=assisted');
    expect(page.items[0]?.tracks.map((track) => [track.aiUsage, track.aiAreas])).toEqual([
      ['none', []],
      ['assisted', ['lyrics', 'vocals']],
    ]);
    const unfiltered = await list('tab=pending');
    expect(unfiltered.items.find((item) => item.title === 'Old Upload')?.tracks[0]?.aiUsage).toBeNull();
    const bad = await system.request('/api/admin/releases?tab=pending&ai=maybe', { cookie });
    expect(bad.status).toBe(422);
  });
});
