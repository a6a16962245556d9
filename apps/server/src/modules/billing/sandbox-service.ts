/**
 * The payment sandbox's pages: pay or cancel an open checkout, and the portal's cancel at period end,
 * resume and switch plan. Each builds the event a real provider would send and applies it with the
 * webhook's code (events.ts). Refused unless the sandbox is the provider (config.isPaymentsSandboxAllowed).
 */
import { randomUUID } from 'node:crypto';
import { PLAN_DETAILS } from '@tunedrop/shared';
import type {
  SandboxCheckout,
  SandboxPortalAction,
  SandboxRedirect,
  SubscriptionInfo,
} from '@tunedrop/shared/schemas/billing';
import { formatPlanPrice } from '@tunedrop/shared/schemas/brand';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profiles, sandboxCheckouts } from '../../db/schema';
import type { Deps } from '../../deps';
import {
  addMonths,
  isSandboxSubscription,
  SANDBOX_PREFIX,
  sandboxEvent,
  sandboxSubscriptionAt,
} from '../../infra/payments/sandbox-provider';
import type { Viewer } from '../../lib/context';
import { AppError, conflict, notFound } from '../../lib/errors';
import { readPlansView } from '../brand';
import { applyBillingEvent } from './events';
import { hasRunningSubscription, readBillingProfile, subscriptionInfoOf } from './service';

type SandboxDeps = Pick<Deps, 'config' | 'db'>;

export function assertSandbox(deps: SandboxDeps): void {
  if (deps.config.STRIPE_SECRET_KEY || !deps.config.isPaymentsSandboxAllowed) {
    throw new AppError('sandbox_disabled', 'The payment sandbox is not available on this server.', 404);
  }
}

const CHECKOUT_NOT_FOUND = 'This checkout does not exist or belongs to another account.';

export async function getSandboxCheckout(
  deps: SandboxDeps,
  viewer: Viewer,
  id: string,
): Promise<SandboxCheckout> {
  assertSandbox(deps);
  const [checkout] = await deps.db
    .select()
    .from(sandboxCheckouts)
    .where(and(eq(sandboxCheckouts.id, id), eq(sandboxCheckouts.userId, viewer.account.id)))
    .limit(1);
  if (!checkout) throw notFound(CHECKOUT_NOT_FOUND);
  const plan = checkout.plan;
  return {
    id: checkout.id,
    plan,
    planName: PLAN_DETAILS[plan].name,
    // The price the pricing page states (the operator's plans, record 329).
    priceLabel: formatPlanPrice((await readPlansView(deps.db))[plan].priceCents),
    status: checkout.status,
    email: viewer.user.email,
  };
}

/** The viewer's own checkout `id`, locked for the rest of the transaction; 404 for anyone else's. */
async function lockedCheckout(tx: DbOrTx, viewer: Viewer, id: string) {
  const [checkout] = await tx
    .select()
    .from(sandboxCheckouts)
    .where(and(eq(sandboxCheckouts.id, id), eq(sandboxCheckouts.userId, viewer.account.id)))
    .for('update');
  if (!checkout) throw notFound(CHECKOUT_NOT_FOUND);
  return checkout;
}

/** Pay: the checkout completes and a new subscription starts, a month long, on the checkout's plan. */
export async function paySandboxCheckout(
  deps: SandboxDeps,
  viewer: Viewer,
  id: string,
): Promise<SandboxRedirect> {
  assertSandbox(deps);
  return deps.db.transaction(async (tx) => {
    const checkout = await lockedCheckout(tx, viewer, id);
    // A second click on Pay (or a reload) lands where the first one went.
    if (checkout.status === 'paid') return { redirectUrl: checkout.successUrl };
    if (checkout.status !== 'open') throw conflict('This checkout was canceled. Start a new one.');
    const [profile] = await tx
      .select()
      .from(profiles)
      .where(eq(profiles.id, viewer.account.id))
      .for('update');
    if (!profile) throw notFound('Profile not found');
    if (hasRunningSubscription(profile)) throw conflict('You already have a subscription.');
    await tx.update(sandboxCheckouts).set({ status: 'paid' }).where(eq(sandboxCheckouts.id, checkout.id));
    const now = new Date();
    await applyBillingEvent(
      tx,
      sandboxEvent('checkout.session.completed', {
        id: `${SANDBOX_PREFIX.subscription}${randomUUID().replace(/-/g, '')}`,
        customerId: profile.paymentCustomerId ?? `${SANDBOX_PREFIX.customer}${profile.id}`,
        userId: profile.id,
        status: 'active',
        plan: checkout.plan,
        currentPeriodEnd: addMonths(now, 1),
        cancelAtPeriodEnd: false,
        endedAt: null,
      }),
      now,
    );
    return { redirectUrl: checkout.successUrl };
  });
}

export async function cancelSandboxCheckout(
  deps: SandboxDeps,
  viewer: Viewer,
  id: string,
): Promise<SandboxRedirect> {
  assertSandbox(deps);
  return deps.db.transaction(async (tx) => {
    const checkout = await lockedCheckout(tx, viewer, id);
    if (checkout.status === 'paid') throw conflict('This checkout has already been paid.');
    await tx.update(sandboxCheckouts).set({ status: 'canceled' }).where(eq(sandboxCheckouts.id, checkout.id));
    return { redirectUrl: checkout.cancelUrl };
  });
}

export async function sandboxPortalState(deps: SandboxDeps, viewer: Viewer): Promise<SubscriptionInfo> {
  assertSandbox(deps);
  return subscriptionInfoOf(await readBillingProfile(deps.db, viewer.account.id));
}

/** Cancel at period end, resume, or switch plan (effective at the next billing cycle). */
export async function sandboxPortalAction(
  deps: SandboxDeps,
  viewer: Viewer,
  input: SandboxPortalAction,
): Promise<SubscriptionInfo> {
  assertSandbox(deps);
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    const [profile] = await tx
      .select()
      .from(profiles)
      .where(eq(profiles.id, viewer.account.id))
      .for('update');
    if (!profile) throw notFound('Profile not found');
    const current = isSandboxSubscription(profile) ? sandboxSubscriptionAt(profile, now) : null;
    const isRunning = current !== null && hasRunningSubscription(profile, now);
    if (!current || !isRunning) throw conflict('You have no subscription to manage in the payment sandbox.');
    const isCanceling = current.status === 'canceled' && current.cancelAtPeriodEnd;
    let snapshot = current;
    if (input.action === 'cancel') {
      if (isCanceling) throw conflict('Your subscription is already set to cancel at the period end.');
      snapshot = { ...current, status: 'canceled', cancelAtPeriodEnd: true };
    } else if (input.action === 'resume') {
      if (!isCanceling) throw conflict('Your subscription is not set to cancel.');
      snapshot = { ...current, status: 'active', cancelAtPeriodEnd: false };
    } else {
      if (isCanceling) throw conflict('Resume your subscription before switching plans.');
      snapshot = { ...current, plan: input.plan };
    }
    await applyBillingEvent(tx, sandboxEvent('customer.subscription.updated', snapshot, now), now);
  });
  return subscriptionInfoOf(await readBillingProfile(deps.db, viewer.account.id));
}
