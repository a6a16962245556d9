/** Live updates (GET /api/events, modules/live-updates): the event the stream sends and the browser parses. */
import { PLANS, type Plan, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../constants';

/** What GET /api/events sends with each `profile` event: the signed-in user's own account, as now. */
export type LiveProfile = {
  plan: Plan;
  pendingPlan: Plan | null;
  subscriptionStatus: SubscriptionStatus;
  subscriptionEnd: string | null;
  cancelAtPeriodEnd: boolean;
  balanceCents: number;
  pendingBalanceCents: number;
  totalEarningsCents: number;
  fullName: string;
  artistName: string;
  banned: boolean;
  banReason: string | null;
};

export type LiveProfileEvent = {
  /** Column groups that changed ('plan', 'subscription_status', 'balance_cents', 'roles', …); empty on connect. */
  changed: string[];
  profile: LiveProfile;
  roles: string[];
};

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isStringOrNull = (value: unknown): value is string | null => value === null || isString(value);
const isPlan = (value: unknown): value is Plan => (PLANS as readonly unknown[]).includes(value);
const isStatus = (value: unknown): value is SubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly unknown[]).includes(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The browser's check of a `profile` event: the event as sent, or null when any field is missing or of
 * another type. Written without zod because the stream runs on every signed-in page's first load (issue 29,
 * record 210); it keeps only the fields above, as a zod object would.
 */
export function parseLiveProfileEvent(value: unknown): LiveProfileEvent | null {
  if (!isRecord(value) || !isRecord(value.profile)) return null;
  const { changed, roles, profile: p } = value;
  if (!Array.isArray(changed) || !changed.every(isString) || !Array.isArray(roles) || !roles.every(isString))
    return null;
  const valid =
    isPlan(p.plan) &&
    (p.pendingPlan === null || isPlan(p.pendingPlan)) &&
    isStatus(p.subscriptionStatus) &&
    isStringOrNull(p.subscriptionEnd) &&
    typeof p.cancelAtPeriodEnd === 'boolean' &&
    isNumber(p.balanceCents) &&
    isNumber(p.pendingBalanceCents) &&
    isNumber(p.totalEarningsCents) &&
    isString(p.fullName) &&
    isString(p.artistName) &&
    typeof p.banned === 'boolean' &&
    isStringOrNull(p.banReason);
  if (!valid) return null;
  return {
    changed: [...changed],
    roles: [...roles],
    profile: {
      plan: p.plan,
      pendingPlan: p.pendingPlan,
      subscriptionStatus: p.subscriptionStatus,
      subscriptionEnd: p.subscriptionEnd,
      cancelAtPeriodEnd: p.cancelAtPeriodEnd,
      balanceCents: p.balanceCents,
      pendingBalanceCents: p.pendingBalanceCents,
      totalEarningsCents: p.totalEarningsCents,
      fullName: p.fullName,
      artistName: p.artistName,
      banned: p.banned,
      banReason: p.banReason,
    },
  } as LiveProfileEvent;
}
