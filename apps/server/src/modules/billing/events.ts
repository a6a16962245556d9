/**
 * The one place a provider's word changes a profile's subscription: Stripe webhooks, reconciliation
 * reads and every sandbox action come through applyBillingEvent. Rules (decision record 041):
 * - each provider event id is recorded once in payment_events, in the same transaction: a replay is a no-op;
 * - an event older than profiles.subscription_state_at changes nothing (the newest state wins);
 * - a plan change within a paid period waits in pending_plan until the period ends (FAQ: next cycle).
 */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { paymentEvents, profiles } from '../../db/schema';
import type { BillingEvent, SubscriptionSnapshot } from '../../infra/payments/provider';

/**
 * 'unmatched' (no profile for the customer yet) and 'tie' (a webhook payload from the same second as the
 * profile's last state) are not recorded: the caller retries or reads the provider (decision 088).
 */
export type ApplyOutcome = 'applied' | 'duplicate' | 'stale' | 'unmatched' | 'ignored' | 'tie';

/** Leaves the transaction without recording the event id. */
class NotRecorded extends Error {
  constructor(readonly outcome: 'unmatched' | 'tie') {
    super(outcome);
  }
}

type LockedProfile = typeof profiles.$inferSelect;

async function lockProfile(
  tx: DbOrTx,
  by: { userId?: string | null; customerId?: string | null },
): Promise<LockedProfile | null> {
  if (by.userId) {
    const [row] = await tx.select().from(profiles).where(eq(profiles.id, by.userId)).for('update');
    if (row) return row;
  }
  if (by.customerId) {
    const [row] = await tx
      .select()
      .from(profiles)
      .where(eq(profiles.paymentCustomerId, by.customerId))
      .for('update');
    if (row) return row;
  }
  return null;
}

/** Whether the profile is inside a period it has paid for (so a price change waits for the next one). */
function isWithinPaidPeriod(profile: LockedProfile, now: Date): boolean {
  if (profile.subscriptionStatus === 'active' || profile.subscriptionStatus === 'past_due') return true;
  return (
    profile.subscriptionStatus === 'canceled' &&
    profile.subscriptionEnd !== null &&
    profile.subscriptionEnd.getTime() > now.getTime()
  );
}

/** The profile columns a subscription snapshot leads to, given the profile as it is. */
export function subscriptionUpdate(profile: LockedProfile, snapshot: SubscriptionSnapshot, now: Date) {
  const isCurrent = profile.paymentSubscriptionId === snapshot.id;
  const isEnded = snapshot.status === 'canceled' && !snapshot.cancelAtPeriodEnd;
  const hasPeriodAdvanced =
    snapshot.currentPeriodEnd !== null &&
    profile.subscriptionEnd !== null &&
    snapshot.currentPeriodEnd.getTime() > profile.subscriptionEnd.getTime();

  let plan = profile.plan;
  let pendingPlan = profile.pendingPlan;
  if (snapshot.plan) {
    if (!isCurrent || !isWithinPaidPeriod(profile, now) || hasPeriodAdvanced) {
      // A new subscription, a return after a lapse, or a new billing cycle: the price's plan applies now.
      plan = snapshot.plan;
      pendingPlan = null;
    } else {
      // Same subscription, same paid period: a different price waits for the next cycle.
      pendingPlan = snapshot.plan === plan ? null : snapshot.plan;
    }
  }
  if (isEnded) pendingPlan = null;

  let subscriptionEnd: Date | null;
  if (snapshot.status === 'inactive') subscriptionEnd = null;
  else if (isEnded) subscriptionEnd = snapshot.endedAt ?? snapshot.currentPeriodEnd ?? now;
  else subscriptionEnd = snapshot.currentPeriodEnd;

  return {
    subscriptionStatus: snapshot.status,
    subscriptionEnd,
    cancelAtPeriodEnd: snapshot.status === 'canceled' && snapshot.cancelAtPeriodEnd,
    paymentCustomerId: snapshot.customerId || profile.paymentCustomerId,
    paymentSubscriptionId: snapshot.id,
    plan,
    pendingPlan,
  };
}

export async function applyBillingEvent(
  db: DbOrTx,
  event: BillingEvent,
  now: Date = new Date(),
): Promise<ApplyOutcome> {
  try {
    return await applyRecorded(db, event, now);
  } catch (error) {
    if (error instanceof NotRecorded) return error.outcome;
    throw error;
  }
}

function applyRecorded(db: DbOrTx, event: BillingEvent, now: Date): Promise<ApplyOutcome> {
  return db.transaction(async (tx) => {
    if (event.id) {
      const recorded = await tx
        .insert(paymentEvents)
        .values({ id: event.id, type: event.type })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (recorded.length === 0) return 'duplicate';
    }
    if (event.kind === 'ignored') return 'ignored';

    const profile =
      event.kind === 'subscription'
        ? await lockProfile(tx, { userId: event.snapshot.userId, customerId: event.snapshot.customerId })
        : await lockProfile(tx, { customerId: event.customerId });
    if (!profile) throw new NotRecorded('unmatched');
    const stateAt = profile.subscriptionStateAt?.getTime();
    if (stateAt !== undefined && event.createdAt.getTime() < stateAt) return 'stale';
    if (
      stateAt !== undefined &&
      event.createdAt.getTime() === stateAt &&
      event.tieBreak === 'provider-read'
    ) {
      throw new NotRecorded('tie');
    }

    if (event.kind === 'payment_failed') {
      const isOtherSubscription =
        event.subscriptionId !== null &&
        profile.paymentSubscriptionId !== null &&
        event.subscriptionId !== profile.paymentSubscriptionId;
      if (isOtherSubscription) return 'ignored';
      await tx
        .update(profiles)
        .set({ subscriptionStatus: 'past_due', subscriptionStateAt: event.createdAt, updatedAt: now })
        .where(eq(profiles.id, profile.id));
      return 'applied';
    }

    const { snapshot } = event;
    const isLive = snapshot.status === 'active' || snapshot.status === 'past_due';
    if (profile.paymentSubscriptionId && profile.paymentSubscriptionId !== snapshot.id && !isLive) {
      // The end (or an incomplete start) of a subscription that is not the profile's current one.
      return 'ignored';
    }
    await tx
      .update(profiles)
      .set({
        ...subscriptionUpdate(profile, snapshot, now),
        subscriptionStateAt: event.createdAt,
        updatedAt: now,
      })
      .where(eq(profiles.id, profile.id));
    return 'applied';
  });
}
