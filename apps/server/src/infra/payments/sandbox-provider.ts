/**
 * The built-in payment sandbox (no STRIPE_SECRET_KEY): checkout and portal are pages of this app
 * (/sandbox/checkout/<id>, /sandbox/portal), and everything they do is described as the same
 * BillingEvents a Stripe webhook would give, applied by the same code. The sandbox keeps no state of
 * its own beyond open checkouts: its subscription is what the profile says, and time passing (renewal
 * at the period end, or the end of a canceled subscription) is worked out when it is read.
 */
import { randomUUID } from 'node:crypto';
import type { Plan, SubscriptionStatus } from '@tunedrop/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, sandboxCheckouts } from '../../db/schema';
import {
  type BillingEvent,
  type PaymentProvider,
  PaymentsNotConfiguredError,
  type SubscriptionSnapshot,
} from './provider';

export const SANDBOX_PREFIX = { customer: 'cus_sbx_', subscription: 'sub_sbx_', event: 'evt_sbx_' } as const;

/** What the sandbox reads of a profile. */
export type SandboxProfile = {
  id: string;
  plan: Plan;
  pendingPlan: Plan | null;
  subscriptionStatus: SubscriptionStatus;
  subscriptionEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  paymentCustomerId: string | null;
  paymentSubscriptionId: string | null;
};

/** Calendar months ahead, keeping the day where it exists (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** Provider events carry whole seconds (as Stripe's do), so sandbox and reconciliation order alike. */
export const eventTime = (now: Date = new Date()) => new Date(Math.floor(now.getTime() / 1000) * 1000);

export function sandboxEvent(type: string, snapshot: SubscriptionSnapshot, now = new Date()): BillingEvent {
  return {
    kind: 'subscription',
    id: `${SANDBOX_PREFIX.event}${randomUUID()}`,
    type,
    createdAt: eventTime(now),
    snapshot,
  };
}

export const isSandboxSubscription = (profile: Pick<SandboxProfile, 'paymentSubscriptionId'>) =>
  Boolean(profile.paymentSubscriptionId?.startsWith(SANDBOX_PREFIX.subscription));

/** The sandbox subscription as it stands at `now`: renewed past its period end, or ended if it was canceling. */
export function sandboxSubscriptionAt(profile: SandboxProfile, now: Date): SubscriptionSnapshot | null {
  if (!isSandboxSubscription(profile) || !profile.paymentCustomerId || !profile.paymentSubscriptionId) {
    return null;
  }
  const base = {
    id: profile.paymentSubscriptionId,
    customerId: profile.paymentCustomerId,
    userId: profile.id,
    // The subscription's price: a scheduled change has already switched it (as Stripe does without proration).
    plan: profile.pendingPlan ?? profile.plan,
  };
  const end = profile.subscriptionEnd;
  const status = profile.subscriptionStatus;
  const ended = (at: Date | null): SubscriptionSnapshot => ({
    ...base,
    status: 'canceled',
    currentPeriodEnd: at,
    cancelAtPeriodEnd: false,
    endedAt: at ?? now,
  });
  if (status === 'canceled') {
    if (!profile.cancelAtPeriodEnd || !end || end.getTime() <= now.getTime()) return ended(end);
    return { ...base, status: 'canceled', currentPeriodEnd: end, cancelAtPeriodEnd: true, endedAt: null };
  }
  if (status === 'active' || status === 'past_due') {
    let periodEnd = end ?? addMonths(now, 1);
    let renewed = false;
    while (periodEnd.getTime() <= now.getTime()) {
      periodEnd = addMonths(periodEnd, 1);
      renewed = true;
    }
    return {
      ...base,
      // The sandbox's card never fails, so a renewal settles any past-due payment.
      status: renewed ? 'active' : status,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
      endedAt: null,
    };
  }
  return null;
}

export function createSandboxProvider(db: Db, appUrl: string): PaymentProvider {
  const readByCustomer = async (customerId: string) => {
    const [row] = await db.select().from(profiles).where(eq(profiles.paymentCustomerId, customerId)).limit(1);
    return row ?? null;
  };

  return {
    kind: 'sandbox',

    async createCustomer({ userId }) {
      return `${SANDBOX_PREFIX.customer}${userId}`;
    },

    async createCheckout({ userId, plan, successUrl, cancelUrl }) {
      const id = `cs_sbx_${randomUUID().replace(/-/g, '')}`;
      await db.insert(sandboxCheckouts).values({ id, userId, plan, successUrl, cancelUrl });
      return { url: `${appUrl}/sandbox/checkout/${id}` };
    },

    async createPortal() {
      return { url: `${appUrl}/sandbox/portal` };
    },

    async currentSubscription({ customerId }) {
      const profile = await readByCustomer(customerId);
      return profile ? sandboxSubscriptionAt(profile, new Date()) : null;
    },

    async schedulePlanChange({ subscriptionId, plan }) {
      const [profile] = await db
        .select()
        .from(profiles)
        .where(eq(profiles.paymentSubscriptionId, subscriptionId))
        .limit(1);
      const current = profile ? sandboxSubscriptionAt(profile, new Date()) : null;
      if (!current) throw new Error(`no sandbox subscription ${subscriptionId}`);
      return sandboxEvent('customer.subscription.updated', { ...current, plan });
    },

    async parseWebhook() {
      throw new PaymentsNotConfiguredError('the payment sandbox sends no webhooks');
    },
  };
}
