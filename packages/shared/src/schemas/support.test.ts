import { describe, expect, it } from 'vitest';
import type { Plan, Role, SubscriptionStatus } from '../constants';
import { isIanaTimeZone, supportPlanOf } from './support';

const now = new Date('2026-11-25T12:00:00Z');
const ahead = new Date('2026-12-25T12:00:00Z');
const past = new Date('2026-11-01T12:00:00Z');

describe('supportPlanOf (decision 173)', () => {
  it.each<[string, Plan, SubscriptionStatus, Date | null, Role[], Plan]>([
    ['active Pro', 'pro', 'active', ahead, [], 'pro'],
    ['canceled Pro still in its period', 'pro', 'canceled', ahead, [], 'pro'],
    ['canceled Pro after its end', 'pro', 'canceled', past, [], 'basic'],
    ['past-due Pro', 'pro', 'past_due', ahead, [], 'basic'],
    ['active Basic', 'basic', 'active', ahead, [], 'basic'],
    ['a payee who never subscribed', 'basic', 'inactive', null, [], 'basic'],
    ['free access without a subscription', 'basic', 'inactive', null, ['free_access'], 'pro'],
    ['an admin', 'basic', 'inactive', null, ['admin'], 'pro'],
    ['a moderator without a subscription', 'basic', 'inactive', null, ['moderator'], 'basic'],
  ])('%s', (_, plan, subscriptionStatus, subscriptionEnd, roles, expected) => {
    expect(supportPlanOf({ plan, subscriptionStatus, subscriptionEnd, roles }, now)).toBe(expected);
  });
});

describe('isIanaTimeZone', () => {
  it.each([
    ['UTC', true],
    ['Europe/Berlin', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Etc/GMT+5', true],
    ['Mars/Olympus_Mons', false],
    ['+01:00', false],
    ['', false],
    ['Europe/../Berlin', false],
  ])('%s → %s', (zone, expected) => {
    expect(isIanaTimeZone(zone)).toBe(expected);
  });
});
