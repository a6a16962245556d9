/**
 * Wise's word on a transfer (issue 38): a `transfers#state-change` webhook, its body verified against the
 * public key the operator saved (RSA-SHA256, Base64 in `X-Signature-SHA256`), or a poll of the transfer.
 * Wise delivers events more than once and out of order, so each (transfer, state) is applied once
 * (`payout_events`) and moves the item through settle.ts, which moves money once whatever the order.
 */
import { verify } from 'node:crypto';
import { formatCents } from '@tunedrop/shared';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payoutEvents, payoutItems, profiles } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { AppError } from '../../lib/errors';
import { readWiseTransfer, WISE_WAITING, wiseOutcomeOf } from './providers/wise';
import { providerConfig } from './settings';
import { settlePaid, settleReturned } from './settle';

export type WiseTransferEvent = { eventId: string; transferId: string; state: string; at?: Date };

/** Applies one transfer state in one transaction; `applied` is false for a repeat or a transfer not ours. */
export async function applyWiseTransferState(
  db: Db,
  event: WiseTransferEvent,
): Promise<{ applied: boolean; state: string | null }> {
  return db.transaction(async (tx) => {
    const [item] = await tx
      .select()
      .from(payoutItems)
      .where(and(eq(payoutItems.provider, 'wise'), eq(payoutItems.providerReference, event.transferId)));
    if (!item) return { applied: false, state: null };
    const inserted = await tx
      .insert(payoutEvents)
      .values({ provider: 'wise', eventId: event.eventId, itemId: item.id, status: event.state })
      .onConflictDoNothing()
      .returning({ id: payoutEvents.id });
    if (inserted.length === 0) return { applied: false, state: item.state };
    const at = event.at ?? new Date();
    const outcome = wiseOutcomeOf(event.state);
    if (outcome === 'paid') {
      await settlePaid(tx, item.id, { providerStatus: event.state, at });
    } else if (outcome === 'returned') {
      await settleReturned(tx, item.id, {
        providerStatus: event.state,
        reason: `Wise: ${event.state.replaceAll('_', ' ')}`,
        at,
      });
    } else if (item.state === 'sent' && event.state !== WISE_WAITING) {
      // A late `incoming_payment_waiting` (events come out of order) never hides a later state.
      await tx.update(payoutItems).set({ providerStatus: event.state }).where(eq(payoutItems.id, item.id));
      if (item.providerStatus === WISE_WAITING) {
        // The operator funded it in Wise: now it is on its way.
        const [owner] = await tx
          .select({ email: profiles.email })
          .from(profiles)
          .where(eq(profiles.id, item.userId));
        if (owner) {
          await enqueueMail(tx, {
            to: owner.email,
            subject: `Your payout of ${formatCents(item.netCents)} has been sent`,
            text: `Hello,\n\nA payout of ${formatCents(item.netCents)} is on its way to you through Wise.\n\nYou can follow it on the Payouts page.\n\nTunedrop`,
          });
        }
      }
    }
    const [after] = await tx
      .select({ state: payoutItems.state })
      .from(payoutItems)
      .where(eq(payoutItems.id, item.id));
    return { applied: true, state: after?.state ?? null };
  });
}

type WiseWebhook = {
  event_type?: string;
  data?: {
    resource?: { type?: string; id?: number | string };
    current_state?: string;
    occurred_at?: string;
  };
};

/** Verifies Wise's signature of the exact body with the saved public key; false on any doubt. */
export function isWiseSignatureValid(publicKeyPem: string, rawBody: string, signature: string): boolean {
  try {
    return verify('RSA-SHA256', Buffer.from(rawBody, 'utf8'), publicKeyPem, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** A Wise webhook: nothing is read from the body before its signature verifies. */
export async function receiveWiseWebhook(
  db: Db,
  appSecret: string,
  headers: (name: string) => string | undefined,
  rawBody: string,
): Promise<{ applied: boolean }> {
  const config = await providerConfig(db, appSecret, 'wise');
  const publicKey = config.credentials?.webhookPublicKey;
  if (!publicKey) throw new AppError('webhook_not_configured', 'Wise webhooks are not set up.', 400);
  const signature = headers('x-signature-sha256') ?? '';
  if (!signature || !isWiseSignatureValid(publicKey, rawBody, signature))
    throw new AppError('webhook_signature', 'The webhook signature did not verify.', 400);
  let event: WiseWebhook;
  try {
    event = JSON.parse(rawBody) as WiseWebhook;
  } catch {
    throw new AppError('webhook_unreadable', 'The webhook body is not JSON.', 400);
  }
  if (headers('x-test-notification') === 'true') return { applied: false };
  const transferId = event.data?.resource?.id;
  const state = event.data?.current_state;
  if (event.event_type !== 'transfers#state-change' || transferId === undefined || !state)
    return { applied: false };
  const occurred = event.data?.occurred_at ? new Date(event.data.occurred_at) : null;
  const result = await applyWiseTransferState(db, {
    // One event per (transfer, state): a redelivery, whatever its delivery id, is the same event.
    eventId: `state:${transferId}:${state}`,
    transferId: String(transferId),
    state,
    at: occurred && !Number.isNaN(occurred.getTime()) ? occurred : new Date(),
  });
  return { applied: result.applied };
}

/** Reads every Wise transfer of a run still on its way and applies its status (a lost webhook). */
export async function pollWiseRun(db: Db, appSecret: string, runId: string): Promise<number> {
  const items = await db
    .select({ reference: payoutItems.providerReference })
    .from(payoutItems)
    .where(
      and(
        eq(payoutItems.runId, runId),
        eq(payoutItems.provider, 'wise'),
        eq(payoutItems.state, 'sent'),
        isNotNull(payoutItems.providerReference),
      ),
    );
  if (items.length === 0) return 0;
  const config = await providerConfig(db, appSecret, 'wise');
  let applied = 0;
  for (const { reference } of items) {
    if (!reference) continue;
    const state = await readWiseTransfer(config, reference);
    const result = await applyWiseTransferState(db, {
      eventId: `state:${reference}:${state}`,
      transferId: reference,
      state,
    });
    if (result.applied) applied += 1;
  }
  return applied;
}

/** The `payouts.poll` job's Wise half: every run with a Wise transfer still on its way, one failing apart. */
export async function pollSentWisePayouts(
  db: Db,
  appSecret: string,
): Promise<{ runs: number; applied: number; failed: { runId: string; error: string }[] }> {
  const runs = await db
    .selectDistinct({ runId: payoutItems.runId })
    .from(payoutItems)
    .where(and(eq(payoutItems.provider, 'wise'), eq(payoutItems.state, 'sent')));
  let applied = 0;
  const failed: { runId: string; error: string }[] = [];
  for (const { runId } of runs) {
    try {
      applied += await pollWiseRun(db, appSecret, runId);
    } catch (error) {
      failed.push({ runId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { runs: runs.length, applied, failed };
}
