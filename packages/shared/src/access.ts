/** The subscription gate of spec 01 §4 and the role checks, one copy for the router and the server. */
import type { Role, SubscriptionStatus } from './constants';

export type GateInput = {
  subscriptionStatus: SubscriptionStatus | string | null;
  subscriptionEnd: string | Date | null;
  roles: readonly Role[] | readonly string[];
};

export function hasRole(roles: GateInput['roles'], role: Role): boolean {
  return (roles as readonly string[]).includes(role);
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
export function hasProFeatures(plan: string | null | undefined, roles: GateInput['roles']): boolean {
  return plan === 'pro' || hasRole(roles, 'free_access') || hasRole(roles, 'admin');
}

export function isStaff(roles: GateInput['roles']): boolean {
  return hasRole(roles, 'admin') || hasRole(roles, 'moderator');
}

export const GATE_MESSAGE = 'Please subscribe to access the dashboard.';
