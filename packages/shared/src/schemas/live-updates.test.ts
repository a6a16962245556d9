import { describe, expect, it } from 'vitest';
import { parseLiveProfileEvent } from './live-updates';

const event = {
  changed: ['balance_cents'],
  roles: ['user'],
  profile: {
    plan: 'pro',
    pendingPlan: null,
    subscriptionStatus: 'active',
    subscriptionEnd: '2026-12-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    balanceCents: 1250,
    pendingBalanceCents: 0,
    totalEarningsCents: 9000,
    fullName: 'Ada Artist',
    artistName: 'Ada',
    banned: false,
    banReason: null,
  },
};

describe('the live profile event the browser accepts', () => {
  it('takes an event as the stream sends it, keeping only its known fields', () => {
    const parsed = parseLiveProfileEvent({ ...event, extra: 1, profile: { ...event.profile, secret: 'x' } });
    expect(parsed).toEqual(event);
  });

  it('refuses an event with a field missing or of another type', () => {
    expect(parseLiveProfileEvent(null)).toBeNull();
    expect(parseLiveProfileEvent({ ...event, roles: 'user' })).toBeNull();
    expect(parseLiveProfileEvent({ ...event, profile: { ...event.profile, plan: 'gold' } })).toBeNull();
    expect(
      parseLiveProfileEvent({ ...event, profile: { ...event.profile, balanceCents: '1250' } }),
    ).toBeNull();
    expect(
      parseLiveProfileEvent({ ...event, profile: { ...event.profile, subscriptionStatus: 'paid' } }),
    ).toBeNull();
    const { banned: _banned, ...withoutBanned } = event.profile;
    expect(parseLiveProfileEvent({ ...event, profile: withoutBanned })).toBeNull();
  });
});
