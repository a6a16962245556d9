/**
 * The admin's second tries (issue 38): a payout that came back (returned, failed, unclaimed) or was blocked
 * is paid again by a run of that payee alone, planned like any run (minimum, hold, tax); a run whose
 * sending failed is sent again by a new `payouts.send` job, which resumes from the run's rows, so nobody
 * is paid twice.
 */
import { PAYOUT_TEXTS } from '@tunedrop/shared/schemas/payouts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payoutItems, payoutRuns } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { enqueue } from '../../lib/jobs';
import type { AuditActor } from '../audit';
import { sendPayoutRunJob } from './jobs';
import { startPayoutRun } from './run-plan';
import type { WithholdingFor } from './withholding';

/** Plans a run of the item's payee alone; refused unless the item was returned or blocked. */
export async function retryPayoutItem(
  db: Db,
  actor: AuditActor,
  itemId: string,
  withholding: WithholdingFor,
): Promise<{ runId: string }> {
  const [item] = await db.select().from(payoutItems).where(eq(payoutItems.id, itemId));
  if (!item) throw notFound(PAYOUT_TEXTS.itemNotFound);
  if (item.state !== 'returned' && item.state !== 'blocked') {
    throw new AppError('payout_not_retryable', PAYOUT_TEXTS.notRetryable, 409);
  }
  const started = await startPayoutRun(db, {
    trigger: 'manual',
    actor,
    withholding,
    accountIds: [item.userId],
  });
  return { runId: started.runId };
}

/** Queues the run's sending again; `queued` is false when a retry of the job already waits. */
export async function resumePayoutRun(db: Db, runId: string): Promise<{ queued: boolean }> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select().from(payoutRuns).where(eq(payoutRuns.id, runId)).for('update');
    if (!run) throw notFound(PAYOUT_TEXTS.runNotFound);
    if (run.state !== 'planned' && run.state !== 'sending') {
      throw new AppError('payout_run_sent', PAYOUT_TEXTS.runAlreadySent, 409);
    }
    const id = await enqueue(tx, sendPayoutRunJob, { runId }, { singletonKey: runId });
    return { queued: id !== null };
  });
}
