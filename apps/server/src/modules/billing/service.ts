/**
 * Subscriptions (spec 01 §4, §7): create-checkout, check-subscription, customer-portal and the Stripe
 * webhook. Provider calls happen outside transactions; what they answer is applied by events.ts.
 */
import { PLAN_DETAILS, type Plan } from '@tunedrop/shared';
import {
  BILLING_MESSAGES,
  type CreateCheckoutInput,
  type CreateCheckoutResult,
  type SubscriptionInfo,
} from '@tunedrop/shared/schemas/billing';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profiles } from '../../db/schema';
import type { Deps } from '../../deps';
import { paymentProviderFor } from '../../infra/payments/payments';
import {
  type BillingEvent,
  type PaymentProvider,
  PaymentsNotConfiguredError,
  type PlanPriceIds,
  WebhookSignatureError,
} from '../../infra/payments/provider';
import { eventTime, isSandboxSubscription } from '../../infra/payments/sandbox-provider';
import type { Viewer } from '../../lib/context';
import { AppError, conflict, notFound, validationError } from '../../lib/errors';
import { readPlansView } from '../brand';
import { type ApplyOutcome, applyBillingEvent } from './events';

type BillingDeps = Pick<Deps, 'config' | 'db' | 'logger'>;

export const ACCOUNT_PATH = '/dashboard/account';

export function requireProvider(deps: BillingDeps): PaymentProvider {
  const provider = paymentProviderFor(deps);
  if (!provider) {
    throw new AppError('payments_not_configured', 'Payments are not configured on this server.', 503);
  }
  return provider;
}

/**
 * A return address must be a page of this app: a path ("/dashboard?success=true") or an absolute URL
 * on APP_URL's origin. Anything else (another origin, "//host", "javascript:") is refused.
 */
export function appUrlFor(appUrl: string, value: string, field: string): string {
  const origin = new URL(appUrl).origin;
  const isPath = value.startsWith('/') && !value.startsWith('//') && !value.includes('\\');
  let url: URL;
  try {
    url = new URL(value, `${origin}/`);
  } catch {
    throw validationError(BILLING_MESSAGES.urlNotOurs, { [field]: BILLING_MESSAGES.urlNotOurs });
  }
  const isOurAbsolute = /^https?:\/\//i.test(value) && url.origin === origin;
  if ((!isPath && !isOurAbsolute) || url.origin !== origin || /[\r\n]/.test(value)) {
    throw validationError(BILLING_MESSAGES.urlNotOurs, { [field]: BILLING_MESSAGES.urlNotOurs });
  }
  return `${origin}${url.pathname}${url.search}${url.hash}`;
}

/**
 * The price ids the operator saved in Plans (record 329); the provider falls back to STRIPE_PRICE_BASIC /
 * STRIPE_PRICE_PRO for a plan whose id is empty.
 */
export async function planPriceIds(db: DbOrTx): Promise<PlanPriceIds> {
  const plans = await readPlansView(db);
  return { basic: plans.basic.priceId, pro: plans.pro.priceId };
}

function planForCheckout(deps: BillingDeps, input: CreateCheckoutInput, priceIds: PlanPriceIds): Plan {
  if (input.plan) return input.plan;
  const { config } = deps;
  const priceId = input.priceId;
  const prices: Record<string, Plan> = config.STRIPE_SECRET_KEY
    ? {
        ...(config.STRIPE_PRICE_BASIC ? { [config.STRIPE_PRICE_BASIC]: 'basic' } : {}),
        ...(config.STRIPE_PRICE_PRO ? { [config.STRIPE_PRICE_PRO]: 'pro' } : {}),
        // The operator's ids win over the environment's.
        ...(priceIds.basic ? { [priceIds.basic]: 'basic' } : {}),
        ...(priceIds.pro ? { [priceIds.pro]: 'pro' } : {}),
      }
    : { price_sandbox_basic: 'basic', price_sandbox_pro: 'pro' };
  const plan = priceId ? prices[priceId] : undefined;
  if (!plan) throw validationError(BILLING_MESSAGES.unknownPrice, { priceId: BILLING_MESSAGES.unknownPrice });
  return plan;
}

/** Provider failures become clear answers: not configured (503) or unreachable/refused (502). */
async function callProvider<T>(deps: BillingDeps, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof PaymentsNotConfiguredError) {
      deps.logger.error({ reason: error.message }, `${what}: payments are not fully configured`);
      throw new AppError('payments_not_configured', 'Payments are not configured on this server.', 503);
    }
    deps.logger.error({ err: error }, `${what}: the payment provider failed`);
    throw new AppError(
      'payment_provider_error',
      'The payment provider could not be reached. Please try again.',
      502,
    );
  }
}

