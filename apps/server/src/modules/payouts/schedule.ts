/**
 * The monthly run (issue 38): on the operator's day of the month, once per month (the run's `period` is
 * unique), by the `payouts.schedule` job every five minutes. A month where nobody is due records no run.
 * With the withdrawal mode `immediate`, the same job runs the accounts whose withdrawal requests no run
 * holds yet (a `withdrawal` run of those accounts only); with `next_run` they wait for the monthly run.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payoutRuns } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { rows } from '../../lib/sql';
import type { AuditActor } from '../audit';
import { startPayoutRun } from './run-plan';
import { readPayoutSettings } from './settings';
import { type WithholdingFor, withholdingFor } from './withholding';

export async function runScheduledPayouts(
  db: Db,
  options: { actor: AuditActor; now?: Date; withholding?: WithholdingFor },
): Promise<string | null> {
  const now = options.now ?? new Date();
  const settings = await readPayoutSettings(db);
  if (settings.withdrawalMode === 'immediate') await runRequestedPayouts(db, { ...options, now });
  if (settings.scheduleDay === null || now.getUTCDate() < settings.scheduleDay) return null;
  const period = now.toISOString().slice(0, 7);
  const [done] = await db.select({ id: payoutRuns.id }).from(payoutRuns).where(eq(payoutRuns.period, period));
  if (done) return null;
  try {
    const started = await startPayoutRun(db, {
      trigger: 'schedule',
      actor: options.actor,
      withholding: options.withholding ?? withholdingFor,
      now,
      period,
    });
    return started.runId;
  } catch (error) {
    if (error instanceof AppError && error.code === 'nothing_to_pay') return null;
    // This month's run exists already (the period is unique): nothing to do.
    if (
      error instanceof Error &&
      /payout_runs_period_unique/.test(
        `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`,
      )
    )
      return null;
    throw error;
  }
}

/** Accounts with a pending withdrawal request no run holds: a run of their own (immediate mode). */
async function runRequestedPayouts(
  db: Db,
  options: { actor: AuditActor; now: Date; withholding?: WithholdingFor },
): Promise<string | null> {
  const waiting = await rows<{ userId: string }>(
    db,
    sql`select distinct w.user_id from withdrawal_requests w
         where w.status = 'pending'
           and not exists (select 1 from payout_item_requests r where r.withdrawal_request_id = w.id)
           and not exists (select 1 from payout_items i join payout_runs pr on pr.id = i.run_id
                            where i.user_id = w.user_id and i.state = 'blocked' and pr.trigger = 'withdrawal'
                              and i.created_at > w.requested_at)
         order by w.user_id`,
  );
  if (waiting.length === 0) return null;
  try {
    const started = await startPayoutRun(db, {
      trigger: 'withdrawal',
      actor: options.actor,
      withholding: options.withholding ?? withholdingFor,
      now: options.now,
      accountIds: waiting.map((row) => row.userId),
    });
    return started.runId;
  } catch (error) {
    if (error instanceof AppError && error.code === 'nothing_to_pay') return null;
    throw error;
  }
}
