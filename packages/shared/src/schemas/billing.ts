/** Subscriptions (spec 01 §4, §7, §8): request and answer shapes of the billing API, and the spec's texts. */
import { z } from 'zod';
import { PLANS, type Plan } from '../constants';
import { safeText } from '../text';
import { BILLING_MESSAGES } from './billing-texts';

export * from './billing-texts';

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