export async function readBillingProfile(db: DbOrTx, userId: string) {
  const [profile] = await db.select().from(profiles).where(eq(profiles.id, userId)).limit(1);
  if (!profile) throw notFound('Profile not found');
  return profile;
}

type BillingProfile = Awaited<ReturnType<typeof readBillingProfile>>;

/** A provider subscription that still runs: paid or being retried, or canceling at a future period end. */
export function hasRunningSubscription(profile: BillingProfile, now = new Date()): boolean {
  if (!profile.paymentSubscriptionId) return false;
  if (profile.subscriptionStatus === 'active' || profile.subscriptionStatus === 'past_due') return true;
  return (
    profile.subscriptionStatus === 'canceled' &&
    profile.cancelAtPeriodEnd &&
    profile.subscriptionEnd !== null &&
    profile.subscriptionEnd.getTime() > now.getTime()
  );
}

export function subscriptionInfoOf(profile: BillingProfile): SubscriptionInfo {
  return {
    subscription_status: profile.subscriptionStatus,
    subscription_end: profile.subscriptionEnd?.toISOString() ?? null,
    plan: profile.plan,
    pending_plan: profile.pendingPlan,
    cancel_at_period_end: profile.cancelAtPeriodEnd,
    has_subscription: Boolean(profile.paymentCustomerId && profile.paymentSubscriptionId),
  };
}

async function ensureCustomer(deps: BillingDeps, provider: PaymentProvider, profile: BillingProfile) {
  if (profile.paymentCustomerId) return profile.paymentCustomerId;
  const customerId = await provider.createCustomer({
    userId: profile.id,
    email: profile.email,
    fullName: profile.fullName,
  });
  // Only the first of two concurrent checkouts saves its customer; the other uses the saved one.
  await deps.db
    .update(profiles)
    .set({ paymentCustomerId: customerId, updatedAt: new Date() })
    .where(and(eq(profiles.id, profile.id), isNull(profiles.paymentCustomerId)));
  const saved = await readBillingProfile(deps.db, profile.id);
  return saved.paymentCustomerId ?? customerId;
}

export async function createCheckout(
  deps: BillingDeps,
  viewer: Viewer,
  input: CreateCheckoutInput,
): Promise<CreateCheckoutResult> {
  const successUrl = appUrlFor(deps.config.appUrl, input.successUrl, 'successUrl');
  const cancelUrl = appUrlFor(deps.config.appUrl, input.cancelUrl, 'cancelUrl');
  const priceIds = await planPriceIds(deps.db);
  const plan = planForCheckout(deps, input, priceIds);
  const provider = requireProvider(deps);
  const profile = await readBillingProfile(deps.db, viewer.account.id);

  if (hasRunningSubscription(profile) && profile.paymentSubscriptionId) {
    if (profile.subscriptionStatus === 'canceled') {
      throw conflict(
        'Your subscription is set to cancel at the period end. Resume it with Manage Subscription instead.',
      );
    }
    const subscribedPlan = profile.pendingPlan ?? profile.plan;
    if (plan === subscribedPlan) {
      throw conflict(`You are already subscribed to the ${PLAN_DETAILS[plan].name} plan.`);
    }
    if (provider.kind === 'sandbox' && !isSandboxSubscription(profile)) {
      throw conflict('This subscription is managed by another payment provider.');
    }
    // Already paying: the plan changes at the next billing cycle (FAQ), with no second subscription.
    const subscriptionId = profile.paymentSubscriptionId;
    const event = await callProvider(deps, 'plan change', () =>
      provider.schedulePlanChange({ subscriptionId, plan, priceIds }),
    );
    await applyBillingEvent(deps.db, event.id ? event : { ...event, createdAt: eventTime() });
    const updated = await readBillingProfile(deps.db, viewer.account.id);
    return {
      url: successUrl,
      planChange: { plan, effectiveAt: updated.subscriptionEnd?.toISOString() ?? null },
    };
  }

  const { url } = await callProvider(deps, 'checkout', async () => {
    const customerId = await ensureCustomer(deps, provider, profile);
    return provider.createCheckout({
      userId: profile.id,
      customerId,
      plan,
      successUrl,
      cancelUrl,
      priceIds,
    });
  });
  return { url, planChange: null };
}

