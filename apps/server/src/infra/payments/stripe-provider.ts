/**
 * Stripe, through the official SDK: Checkout Sessions in subscription mode, Billing Portal sessions,
 * subscription reads for reconciliation, and signed webhooks. STRIPE_API_BASE points the SDK at another
 * host (tests use a local fake); only its protocol, host and port are used.
 */
import { isOneOf, PLANS, type Plan } from '@tunedrop/shared';
import Stripe from 'stripe';
import type { Config } from '../../config';
import {
  type BillingEvent,
  type CheckoutInput,
  type PaymentProvider,
  PaymentsNotConfiguredError,
  type PlanPriceIds,
  type SubscriptionSnapshot,
  WebhookSignatureError,
} from './provider';

type StripeSubscription = Stripe.Subscription;

/** The SDK's host/port/protocol options from a base URL such as http://127.0.0.1:12111. */
export function stripeConnectionOptions(apiBase: string | undefined) {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? ('http' as const) : ('https' as const);
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

const toDate = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

export function createStripeProvider(config: Config): PaymentProvider {
  const secretKey = config.STRIPE_SECRET_KEY;
  if (!secretKey) throw new PaymentsNotConfiguredError('STRIPE_SECRET_KEY is not set');
  const stripe = new Stripe(secretKey, {
    ...stripeConnectionOptions(config.STRIPE_API_BASE),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });

  /** The operator's price id for the plan (Plans setting), else the environment's. */
  const priceOf = (plan: Plan, priceIds: PlanPriceIds | undefined) => {
    const price = priceIds?.[plan] || (plan === 'pro' ? config.STRIPE_PRICE_PRO : config.STRIPE_PRICE_BASIC);
    if (!price) {
      throw new PaymentsNotConfiguredError(`STRIPE_PRICE_${plan.toUpperCase()} is not set`);
    }
    return price;
  };

  /** The operator's price ids first; the environment's still map (subscriptions started before a change). */
  const planOfPrice = (
    priceId: string | null | undefined,
    priceIds: PlanPriceIds | undefined,
  ): Plan | null => {
    const operators = PLANS.find((plan) => priceId && priceIds?.[plan] === priceId);
    if (operators) return operators;
    if (priceId && priceId === config.STRIPE_PRICE_BASIC) return 'basic';
    if (priceId && priceId === config.STRIPE_PRICE_PRO) return 'pro';
    return null;
  };

  const snapshotOf = (
    subscription: StripeSubscription,
    priceIds: PlanPriceIds | undefined,
  ): SubscriptionSnapshot => {
    const item = subscription.items?.data?.[0];
    // Since API version 2025-03-31 the period lives on the items; older payloads carry it on the subscription.
    const periodEnd =
      toDate(item?.current_period_end) ??
      toDate((subscription as unknown as { current_period_end?: number }).current_period_end);
    const cancelAt = toDate(subscription.cancel_at);
    const isCancelScheduled = subscription.cancel_at_period_end || cancelAt !== null;
    const metadataPlan = subscription.metadata?.plan;
    const plan =
      planOfPrice(item?.price?.id, priceIds) ?? (isOneOf(PLANS, metadataPlan) ? metadataPlan : null);
    let status: SubscriptionSnapshot['status'];
    switch (subscription.status) {
      case 'active':
      case 'trialing':
        status = isCancelScheduled ? 'canceled' : 'active';
        break;
      case 'past_due':
      case 'unpaid':
        status = 'past_due';
        break;
      case 'canceled':
      case 'incomplete_expired':
        status = 'canceled';
        break;
      default:
        status = 'inactive';
    }
    const isEnded = subscription.status === 'canceled' || subscription.status === 'incomplete_expired';
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer) ?? '',
      userId: subscription.metadata?.userId || null,
      status,
      plan,
      currentPeriodEnd: isEnded ? periodEnd : (cancelAt ?? periodEnd),
      cancelAtPeriodEnd: !isEnded && isCancelScheduled,
      endedAt: isEnded ? (toDate(subscription.ended_at) ?? periodEnd) : null,
    };
  };

  return {
    kind: 'stripe',

    async createCustomer({ userId, email, fullName }) {
      const customer = await stripe.customers.create({ email, name: fullName, metadata: { userId } });
      return customer.id;
    },

    async createCheckout(input: CheckoutInput) {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        client_reference_id: input.userId,
        line_items: [{ price: priceOf(input.plan, input.priceIds), quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: { userId: input.userId, plan: input.plan },
        subscription_data: { metadata: { userId: input.userId, plan: input.plan } },
      });
      if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
      return { url: session.url };
    },

    async createPortal({ customerId, returnUrl }) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      });
      return { url: session.url };
    },

    async currentSubscription({ customerId, subscriptionId, priceIds }) {
      const list = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
      const live = list.data.find((subscription) =>
        ['active', 'trialing', 'past_due', 'unpaid'].includes(subscription.status),
      );
      const chosen =
        live ?? list.data.find((subscription) => subscription.id === subscriptionId) ?? list.data[0];
      return chosen ? snapshotOf(chosen, priceIds) : null;
    },

    async schedulePlanChange({ subscriptionId, plan, priceIds }) {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
      // No proration: the new price is charged from the next invoice, i.e. the next billing cycle.
      const updated = await stripe.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price: priceOf(plan, priceIds) }],
        proration_behavior: 'none',
        metadata: { ...current.metadata, plan },
      });
      return {
        kind: 'subscription',
        id: null,
        type: 'plan_change',
        createdAt: new Date(),
        snapshot: snapshotOf(updated, priceIds),
      };
    },

    async parseWebhook(rawBody, signatureHeader, priceIds) {
      const secret = config.STRIPE_WEBHOOK_SECRET;
      if (!secret) throw new PaymentsNotConfiguredError('STRIPE_WEBHOOK_SECRET is not set');
      if (!signatureHeader) throw new WebhookSignatureError('missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, secret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'bad signature');
      }
      const base = { id: event.id, type: event.type, createdAt: new Date(event.created * 1000) };
      switch (event.type) {
        case 'checkout.session.completed': {
          const session = event.data.object;
          const subscriptionId = idOf(session.subscription);
          if (session.mode !== 'subscription' || !subscriptionId) return { kind: 'ignored', ...base };
          // The session names the subscription but not its state: read it (before anything is recorded).
          const snapshot = snapshotOf(await stripe.subscriptions.retrieve(subscriptionId), priceIds);
          return {
            kind: 'subscription',
            ...base,
            snapshot: {
              ...snapshot,
              userId: session.client_reference_id || snapshot.userId,
              customerId: idOf(session.customer) ?? snapshot.customerId,
            },
          };
        }
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          return {
            kind: 'subscription',
            ...base,
            snapshot: snapshotOf(event.data.object, priceIds),
            tieBreak: 'provider-read',
          };
        case 'invoice.payment_failed': {
          const invoice = event.data.object;
          const customerId = idOf(invoice.customer);
          if (!customerId) return { kind: 'ignored', ...base };
          const subscriptionId =
            idOf(invoice.parent?.subscription_details?.subscription) ??
            idOf((invoice as unknown as { subscription?: string | null }).subscription);
          return { kind: 'payment_failed', ...base, customerId, subscriptionId, tieBreak: 'provider-read' };
        }
        default:
          return { kind: 'ignored', ...base } satisfies BillingEvent;
      }
    },
  };
}
