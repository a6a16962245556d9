/**
 * Stripe Connect's side of an account (issue 38, record 281): "Connect with Stripe" makes the account's
 * Express connected account once and answers a fresh onboarding link; `account.updated` events say when
 * onboarding is complete; the account then chooses Stripe as its payout method (the same save as any payout
 * details: audited, held, mailed). Stripe's events arrive at one webhook route, verified with
 * `webhooks.constructEvent` against the operator's signing secrets before anything is read.
 */
import { PAYOUT_TEXTS, type StripeOnboardingView } from '@tunedrop/shared/schemas/payouts';
import { maskNumber } from '@tunedrop/shared/schemas/wallet';
import { and, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Db, Tx } from '../../db/client';
import { payoutEvents, payoutItems, payoutStripeAccounts, profiles } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { decryptPaymentDetails, type MoneyActor, savePayoutDetails } from '../wallet';
import { stripeClient } from './providers/stripe';
import { isProviderOn, providerConfig, providerRows } from './settings';
import { settleReturned } from './settle';

type AccountRow = typeof payoutStripeAccounts.$inferSelect;

const isComplete = (row: AccountRow | undefined) => Boolean(row?.detailsSubmitted && row.transfersActive);

async function accountRow(db: Db, userId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(payoutStripeAccounts).where(eq(payoutStripeAccounts.userId, userId));
  return row;
}

async function isMethod(db: Db, appSecret: string, userId: string, row: AccountRow | undefined) {
  if (!row) return false;
  const [profile] = await db
    .select({ method: profiles.paymentMethod, details: profiles.paymentDetailsEncrypted })
    .from(profiles)
    .where(eq(profiles.id, userId));
  if (profile?.method !== 'stripe' || !profile.details) return false;
  const stored = decryptPaymentDetails(appSecret, userId, profile.details);
  return 'stripe_account_id' in stored.details && stored.details.stripe_account_id === row.stripeAccountId;
}

export async function stripeOnboarding(
  db: Db,
  appSecret: string,
  userId: string,
): Promise<StripeOnboardingView> {
  const row = await accountRow(db, userId);
  const offered = isProviderOn('stripe', (await providerRows(db)).get('stripe'));
  return {
    isOffered: offered,
    accountHint: row ? maskNumber(row.stripeAccountId) : null,
    detailsSubmitted: row?.detailsSubmitted ?? false,
    canReceiveTransfers: row?.transfersActive ?? false,
    payoutsEnabled: row?.payoutsEnabled ?? false,
    isComplete: isComplete(row),
    isMethod: await isMethod(db, appSecret, userId, row),
  };
}

async function offeredConfig(db: Db, appSecret: string) {
  if (!isProviderOn('stripe', (await providerRows(db)).get('stripe')))
    throw new AppError('provider_off', PAYOUT_TEXTS.providerOff('Stripe'), 409);
  return providerConfig(db, appSecret, 'stripe');
}

/**
 * The account's onboarding link: its connected account made on the first call (Express, asking for the
 * `transfers` capability; the Idempotency-Key makes a double click one account), then an `account_onboarding`
 * link, which is single-use and expires within minutes, so it is made per click and never stored.
 */
export async function stripeOnboardingLink(
  db: Db,
  appSecret: string,
  userId: string,
  appUrl: string,
): Promise<{ url: string }> {
  const stripe = stripeClient(await offeredConfig(db, appSecret));
  let row = await accountRow(db, userId);
  if (!row) {
    const [profile] = await db
      .select({ email: profiles.email })
      .from(profiles)
      .where(eq(profiles.id, userId));
    if (!profile) throw notFound('User not found');
    const account = await stripe.accounts.create(
      {
        type: 'express',
        email: profile.email,
        capabilities: { transfers: { requested: true } },
        metadata: { tunedrop_account: userId },
      },
      { idempotencyKey: `tunedrop-account-${userId}` },
    );
    await db
      .insert(payoutStripeAccounts)
      .values({
        userId,
        stripeAccountId: account.id,
        detailsSubmitted: account.details_submitted ?? false,
        transfersActive: account.capabilities?.transfers === 'active',
        payoutsEnabled: account.payouts_enabled ?? false,
      })
      .onConflictDoNothing();
    row = await accountRow(db, userId);
    if (!row) throw new Error('Stripe account row vanished');
  }
  const back = `${appUrl}/dashboard/payouts`;
  const link = await stripe.accountLinks.create({
    account: row.stripeAccountId,
    type: 'account_onboarding',
    refresh_url: `${back}?stripe=refresh`,
    return_url: `${back}?stripe=return`,
  });
  return { url: link.url };
}

/** Stripe becomes the account's payout method once onboarding is complete. */
export async function useStripeForPayouts(db: Db, appSecret: string, userId: string, actor: MoneyActor) {
  await offeredConfig(db, appSecret);
  const row = await accountRow(db, userId);
  if (!isComplete(row) || !row)
    throw new AppError('stripe_onboarding_incomplete', PAYOUT_TEXTS.stripeOnboardingIncomplete, 409);
  return savePayoutDetails(
    db,
    appSecret,
    userId,
    { method: 'stripe', details: { stripe_account_id: row.stripeAccountId } },
    actor,
  );
}

// ---------------------------------------------------------------- events

/** Verifies the body against each configured signing secret (the platform's and the Connect endpoint's). */
export function verifyStripeEvent(
  rawBody: string,
  signature: string | undefined,
  secrets: string[],
): Stripe.Event {
  if (!signature || secrets.length === 0)
    throw new AppError('webhook_signature', 'The webhook signature did not verify.', 400);
  for (const secret of secrets) {
    try {
      return Stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      // the next secret
    }
  }
  throw new AppError('webhook_signature', 'The webhook signature did not verify.', 400);
}

