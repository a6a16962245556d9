/**
 * An item's end (issue 38): paid, or returned (returned, failed, unclaimed, refunded). Each is one database
 * transaction with its journal transaction, under the item's row lock, and moves the money once whatever
 * the order or number of the events that ask for it: paid only from sent; returned from sent (nothing was
 * paid, nothing withheld) or from paid (a refund: the net and the withholding come back); a returned item
 * stays returned.
 */
import { formatCents } from '@tunedrop/shared';
import { centsToDecimal } from '@tunedrop/shared/money';
import type { PayoutItemState } from '@tunedrop/shared/schemas/payouts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import {
  journalTransactions,
  payoutItemRequests,
  payoutItems,
  profiles,
  withdrawalRequests,
} from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { type JournalEntryInput, recordTransaction } from '../ledger';
import { issueSelfBillingInvoice, readTaxSettings } from '../tax';
import { applyBalanceChange, leavePendingBalance } from '../wallet';
import { emitWebhookEvent } from '../webhook-outbox';
import { recordPaidWithholding, reversePaidWithholding } from './withholding';

type ItemRow = typeof payoutItems.$inferSelect;
export type SettleOutcome = { changed: boolean; state: PayoutItemState };

async function lockItem(tx: Tx, itemId: string): Promise<ItemRow | null> {
  const [row] = await tx.select().from(payoutItems).where(eq(payoutItems.id, itemId)).for('update');
  return row ?? null;
}

async function heldRequests(tx: Tx, itemId: string): Promise<string[]> {
  const linked = await tx
    .select({ id: payoutItemRequests.withdrawalRequestId })
    .from(payoutItemRequests)
    .where(eq(payoutItemRequests.itemId, itemId));
  return linked.map((row) => row.id);
}

async function emailOf(tx: Tx, userId: string): Promise<string | null> {
  const [row] = await tx.select({ email: profiles.email }).from(profiles).where(eq(profiles.id, userId));
  return row?.email ?? null;
}

const reference = (item: ItemRow) => ({ type: 'payout_item', id: item.id });

/** Sent → paid: the gross leaves withdrawals payable, the net is paid, the withholding is owed. */
export async function settlePaid(
  tx: Tx,
  itemId: string,
  input: { providerStatus: string; providerReference?: string | null; actorId?: string | null; at?: Date },
): Promise<SettleOutcome> {
  const item = await lockItem(tx, itemId);
  if (!item) throw new Error(`payout item ${itemId} not found`);
  if (item.state !== 'sent') return { changed: false, state: item.state };
  const at = input.at ?? new Date();
  const requests = await heldRequests(tx, item.id);
  if (requests.length > 0) {
    await tx
      .update(withdrawalRequests)
      .set({ status: 'completed', processedAt: at, processedBy: input.actorId ?? null })
      .where(inArray(withdrawalRequests.id, requests));
  }
  const entries: JournalEntryInput[] = [
    { account: 'withdrawals_payable', subject: item.userId, amount: centsToDecimal(item.grossCents) },
    { account: 'withdrawals_paid', amount: centsToDecimal(-item.netCents) },
    { account: 'tax_withheld_payable', subject: item.userId, amount: centsToDecimal(-item.withheldCents) },
  ];
  const journalTransactionId = await leavePendingBalance(tx, item.userId, item.grossCents, {
    kind: 'payout_paid',
    reference: reference(item),
    actorId: input.actorId ?? null,
    memo: `Payout paid (${formatCents(item.netCents)} net, ${formatCents(item.withheldCents)} withheld)`,
    entries,
  });
  if (!journalTransactionId) throw new Error(`payout item ${item.id}: nothing was journaled`);
  // The tax module keeps the lines it decided on, with the transaction that credits the withholding.
  await recordPaidWithholding(tx, {
    decision: item.withholdingDecision,
    accountId: item.userId,
    journalTransactionId,
    itemId: item.id,
    paidAt: at,
  });
  await tx
    .update(payoutItems)
    .set({
      state: 'paid',
      paidAt: at,
      providerStatus: input.providerStatus,
      ...(input.providerReference ? { providerReference: input.providerReference } : {}),
    })
    .where(eq(payoutItems.id, item.id));
  // The non-US regime: the payee's self-billing invoice for what this payout paid, numbered in this
  // transaction, so a paid payout always has its invoice and a rolled-back one gives its number back.
  if ((await readTaxSettings(tx)).regime === 'non_us') {
    await issueSelfBillingInvoice(tx, {
      userId: item.userId,
      reference: {
        type: 'payout',
        id: item.id,
        description: `Payout ${item.idempotencyKey} of ${at.toISOString().slice(0, 10)}`,
      },
      netCents: item.grossCents,
      issuedAt: at,
    });
  }
  await emitWebhookEvent(tx, item.userId, 'payout.paid', {
    payoutItemId: item.id,
    runId: item.runId,
    providerReference: input.providerReference ?? item.providerReference,
  });
  return { changed: true, state: 'paid' };
}

