/**
 * The account's Payouts page (issue 38): its method, the next run's date, each payout's state with the
 * provider's reference, and what would block a payout now in plain words: the run's own planning for this
 * account alone, rolled back, so the page and the run cannot disagree.
 */
import { formatCents } from '@tunedrop/shared';
import { PAYOUT_TEXTS, type PayoutItemView, type PayoutSettings } from '@tunedrop/shared/schemas/payouts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { minimumPayoutCents } from '../wallet';
import { previewPayoutRun } from './run-plan';
import { nextRunDate, readPayoutSettings } from './settings';
import { listAccountPayouts } from './views';
import { withholdingFor } from './withholding';

export type PayoutsPage = {
  method: string | null;
  schedule: PayoutSettings;
  nextRunDate: string | null;
  balanceCents: number;
  minimumCents: number;
  /** What stops a payout now; empty when the next run would pay. */
  blockers: string[];
  /** The next run's figures for this account when it would pay. */
  next: { grossCents: number; withheldCents: number; netCents: number; withholding: string | null } | null;
  payouts: PayoutItemView[];
};

export async function payoutsPage(db: Db, accountId: string): Promise<PayoutsPage> {
  const [profile] = await db.select().from(profiles).where(eq(profiles.id, accountId));
  if (!profile) throw notFound('User not found');
  const schedule = await readPayoutSettings(db);
  const minimumCents = await minimumPayoutCents(db, accountId, profile.plan);
  const blockers: string[] = [];
  let next: PayoutsPage['next'] = null;
  try {
    const preview = await previewPayoutRun(db, {
      trigger: 'manual',
      actor: { id: null, email: 'preview' },
      withholding: withholdingFor,
      accountIds: [accountId],
    });
    const mine = preview.items[0];
    if (mine?.blocked) blockers.push(mine.blocked.reason);
    else if (mine) {
      next = {
        grossCents: mine.grossCents,
        withheldCents: mine.withheldCents,
        netCents: mine.netCents,
        withholding: mine.withholding,
      };
    }
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'nothing_to_pay')) throw error;
    blockers.push(PAYOUT_TEXTS.belowMinimum(formatCents(minimumCents)));
  }
  return {
    method: profile.paymentMethod,
    schedule,
    nextRunDate: nextRunDate(schedule)?.toISOString().slice(0, 10) ?? null,
    balanceCents: profile.balanceCents,
    minimumCents,
    blockers,
    next,
    payouts: await listAccountPayouts(db, accountId),
  };
}
