/**
 * Where the uploader's subscription stands, for the review card (issue 26, finding 8): a moderator sees a
 * lapse, or an end within reach, before approving. The gate's own rule decides (spec 01 §4).
 */

import { bypassesSubscription, passesSubscriptionGate } from '../../access';
import type { Role, SubscriptionStatus } from '../../constants';

/**
 * - `active`: renews; `exempt`: admin or free access, no subscription needed;
 * - `ending`: canceled, still open until `endsAt`; `lapsed`: the gate is closed (ended, past due or never).
 */
export type SubscriptionStanding = 'active' | 'exempt' | 'ending' | 'lapsed';

export type UploaderSubscription = {
  standing: SubscriptionStanding;
  status: SubscriptionStatus;
  /** When a canceled subscription ends or ended; null when it renews or never existed. */
  endsAt: string | null;
};

export function uploaderSubscription(
  input: {
    subscriptionStatus: SubscriptionStatus;
    subscriptionEnd: Date | string | null;
    roles: readonly Role[];
  },
  now: Date = new Date(),
): UploaderSubscription {
  const endsAt = input.subscriptionEnd ? new Date(input.subscriptionEnd).toISOString() : null;
  const status = input.subscriptionStatus;
  let standing: SubscriptionStanding;
  if (bypassesSubscription(input.roles)) standing = 'exempt';
  else if (!passesSubscriptionGate({ ...input, subscriptionEnd: endsAt }, now)) standing = 'lapsed';
  else standing = status === 'active' ? 'active' : 'ending';
  return { standing, status, endsAt: status === 'active' && standing !== 'lapsed' ? null : endsAt };
}

/** What the card says, or null when there is nothing to warn about (`active`, `exempt`). */
export function uploaderSubscriptionNote(
  subscription: UploaderSubscription,
  formatDate: (iso: string) => string,
): string | null {
  if (subscription.standing === 'ending' && subscription.endsAt) {
    return `Subscription canceled: it ends ${formatDate(subscription.endsAt)}.`;
  }
  if (subscription.standing !== 'lapsed') return null;
  if (subscription.status === 'past_due') return 'Subscription lapsed: the last payment failed (past due).';
  if (subscription.endsAt) return `Subscription lapsed: it ended ${formatDate(subscription.endsAt)}.`;
  return 'No active subscription.';
}
