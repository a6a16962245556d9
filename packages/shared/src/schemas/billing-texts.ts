/**
 * The billing texts, the plan parameter and the subscription's shape without zod (issue 29, record 210): the
 * dashboard's first load shows the payment banner and keeps the subscription live. Re-exported by billing.ts.
 */
import type { Plan, SubscriptionStatus } from '../constants';

export const BILLING_MESSAGES = {
  checkoutFailed: 'Failed to start checkout',
  checkoutFailedAccount: 'Failed to start checkout process.',
  portalFailed: 'Failed to open customer portal.',
  noActiveSession: 'No active session',
  pastDue: 'Payment past due - please update payment method',
  cancelAtPeriodEndUnknown: 'set to cancel at the period end',
  paymentSuccessTitle: 'Payment successful!',
  paymentSuccessDescription: 'Your subscription is now active. Welcome to Tunedrop!',
  activating: 'Activating subscription...',
  redirecting: 'Redirecting to checkout...',
  urlNotOurs: 'Must be a page of this site.',
  planOrPriceRequired: 'Choose a plan.',
  unknownPrice: 'This price is not one of our plans.',
  /** Manage Subscription for an active subscription an admin granted: nothing is billed, so no portal. */
  grantedNoPortal:
    'Your subscription was granted by the Tunedrop team, so there is no billing to manage. Contact support to change it.',
} as const;

/** The plan query parameter: only basic or pro; anything else is ignored (spec 01 §3). */
export function parsePlanParam(value: string | null | undefined): Plan | null {
  return value === 'basic' || value === 'pro' ? value : null;
}

/** check-subscription: the spec's two fields, plus what the Current Plan section shows. */
export type SubscriptionInfo = {
  subscription_status: SubscriptionStatus;
  subscription_end: string | null;
  plan: Plan;
  /** The plan that takes over at the next billing cycle (FAQ), if a change is scheduled. */
  pending_plan: Plan | null;
  cancel_at_period_end: boolean;
  /** Whether a provider subscription exists that the customer portal can manage. */
  has_subscription: boolean;
};

export const subscriptionInfoQueryKey = ['billing', 'subscription'] as const;
