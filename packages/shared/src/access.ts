/** The subscription gate of spec 01 §4 and the role checks, one copy for the router and the server. */
import type { Plan, Role, SubscriptionStatus } from './constants';

export type GateInput = {
  subscriptionStatus: SubscriptionStatus | null;
  subscriptionEnd: string | Date | null;
  roles: readonly Role[];
};

export function hasRole(roles: GateInput['roles'], role: Role): boolean {
  return roles.includes(role);
}

/** admin and free_access bypass the subscription requirement. */
export function bypassesSubscription(roles: GateInput['roles']): boolean {
  return hasRole(roles, 'admin') || hasRole(roles, 'free_access');
}

/** Allowed when active, or canceled with an end date that has not passed; admin and free_access always. */
export function passesSubscriptionGate(input: GateInput, now: Date = new Date()): boolean {
  if (bypassesSubscription(input.roles)) return true;
  if (input.subscriptionStatus === 'active') return true;
  if (input.subscriptionStatus === 'canceled' && input.subscriptionEnd) {
    return new Date(input.subscriptionEnd).getTime() > now.getTime();
  }
  return false;
}

/** Pro-level features: the pro plan or the free_access role (admins have them too). */
export function hasProFeatures(plan: Plan | null | undefined, roles: GateInput['roles']): boolean {
  return plan === 'pro' || hasRole(roles, 'free_access') || hasRole(roles, 'admin');
}

export function isStaff(roles: GateInput['roles']): boolean {
  return hasRole(roles, 'admin') || hasRole(roles, 'moderator');
}

export const GATE_MESSAGE = 'Please subscribe to access the dashboard.';

/**
 * What a lapsed (or never subscribed) account sees on the pages that stay open: Royalties and My Songs
 * (decision 120). The body says what a resubscribe gives back.
 */
export const LAPSED_MESSAGES = {
  title: 'Your subscription is not active.',
  body: 'Your releases, royalties and withdrawals stay available. Resubscribe to upload new releases, edit or resubmit releases, and see analytics.',
  action: 'Resubscribe',
} as const;

/** The same banner for an account that never had a subscription (a collaborator paid through splits). */
export const NO_SUBSCRIPTION_MESSAGES = {
  title: 'You have no subscription.',
  body: 'Your royalty shares, balance and withdrawals are all here. Subscribe to upload and release music of your own.',
  action: 'Choose a plan',
} as const;

/**
 * The banner of a payee (record 175): someone paid through splits who never chose a plan. It names what is
 * theirs and offers no plan; they may still subscribe from the account page.
 */
export const PAYEE_MESSAGES = {
  title: 'Your payee account',
  body: 'Your royalty shares, balance and withdrawals are all here.',
  action: 'Account',
} as const;
