/**
 * Sending a planned run (issue 38, record 267), the `payouts.send` job: one batch row per provider with
 * its fixed sender_batch_id, committed before the provider is called; the provider's answer recorded
 * after. A run killed anywhere resumes from its rows: a batch already answered is not sent again, one
 * sent but not answered is sent again under the same key, which the provider answers with the same
 * batch (bank-csv makes the same file), so nobody is paid twice.
 */
import { formatCents } from '@tunedrop/shared';
import type { PayoutProviderId } from '@tunedrop/shared/schemas/payouts';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payoutBatches, payoutItems, payoutRuns, profiles } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { decryptPaymentDetails } from '../wallet';
import { providerFor } from './providers';
import type { BatchItemInput } from './providers/types';
import { providerConfig } from './settings';
import { settlePaid, settleReturned } from './settle';

export const senderBatchId = (runId: string, provider: PayoutProviderId) => `tunedrop-${runId}-${provider}`;

/** Test hook: called after the provider answered and before the answer is recorded (a crash there). */
export type SendHooks = { afterProviderCall?: (provider: PayoutProviderId) => void | Promise<void> };

export async function sendPayoutRun(
  db: Db,
  appSecret: string,
  runId: string,
  hooks: SendHooks = {},
): Promise<{ state: string; batches: number }> {
  // 1. The batches, one per provider of the planned items, before any provider is called.
  const run = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(payoutRuns).where(eq(payoutRuns.id, runId)).for('update');
    if (!row) throw new Error(`payout run ${runId} not found`);
    if (row.state === 'sent' || row.state === 'done') return row;
    const planned = await tx
      .select({ id: payoutItems.id, provider: payoutItems.provider, netCents: payoutItems.netCents })
      .from(payoutItems)
      .where(
        and(eq(payoutItems.runId, runId), eq(payoutItems.state, 'planned'), isNull(payoutItems.batchId)),
      );
    // Withheld in full: nothing to send, paid at once.
    for (const item of planned.filter((p) => p.netCents === 0)) {
      await tx
        .update(payoutItems)
        .set({ state: 'sent', sentAt: new Date() })
        .where(eq(payoutItems.id, item.id));
      await settlePaid(tx, item.id, { providerStatus: 'nothing to send: withheld in full' });
    }
    const providers = [...new Set(planned.filter((p) => p.netCents > 0).map((p) => p.provider))];
    for (const provider of providers) {
      if (!provider) continue;
      await tx
        .insert(payoutBatches)
        .values({ runId, provider, senderBatchId: senderBatchId(runId, provider) })
        .onConflictDoNothing();
      const [batch] = await tx
        .select({ id: payoutBatches.id })
        .from(payoutBatches)
        .where(and(eq(payoutBatches.runId, runId), eq(payoutBatches.provider, provider)));
      if (!batch) throw new Error('batch row vanished');
      await tx
        .update(payoutItems)
        .set({ batchId: batch.id })
        .where(
          and(
            eq(payoutItems.runId, runId),
            eq(payoutItems.provider, provider),
            eq(payoutItems.state, 'planned'),
            isNull(payoutItems.batchId),
          ),
        );
    }
    await tx.update(payoutRuns).set({ state: 'sending' }).where(eq(payoutRuns.id, runId));
    return { ...row, state: 'sending' as const };
  });
  if (run.state === 'sent' || run.state === 'done') return { state: run.state, batches: 0 };

  // 2. Each batch whose items still wait: to the provider, then its answer recorded.
  const batches = await db.select().from(payoutBatches).where(eq(payoutBatches.runId, runId));
  let sent = 0;
  for (const batch of batches) {
    const waiting = await db
      .select({ item: payoutItems, name: profiles.artistName, fullName: profiles.fullName })
      .from(payoutItems)
      .innerJoin(profiles, eq(profiles.id, payoutItems.userId))
      .where(and(eq(payoutItems.batchId, batch.id), eq(payoutItems.state, 'planned')));
    if (waiting.length === 0) continue;
    const items: BatchItemInput[] = waiting.map(({ item, name, fullName }) => {
      if (!item.paymentMethod || !item.paymentDetailsEncrypted)
        throw new Error(`item ${item.id} has no details`);
      const stored = decryptPaymentDetails(appSecret, item.userId, item.paymentDetailsEncrypted);
      return {
        key: item.idempotencyKey,
        netCents: item.netCents,
        method: item.paymentMethod,
        details: stored.details,
        payeeName: name || fullName,
        note: `Tunedrop payout ${run.createdAt.toISOString().slice(0, 10)}`,
      };
    });
    const provider = providerFor(batch.provider);
    const config = await providerConfig(db, appSecret, batch.provider);
    const result = await provider.createBatch(config, {
      senderBatchId: batch.senderBatchId,
      runDate: run.createdAt,
      items,
    });
    await hooks.afterProviderCall?.(batch.provider);
    sent += 1;
    await db.transaction(async (tx) => {
      await tx
        .update(payoutBatches)
        .set({
          providerReference: result.providerReference,
          ...(result.file ? { fileCsv: result.file } : {}),
        })
        .where(and(eq(payoutBatches.id, batch.id), isNull(payoutBatches.providerReference)));
      const byKey = new Map(waiting.map(({ item }) => [item.idempotencyKey, item]));
      for (const outcome of result.items) {
        const item = byKey.get(outcome.key);
        if (!item) continue;
        const moved = await tx
          .update(payoutItems)
          .set({
            state: 'sent',
            sentAt: new Date(),
            providerReference: outcome.providerReference,
            providerStatus: outcome.providerStatus,
          })
          .where(and(eq(payoutItems.id, item.id), eq(payoutItems.state, 'planned')))
          .returning({ id: payoutItems.id, userId: payoutItems.userId });
        if (moved.length === 0) continue;
        if (outcome.outcome === 'paid')
          await settlePaid(tx, item.id, { providerStatus: outcome.providerStatus });
        if (outcome.outcome === 'returned') {
          await settleReturned(tx, item.id, {
            providerStatus: outcome.providerStatus,
            reason: outcome.providerStatus,
          });
        }
        const [owner] = await tx
          .select({ email: profiles.email })
          .from(profiles)
          .where(eq(profiles.id, item.userId));
        // A Wise transfer waiting for the operator's money is not on its way yet: mailed when it is (wise-events.ts).
        if (owner && outcome.outcome !== 'returned' && !outcome.isAwaitingFunding) {
          await enqueueMail(tx, {
            to: owner.email,
            subject: `Your payout of ${formatCents(item.netCents)} has been sent`,
            text: `Hello,\n\nA payout of ${formatCents(item.netCents)} is on its way to you${item.withheldCents > 0 ? ` (${formatCents(item.grossCents)} less ${formatCents(item.withheldCents)} tax withheld)` : ''}.\n\nYou can follow it on the Payouts page.\n\nTunedrop`,
          });
        }
      }
    });
  }

  // 3. The run is sent when no item waits for a provider.
  await db.transaction(async (tx) => {
    const left = await tx
      .select({ id: payoutItems.id })
      .from(payoutItems)
      .where(and(eq(payoutItems.runId, runId), inArray(payoutItems.state, ['planned'])));
    if (left.length === 0) {
      await tx
        .update(payoutRuns)
        .set({ state: 'sent', sentAt: new Date(), error: null })
        .where(eq(payoutRuns.id, runId));
    }
  });
  return { state: 'sent', batches: sent };
}

/**
 * Why the last attempt to send a run failed, kept on the run for the admin's run page until a later
 * attempt sends it (the job retries; the admin can resume it).
 */
export async function recordSendError(db: Db, runId: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await db
    .update(payoutRuns)
    .set({ error: message.slice(0, 500) })
    .where(and(eq(payoutRuns.id, runId), inArray(payoutRuns.state, ['planned', 'sending'])));
}