/** Reads the provider's view and applies it (best effort: a provider outage answers the stored state). */
export async function checkSubscription(deps: BillingDeps, viewer: Viewer): Promise<SubscriptionInfo> {
  const profile = await readBillingProfile(deps.db, viewer.account.id);
  const provider = paymentProviderFor(deps);
  const isProvidersCustomer =
    profile.paymentCustomerId !== null &&
    (provider?.kind === 'stripe'
      ? !profile.paymentCustomerId.startsWith('cus_sbx_')
      : profile.paymentCustomerId.startsWith('cus_sbx_'));
  if (!provider || !profile.paymentCustomerId || !isProvidersCustomer) return subscriptionInfoOf(profile);
  try {
    const snapshot = await provider.currentSubscription({
      customerId: profile.paymentCustomerId,
      subscriptionId: profile.paymentSubscriptionId,
      priceIds: await planPriceIds(deps.db),
    });
    if (snapshot) {
      await applyBillingEvent(deps.db, {
        kind: 'subscription',
        id: null,
        type: 'reconcile',
        createdAt: eventTime(),
        snapshot: { ...snapshot, userId: profile.id },
      });
    }
  } catch (error) {
    deps.logger.warn({ err: error, userId: profile.id }, 'could not reconcile the subscription');
  }
  return subscriptionInfoOf(await readBillingProfile(deps.db, viewer.account.id));
}

export async function openCustomerPortal(deps: BillingDeps, viewer: Viewer): Promise<{ url: string }> {
  const provider = requireProvider(deps);
  const profile = await readBillingProfile(deps.db, viewer.account.id);
  if (!profile.paymentCustomerId || !profile.paymentSubscriptionId) {
    // An active subscription with no provider customer was granted by an admin: say so (issue 18).
    if (profile.subscriptionStatus === 'active') throw conflict(BILLING_MESSAGES.grantedNoPortal);
    throw conflict('You have no subscription to manage yet. Choose a plan first.');
  }
  const customerId = profile.paymentCustomerId;
  return callProvider(deps, 'customer portal', () =>
    provider.createPortal({
      userId: profile.id,
      customerId,
      returnUrl: `${deps.config.appUrl}${ACCOUNT_PATH}`,
    }),
  );
}

/**
 * The provider's current subscription for a webhook event that tied with the profile's last state, as
 * an event of the same id and time that applies on a tie; the event itself when the provider has none.
 */
async function readProviderForTie(
  provider: PaymentProvider,
  event: BillingEvent,
  priceIds: PlanPriceIds,
): Promise<BillingEvent> {
  if (event.kind === 'ignored') return event;
  const customerId = event.kind === 'subscription' ? event.snapshot.customerId : event.customerId;
  const subscriptionId = event.kind === 'subscription' ? event.snapshot.id : event.subscriptionId;
  const fresh = await provider.currentSubscription({ customerId, subscriptionId, priceIds });
  if (!fresh) return { ...event, tieBreak: undefined };
  const userId = event.kind === 'subscription' ? event.snapshot.userId : null;
  return {
    kind: 'subscription',
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    snapshot: { ...fresh, userId: userId ?? fresh.userId },
  };
}

export async function handleStripeWebhook(
  deps: BillingDeps,
  rawBody: string,
  signature: string | undefined,
): Promise<ApplyOutcome> {
  const provider = paymentProviderFor(deps);
  if (provider?.kind !== 'stripe') {
    throw new AppError('not_found', 'Webhooks are not enabled on this server.', 404);
  }
  try {
    const priceIds = await planPriceIds(deps.db);
    const event = await provider.parseWebhook(rawBody, signature, priceIds);
    let outcome = await applyBillingEvent(deps.db, event);
    if (outcome === 'tie') {
      // Same second as the last state, order unknown: apply what Stripe says now (decision 088).
      outcome = await applyBillingEvent(deps.db, await readProviderForTie(provider, event, priceIds));
    }
    deps.logger.info({ eventId: event.id, type: event.type, outcome }, 'payment webhook');
    if (outcome === 'unmatched') {
      // Not recorded: Stripe retries a non-2xx answer, so the event applies once the profile exists.
      throw new AppError(
        'customer_not_found',
        'No account has this customer yet; the event will be retried.',
        409,
      );
    }
    return outcome;
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      deps.logger.warn({ reason: error.message }, 'payment webhook with a bad signature refused');
      throw new AppError('invalid_webhook_signature', 'The webhook signature could not be verified.', 400);
    }
    if (error instanceof PaymentsNotConfiguredError) {
      deps.logger.error({ reason: error.message }, 'payment webhook received but not configured');
      throw new AppError('payments_not_configured', 'Webhooks are not configured on this server.', 503);
    }
    throw error;
  }
}
