/**
 * Payments: one interface, two providers. Stripe (official SDK) when STRIPE_SECRET_KEY is set, the
 * built-in sandbox otherwise. Both describe what happened as BillingEvents, which one piece of code
 * (modules/billing/events.ts) applies to the profile, so the sandbox exercises the webhook's code path.
 */
import type { Plan, SubscriptionStatus } from '@tunedrop/shared';

/** A provider's subscription, translated into our terms. */
export type SubscriptionSnapshot = {
  id: string;
  customerId: string;
  /** Our user id when the provider carries it (checkout reference or subscription metadata). */
  userId: string | null;
  /**
   * The provider's state mapped to ours: 'active' (also while trialing), 'canceled' (ended, or set to
   * cancel at the period end), 'past_due' (payment failing), 'inactive' (never paid: incomplete).
   */
  status: SubscriptionStatus;
  /** The plan of the subscription's current price; null when the price is not one of ours. */
  plan: Plan | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
};

export type BillingEvent =
  | {
      kind: 'subscription';
      /** Provider event id, recorded once; null for a reconciliation read (nothing to de-duplicate). */
      id: string | null;
      type: string;
      /** When the provider created the event: older than the profile's last state means it is ignored. */
      createdAt: Date;
      snapshot: SubscriptionSnapshot;
      /**
       * 'provider-read': the snapshot is a webhook payload, so on a tie with the profile's last state
       * (same second, order unknown) it is not applied; the caller reads the provider instead (decision 088).
       */
      tieBreak?: 'provider-read';
    }
  | {
      kind: 'payment_failed';
      id: string | null;
      type: string;
      createdAt: Date;
      customerId: string;
      subscriptionId: string | null;
      tieBreak?: 'provider-read';
    }
  | {
      /** An event we record (so a replay stays a no-op) but that changes nothing. */
      kind: 'ignored';
      id: string;
      type: string;
      createdAt: Date;
    };

/**
 * The operator's price id per plan (the Plans setting, record 329), handed in by the billing module; an
 * empty or missing one means the provider's configured default (STRIPE_PRICE_BASIC / STRIPE_PRICE_PRO).
 */
export type PlanPriceIds = Partial<Record<Plan, string>>;

export type CheckoutInput = {
  userId: string;
  customerId: string;
  plan: Plan;
  /** Absolute URLs of this app. */
  successUrl: string;
  cancelUrl: string;
  priceIds?: PlanPriceIds;
};

export interface PaymentProvider {
  readonly kind: 'stripe' | 'sandbox';
  /** Creates the provider's customer record for a user (saved on the profile before any checkout). */
  createCustomer(input: { userId: string; email: string; fullName: string }): Promise<string>;
  /** Starts a hosted checkout and answers where the browser goes. */
  createCheckout(input: CheckoutInput): Promise<{ url: string }>;
  /** A page where the customer manages their subscription; returnUrl is absolute. */
  createPortal(input: { userId: string; customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /**
   * The provider's current view of the customer's subscription, for reconciliation: the live one if
   * any, else the most recent; null when the customer has none.
   */
  currentSubscription(input: {
    customerId: string;
    subscriptionId: string | null;
    /** Maps the subscription's price to its plan (the configured defaults are known too). */
    priceIds?: PlanPriceIds;
  }): Promise<SubscriptionSnapshot | null>;
  /**
   * Switches the subscription's price with no proration, and answers the resulting state as an event;
   * the profile's plan follows at the next billing cycle (modules/billing/events.ts).
   */
  schedulePlanChange(input: {
    subscriptionId: string;
    plan: Plan;
    priceIds?: PlanPriceIds;
  }): Promise<BillingEvent>;
  /** Verifies and translates a webhook delivery; throws WebhookSignatureError when it is not genuine. */
  parseWebhook(
    rawBody: string,
    signatureHeader: string | undefined,
    priceIds?: PlanPriceIds,
  ): Promise<BillingEvent>;
}

export class WebhookSignatureError extends Error {}

export class PaymentsNotConfiguredError extends Error {}
