/** What the admin's run pages and the artist's Payouts page show (issue 38). */
import type { PayoutItemView, PayoutRunView } from '@tunedrop/shared/schemas/payouts';
import { PAYOUT_TEXTS } from '@tunedrop/shared/schemas/payouts';
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { payoutBatches, payoutItems, payoutRuns, profiles } from '../../db/schema';
import { notFound } from '../../lib/errors';

type ItemRow = typeof payoutItems.$inferSelect;

/** A Wise transfer still waiting for the operator's money (Wise's own status for an unfunded transfer). */
export const isAwaitingWiseFunding = (item: ItemRow) =>
  item.provider === 'wise' && item.state === 'sent' && item.providerStatus === 'incoming_payment_waiting';

export function toItemView(item: ItemRow, email: string): PayoutItemView {
  return {
    id: item.id,
    runId: item.runId,
    accountId: item.userId,
    email,
    provider: item.provider,
    state: item.state,
    grossCents: item.grossCents,
    withheldCents: item.withheldCents,
    netCents: item.netCents,
    withholding: item.withholdingSummary,
    blockedReason: item.blockedReason,
    providerReference: item.providerReference,
    providerStatus: item.providerStatus,
    awaitingFunding: isAwaitingWiseFunding(item),
    createdAt: item.createdAt.toISOString(),
    sentAt: item.sentAt?.toISOString() ?? null,
    paidAt: item.paidAt?.toISOString() ?? null,
    returnedAt: item.returnedAt?.toISOString() ?? null,
    returnReason: item.returnReason,
  };
}

function totalsOf(items: ItemRow[]): PayoutRunView['totals'] {
  const payable = items.filter((item) => item.state !== 'blocked');
  return {
    payees: payable.length,
    blocked: items.length - payable.length,
    grossCents: payable.reduce((sum, item) => sum + item.grossCents, 0),
    withheldCents: payable.reduce((sum, item) => sum + item.withheldCents, 0),
    netCents: payable.reduce((sum, item) => sum + item.netCents, 0),
  };
}

export async function getPayoutRun(db: DbOrTx, runId: string): Promise<PayoutRunView> {
  const [run] = await db.select().from(payoutRuns).where(eq(payoutRuns.id, runId));
  if (!run) throw notFound(PAYOUT_TEXTS.runNotFound);
  const items = await db
    .select({ item: payoutItems, email: profiles.email })
    .from(payoutItems)
    .innerJoin(profiles, eq(profiles.id, payoutItems.userId))
    .where(eq(payoutItems.runId, runId))
    .orderBy(profiles.email);
  const batches = await db.select().from(payoutBatches).where(eq(payoutBatches.runId, runId));
  return {
    id: run.id,
    trigger: run.trigger,
    state: run.state,
    createdAt: run.createdAt.toISOString(),
    sentAt: run.sentAt?.toISOString() ?? null,
    error: run.error,
    totals: totalsOf(items.map((row) => row.item)),
    items: items.map((row) => toItemView(row.item, row.email)),
    batches: batches.map((batch) => ({
      id: batch.id,
      provider: batch.provider,
      senderBatchId: batch.senderBatchId,
      providerReference: batch.providerReference,
    })),
  };
}

export async function listPayoutRuns(db: DbOrTx) {
  const runs = await db.select().from(payoutRuns).orderBy(desc(payoutRuns.createdAt)).limit(100);
  const out = [];
  for (const run of runs) {
    const items = await db.select().from(payoutItems).where(eq(payoutItems.runId, run.id));
    out.push({
      id: run.id,
      trigger: run.trigger,
      state: run.state,
      createdAt: run.createdAt.toISOString(),
      sentAt: run.sentAt?.toISOString() ?? null,
      totals: totalsOf(items),
    });
  }
  return out;
}

/** The bank-csv payout file of a run, as made when it was sent. */
export async function payoutFile(db: DbOrTx, runId: string): Promise<string> {
  const [batch] = await db.select().from(payoutBatches).where(eq(payoutBatches.runId, runId));
  const file = batch?.provider === 'bank-csv' ? batch.fileCsv : null;
  if (!file) throw notFound('This run has no payout file (yet).');
  return file;
}

/** An account's payouts, newest first (the artist's Payouts page). */
export async function listAccountPayouts(db: DbOrTx, userId: string): Promise<PayoutItemView[]> {
  const items = await db
    .select({ item: payoutItems, email: profiles.email })
    .from(payoutItems)
    .innerJoin(profiles, eq(profiles.id, payoutItems.userId))
    .where(eq(payoutItems.userId, userId))
    .orderBy(desc(payoutItems.createdAt))
    .limit(200);
  return items.map((row) => toItemView(row.item, row.email));
}
