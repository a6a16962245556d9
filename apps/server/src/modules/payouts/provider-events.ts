/**
 * A provider's word on an item (issue 38): a PayPal webhook (its signature verified by PayPal's
 * verify-webhook-signature call) or a poll of the batch. Each event is applied once (payout_events keeps
 * its id) and moves an item through settle.ts, so an event delivered twice or out of order re-credits
 * the payee once. UNCLAIMED only waits: PayPal returns an unclaimed item after 30 days, and an item still
 * unclaimed 30 days after it was sent is treated as returned.
 */
import type { PayoutProviderId } from '@tunedrop/shared/schemas/payouts';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payoutBatches, payoutEvents, payoutItems } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { outcomeOf, pollPaypalBatch } from './providers/paypal';
import { providerConfig } from './settings';
import { settlePaid, settleReturned } from './settle';

const UNCLAIMED_DAYS = 30;

export type ProviderEvent = {
  provider: PayoutProviderId;
  eventId: string;
  /** Our item key (sender_item_id). */
  key: string;
  providerReference: string | null;
  status: string;
  at?: Date;
};

/** Applies one event in one transaction; `applied` is false for a repeat or an item not found. */
export async function applyProviderEvent(
  db: Db,
  event: ProviderEvent,
): Promise<{ applied: boolean; state: string | null }> {
  return db.transaction(async (tx) => {
    const [item] = await tx
      .select()
      .from(payoutItems)
      .where(and(eq(payoutItems.idempotencyKey, event.key), eq(payoutItems.provider, event.provider)));
    if (!item) return { applied: false, state: null };
    const inserted = await tx
      .insert(payoutEvents)
      .values({ provider: event.provider, eventId: event.eventId, itemId: item.id, status: event.status })
      .onConflictDoNothing()
      .returning({ id: payoutEvents.id });
    if (inserted.length === 0) return { applied: false, state: item.state };
    const at = event.at ?? new Date();
    let outcome = outcomeOf(event.status);
    const unclaimedTooLong =
      event.status === 'UNCLAIMED' &&
      item.sentAt !== null &&
      at.getTime() - item.sentAt.getTime() >= UNCLAIMED_DAYS * 86_400_000;
    if (unclaimedTooLong) outcome = 'returned';
    if (outcome === 'paid') {
      await settlePaid(tx, item.id, {
        providerStatus: event.status,
        providerReference: event.providerReference,
        at,
      });
    } else if (outcome === 'returned') {
      await settleReturned(tx, item.id, {
        providerStatus: event.status,
        reason: unclaimedTooLong
          ? `unclaimed for ${UNCLAIMED_DAYS} days`
          : `PayPal: ${event.status.toLowerCase()}`,
        at,
      });
    } else if (item.state === 'sent') {
      await tx.update(payoutItems).set({ providerStatus: event.status }).where(eq(payoutItems.id, item.id));
    }
    const [after] = await tx
      .select({ state: payoutItems.state })
      .from(payoutItems)
      .where(eq(payoutItems.id, item.id));
    return { applied: true, state: after?.state ?? null };
  });
}

type PaypalWebhook = {
  id?: string;
  event_type?: string;
  resource?: {
    payout_item_id?: string;
    transaction_status?: string;
    payout_item?: { sender_item_id?: string };
  };
};

/**
 * A PayPal webhook: verified by PayPal (`POST /v1/notifications/verify-webhook-signature` with the
 * transmission headers and the configured webhook id) before anything is read from it.
 */
