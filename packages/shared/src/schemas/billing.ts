/** Subscriptions (spec 01 §4, §7, §8): request and answer shapes of the billing API, and the spec's texts. */
import { z } from 'zod';
import { PLANS, type Plan, type SubscriptionStatus } from '../constants';
import { safeText } from '../text';

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

const appUrlField = safeText({ message: BILLING_MESSAGES.urlNotOurs })
  .trim()
  .min(1, BILLING_MESSAGES.urlNotOurs)
  .max(2000, BILLING_MESSAGES.urlNotOurs);

/** create-checkout: a plan (or a provider price id), and where the provider sends the browser back to. */
export const createCheckoutSchema = z
  .object({
    plan: z.enum(PLANS).optional(),
    priceId: safeText().trim().min(1).max(200).optional(),
    successUrl: appUrlField,
    cancelUrl: appUrlField,
  })
  .refine((value) => value.plan !== undefined || value.priceId !== undefined, {
    message: BILLING_MESSAGES.planOrPriceRequired,
    path: ['plan'],
  });
export type CreateCheckoutInput = z.infer<typeof createCheckoutSchema>;

export type CreateCheckoutResult = {
  url: string;
  /** Set when the caller already had a subscription: the plan changes at the next billing cycle instead. */
  planChange: { plan: Plan; effectiveAt: string | null } | null;
};

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

export type PortalResult = { url: string };

export const sandboxPortalActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('cancel') }),
  z.object({ action: z.literal('resume') }),
  z.object({ action: z.literal('switch_plan'), plan: z.enum(PLANS) }),
]);
export type SandboxPortalAction = z.infer<typeof sandboxPortalActionSchema>;

export type SandboxCheckout = {
  id: string;
  plan: Plan;
  planName: string;
  priceLabel: string;
  status: 'open' | 'paid' | 'canceled';
  email: string;
};

export type SandboxRedirect = { redirectUrl: string };