/**
 * Sent or paid → returned: the money back in the payee's available balance, once. From sent the requests
 * end rejected with the reason; from paid (refunded) the net leaves withdrawals paid and the withholding is
 * no longer owed.
 */
export async function settleReturned(
  tx: Tx,
  itemId: string,
  input: { providerStatus: string; reason: string; actorId?: string | null; at?: Date },
): Promise<SettleOutcome> {
  const item = await lockItem(tx, itemId);
  if (!item) throw new Error(`payout item ${itemId} not found`);
  if (item.state !== 'sent' && item.state !== 'paid') return { changed: false, state: item.state };
  const at = input.at ?? new Date();
  const wasPaid = item.state === 'paid';
  const legs: JournalEntryInput[] = [];
  if (!wasPaid) {
    const requests = await heldRequests(tx, item.id);
    if (requests.length > 0) {
      await tx
        .update(withdrawalRequests)
        .set({ status: 'rejected', processedAt: at, rejectionReason: `Payout returned: ${input.reason}` })
        .where(inArray(withdrawalRequests.id, requests));
    }
  }
  await applyBalanceChange(
    tx,
    {
      userId: item.userId,
      balanceDeltaCents: item.grossCents,
      pendingDeltaCents: wasPaid ? 0 : -item.grossCents,
      updateType: 'withdrawal_refund',
      notes: `Payout returned (${formatCents(item.grossCents)} back): ${input.reason}`,
    },
    { collect: legs },
  );
  if (wasPaid) {
    legs.push(
      { account: 'withdrawals_paid', amount: centsToDecimal(item.netCents) },
      { account: 'tax_withheld_payable', subject: item.userId, amount: centsToDecimal(item.withheldCents) },
    );
  }
  const returnedId = await recordTransaction(tx, {
    kind: 'payout_returned',
    reference: reference(item),
    actorId: input.actorId ?? null,
    memo: `Payout returned: ${input.reason}`,
    entries: legs,
  });
  if (wasPaid && returnedId) {
    const [paid] = await tx
      .select({ id: journalTransactions.id })
      .from(journalTransactions)
      .where(
        and(
          eq(journalTransactions.kind, 'payout_paid'),
          eq(journalTransactions.referenceType, 'payout_item'),
          eq(journalTransactions.referenceId, item.id),
        ),
      );
    if (paid)
      await reversePaidWithholding(tx, {
        journalTransactionId: returnedId,
        paidJournalTransactionId: paid.id,
        at,
      });
  }
  await tx
    .update(payoutItems)
    .set({
      state: 'returned',
      returnedAt: at,
      returnReason: input.reason,
      providerStatus: input.providerStatus,
    })
    .where(eq(payoutItems.id, item.id));
  const email = await emailOf(tx, item.userId);
  if (email) {
    await enqueueMail(tx, {
      to: email,
      subject: `Your payout of ${formatCents(item.netCents)} was returned`,
      text: `Hello,\n\nYour payout of ${formatCents(item.netCents)} could not be completed (${input.reason}).\n\n${formatCents(item.grossCents)} is back in your available balance. Check your payout details on the Payouts page; the next payout run will try again.\n\nTunedrop`,
    });
  }
  // Never paid: the payout failed; paid and then refunded: it was returned. Both give the money back.
  await emitWebhookEvent(tx, item.userId, wasPaid ? 'payout.returned' : 'payout.failed', {
    payoutItemId: item.id,
    runId: item.runId,
    reason: input.reason,
    providerStatus: input.providerStatus,
  });
  return { changed: true, state: 'returned' };
}