export async function receivePaypalWebhook(
  db: Db,
  appSecret: string,
  headers: (name: string) => string | undefined,
  rawBody: string,
): Promise<{ applied: boolean }> {
  const config = await providerConfig(db, appSecret, 'paypal');
  const webhookId = config.credentials?.webhookId;
  if (!config.credentials || !webhookId)
    throw new AppError('webhook_not_configured', 'PayPal webhooks are not set up.', 400);
  let event: PaypalWebhook;
  try {
    event = JSON.parse(rawBody) as PaypalWebhook;
  } catch {
    throw new AppError('webhook_unreadable', 'The webhook body is not JSON.', 400);
  }
  const base = (config.baseUrl ?? 'https://api-m.paypal.com').replace(/\/+$/, '');
  const tokenResponse = await fetch(`${base}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${config.credentials.clientId}:${config.credentials.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const bearer = ((await tokenResponse.json()) as { access_token?: string }).access_token;
  const verify = await fetch(`${base}/v1/notifications/verify-webhook-signature`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      auth_algo: headers('paypal-auth-algo'),
      cert_url: headers('paypal-cert-url'),
      transmission_id: headers('paypal-transmission-id'),
      transmission_sig: headers('paypal-transmission-sig'),
      transmission_time: headers('paypal-transmission-time'),
      webhook_id: webhookId,
      webhook_event: event,
    }),
  });
  const verdict = verify.ok
    ? ((await verify.json()) as { verification_status?: string }).verification_status
    : null;
  if (verdict !== 'SUCCESS')
    throw new AppError('webhook_signature', 'The webhook signature did not verify.', 400);
  const key = event.resource?.payout_item?.sender_item_id;
  if (!event.id || !key || !event.event_type?.startsWith('PAYMENT.PAYOUTS-ITEM.')) return { applied: false };
  const result = await applyProviderEvent(db, {
    provider: 'paypal',
    eventId: event.id,
    key,
    providerReference: event.resource?.payout_item_id ?? null,
    status: event.resource?.transaction_status ?? event.event_type.slice('PAYMENT.PAYOUTS-ITEM.'.length),
  });
  return { applied: result.applied };
}

/**
 * Polls every PayPal batch of a run and applies each item's status (an event per item and status). An item
 * still UNCLAIMED once 30 days have passed since it was sent is a new event (`…:UNCLAIMED:30d`), so the
 * poll that sees the 30th day returns it even though earlier polls saw UNCLAIMED already.
 */
export async function pollPaypalRun(
  db: Db,
  appSecret: string,
  runId: string,
  at = new Date(),
): Promise<number> {
  const batches = await db
    .select()
    .from(payoutBatches)
    .where(
      and(
        eq(payoutBatches.runId, runId),
        eq(payoutBatches.provider, 'paypal'),
        isNotNull(payoutBatches.providerReference),
      ),
    );
  const config = await providerConfig(db, appSecret, 'paypal');
  const sentAt = new Map(
    (
      await db
        .select({ key: payoutItems.idempotencyKey, sentAt: payoutItems.sentAt })
        .from(payoutItems)
        .where(and(eq(payoutItems.runId, runId), eq(payoutItems.provider, 'paypal')))
    ).map((row) => [row.key, row.sentAt]),
  );
  let applied = 0;
  for (const batch of batches) {
    if (!batch.providerReference) continue;
    const result = await pollPaypalBatch(config, batch.providerReference);
    for (const item of result.items) {
      const sent = sentAt.get(item.key);
      const isExpired =
        item.providerStatus === 'UNCLAIMED' &&
        sent != null &&
        at.getTime() - sent.getTime() >= UNCLAIMED_DAYS * 86_400_000;
      const outcome = await applyProviderEvent(db, {
        provider: 'paypal',
        eventId: `poll:${item.providerReference}:${item.providerStatus}${isExpired ? `:${UNCLAIMED_DAYS}d` : ''}`,
        key: item.key,
        providerReference: item.providerReference,
        status: item.providerStatus,
        at,
      });
      if (outcome.applied) applied += 1;
    }
  }
  return applied;
}

/**
 * The `payouts.poll` job: every run with a PayPal payout still on its way is polled (webhooks can be lost
 * or not set up). A run that fails to poll is logged and the others go on.
 */
export async function pollSentPayouts(
  db: Db,
  appSecret: string,
  at = new Date(),
): Promise<{ runs: number; applied: number; failed: { runId: string; error: string }[] }> {
  const runs = await db
    .selectDistinct({ runId: payoutItems.runId })
    .from(payoutItems)
    .where(and(eq(payoutItems.provider, 'paypal'), eq(payoutItems.state, 'sent')));
  let applied = 0;
  const failed: { runId: string; error: string }[] = [];
  for (const { runId } of runs) {
    try {
      applied += await pollPaypalRun(db, appSecret, runId, at);
    } catch (error) {
      failed.push({ runId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { runs: runs.length, applied, failed };
}
