import { describe, expect, it } from 'vitest';
import { uploaderSubscription, uploaderSubscriptionNote } from './uploader-standing';

const now = new Date('2026-11-25T12:00:00Z');
const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000);
const iso = (value: string) => value.slice(0, 10);

describe('the uploader subscription on the review card (issue 26)', () => {
  it.each([
    [
      'active, renewing',
      { subscriptionStatus: 'active', subscriptionEnd: day(20), roles: [] },
      'active',
      null,
    ],
    [
      'canceled, ends in 5 days',
      { subscriptionStatus: 'canceled', subscriptionEnd: day(5), roles: [] },
      'ending',
      day(5),
    ],
    [
      'canceled, ended 3 days ago',
      { subscriptionStatus: 'canceled', subscriptionEnd: day(-3), roles: [] },
      'lapsed',
      day(-3),
    ],
    ['past due', { subscriptionStatus: 'past_due', subscriptionEnd: day(-1), roles: [] }, 'lapsed', day(-1)],
    [
      'never subscribed',
      { subscriptionStatus: 'inactive', subscriptionEnd: null, roles: [] },
      'lapsed',
      null,
    ],
    [
      'free access, lapsed',
      { subscriptionStatus: 'canceled', subscriptionEnd: day(-3), roles: ['free_access'] },
      'exempt',
      day(-3),
    ],
  ] as const)('%s', (_name, input, standing, endsAt) => {
    const result = uploaderSubscription({ ...input, roles: [...input.roles] }, now);
    expect(result.standing).toBe(standing);
    expect(result.endsAt).toBe(endsAt ? endsAt.toISOString() : null);
  });

  it('says what a moderator must know, and nothing for a renewing or exempt account', () => {
    const note = (input: Parameters<typeof uploaderSubscription>[0]) =>
      uploaderSubscriptionNote(uploaderSubscription(input, now), iso);
    expect(note({ subscriptionStatus: 'canceled', subscriptionEnd: day(-3), roles: [] })).toBe(
      'Subscription lapsed: it ended 2026-11-22.',
    );
    expect(note({ subscriptionStatus: 'canceled', subscriptionEnd: day(5), roles: [] })).toBe(
      'Subscription canceled: it ends 2026-11-30.',
    );
    expect(note({ subscriptionStatus: 'past_due', subscriptionEnd: day(-1), roles: [] })).toBe(
      'Subscription lapsed: the last payment failed (past due).',
    );
    expect(note({ subscriptionStatus: 'inactive', subscriptionEnd: null, roles: [] })).toBe(
      'No active subscription.',
    );
    expect(note({ subscriptionStatus: 'active', subscriptionEnd: day(20), roles: [] })).toBeNull();
    expect(note({ subscriptionStatus: 'inactive', subscriptionEnd: null, roles: ['admin'] })).toBeNull();
  });
});