const bankStatus = (payout: Stripe.Payout, outcome: 'paid' | 'failed') =>
  outcome === 'paid'
    ? `paid out to the bank (${payout.id}, arriving ${new Date(payout.arrival_date * 1000).toISOString().slice(0, 10)})`
    : `bank payout ${payout.id} failed: ${payout.failure_code ?? 'unknown'}`;

async function applyAccountUpdated(tx: Tx, event: Stripe.Event, account: Stripe.Account) {
  await tx
    .update(payoutStripeAccounts)
    .set({
      detailsSubmitted: account.details_submitted ?? false,
      transfersActive: account.capabilities?.transfers === 'active',
      payoutsEnabled: account.payouts_enabled ?? false,
      stateAt: event.created,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(payoutStripeAccounts.stripeAccountId, account.id),
        // An older state delivered late does not undo a newer one.
        or(isNull(payoutStripeAccounts.stateAt), lte(payoutStripeAccounts.stateAt, event.created)),
      ),
    );
}

/** A transfer reversed in full puts the payout's money back, once (settle.ts); a partial one is noted. */
async function applyTransferReversed(tx: Tx, transfer: Stripe.Transfer) {
  const key = transfer.metadata?.tunedrop_key || transfer.transfer_group;
  if (!key) return;
  const [item] = await tx
    .select()
    .from(payoutItems)
    .where(and(eq(payoutItems.idempotencyKey, key), eq(payoutItems.provider, 'stripe')));
  if (!item) return;
  if (transfer.amount_reversed >= transfer.amount) {
    await settleReturned(tx, item.id, {
      providerStatus: 'transfer reversed',
      reason: 'Stripe: the transfer was reversed',
    });
  } else if (item.state === 'paid' || item.state === 'sent') {
    await tx
      .update(payoutItems)
      .set({
        providerStatus: `transfer partly reversed (${transfer.amount_reversed} of ${transfer.amount} cents)`,
      })
      .where(eq(payoutItems.id, item.id));
  }
}

/**
 * A connected account's payout to its bank: the transfers made to it before the payout was created are
 * what it carries. Their status says so; the payout stays paid either way (the money left the platform
 * with the transfer; a failed bank payout puts it back in the payee's Stripe balance, not ours).
 */
async function applyBankPayout(
  tx: Tx,
  event: Stripe.Event,
  payout: Stripe.Payout,
  outcome: 'paid' | 'failed',
) {
  if (!event.account) return;
  const [row] = await tx
    .select({ userId: payoutStripeAccounts.userId })
    .from(payoutStripeAccounts)
    .where(eq(payoutStripeAccounts.stripeAccountId, event.account));
  if (!row) return;
  const items = await tx
    .select({ id: payoutItems.id, status: payoutItems.providerStatus })
    .from(payoutItems)
    .where(
      and(
        eq(payoutItems.userId, row.userId),
        eq(payoutItems.provider, 'stripe'),
        eq(payoutItems.state, 'paid'),
        // Stripe counts in whole seconds: a transfer of the payout's own second is in it.
        lt(payoutItems.sentAt, new Date((payout.created + 1) * 1000)),
      ),
    );
  // Items not yet carried by a bank payout, or carried by this one; a payout.paid arriving after the same
  // payout's payout.failed does not hide the failure.
  const ids = items
    .filter((item) => item.status === 'transfer created' || item.status?.includes(payout.id))
    .filter((item) => !(outcome === 'paid' && item.status?.includes(`${payout.id} failed`)))
    .map((item) => item.id);
  if (ids.length === 0) return;
  await tx
    .update(payoutItems)
    .set({ providerStatus: bankStatus(payout, outcome) })
    .where(inArray(payoutItems.id, ids));
}

/**
 * The webhook: verified first (a bad signature changes nothing and answers 400), then applied once per event
 * id (`payout_events`), whatever the order or the number of deliveries.
 */
export async function receiveStripeWebhook(
  db: Db,
  appSecret: string,
  signature: string | undefined,
  rawBody: string,
): Promise<{ applied: boolean }> {
  const config = await providerConfig(db, appSecret, 'stripe');
  const secrets = [config.credentials?.webhookSecret, config.credentials?.connectWebhookSecret].filter(
    (secret): secret is string => Boolean(secret),
  );
  if (!config.credentials || secrets.length === 0)
    throw new AppError('webhook_not_configured', 'Stripe webhooks are not set up.', 400);
  const event = verifyStripeEvent(rawBody, signature, secrets);
  const handled = ['account.updated', 'transfer.reversed', 'payout.paid', 'payout.failed'];
  if (!handled.includes(event.type)) return { applied: false };
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(payoutEvents)
      .values({ provider: 'stripe', eventId: event.id, itemId: null, status: event.type })
      .onConflictDoNothing()
      .returning({ id: payoutEvents.id });
    if (inserted.length === 0) return { applied: false };
    const object = event.data.object;
    if (event.type === 'account.updated') await applyAccountUpdated(tx, event, object as Stripe.Account);
    if (event.type === 'transfer.reversed') await applyTransferReversed(tx, object as Stripe.Transfer);
    if (event.type === 'payout.paid') await applyBankPayout(tx, event, object as Stripe.Payout, 'paid');
    if (event.type === 'payout.failed') await applyBankPayout(tx, event, object as Stripe.Payout, 'failed');
    return { applied: true };
  });
}
