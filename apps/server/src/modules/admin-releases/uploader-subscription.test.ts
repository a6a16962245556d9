/** The review card says where the uploader's subscription stands (issue 26, finding 8). */
import type { AdminReleasesPage } from '@tunedrop/shared/schemas/admin-releases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let moderator: Awaited<ReturnType<TestSystem['signedInUser']>>;
const days = (count: number) => new Date(Date.now() + count * 86_400_000);

beforeAll(async () => {
  system = await createTestSystem();
  moderator = await system.signedInUser({ roles: ['moderator'] });
});
afterAll(async () => system?.close());

async function cardOf(title: string, query = '') {
  const page = (await readJson(
    await system.request(`/api/admin/releases?tab=pending${query}`, { cookie: moderator.cookie }),
  )) as AdminReleasesPage;
  const card = page.items.find((item) => item.title === title);
  if (!card) throw new Error(`no card for ${title}`);
  return card;
}

describe('uploader subscription on the review list', () => {
  const ended = days(-3);
  const ending = days(5);

  beforeAll(async () => {
    const cases = [
      { title: 'Renewing', subscription: 'active' as const },
      { title: 'Lapsed', subscription: 'canceled' as const, subscriptionEnd: ended },
      { title: 'Ending', subscription: 'canceled' as const, subscriptionEnd: ending },
      { title: 'Past Due', subscription: 'past_due' as const, subscriptionEnd: days(-1) },
      {
        title: 'Free',
        subscription: 'canceled' as const,
        subscriptionEnd: ended,
        roles: ['free_access' as const],
      },
    ];
    for (const { title, ...options } of cases) {
      const user = await createTestUser(system, options);
      await createTestRelease(system, user.userId, { title, status: 'pending' });
    }
  });

  it('is lapsed, ending, active or exempt on the tab page, with the end date', async () => {
    expect((await cardOf('Renewing')).uploader.subscription).toEqual({
      standing: 'active',
      status: 'active',
      endsAt: null,
    });
    expect((await cardOf('Lapsed')).uploader.subscription).toEqual({
      standing: 'lapsed',
      status: 'canceled',
      endsAt: ended.toISOString(),
    });
    expect((await cardOf('Ending')).uploader.subscription).toEqual({
      standing: 'ending',
      status: 'canceled',
      endsAt: ending.toISOString(),
    });
    expect((await cardOf('Past Due')).uploader.subscription.standing).toBe('lapsed');
    // Free access waives the subscription: nothing to warn about, even after it ended.
    expect((await cardOf('Free')).uploader.subscription.standing).toBe('exempt');
  });

  it('is the same in a search', async () => {
    expect((await cardOf('Lapsed', '&q=Lapsed')).uploader.subscription.standing).toBe('lapsed');
  });
});
