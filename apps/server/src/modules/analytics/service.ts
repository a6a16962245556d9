/**
 * Pro analytics: earnings over time and the balance after each period, summed over the journal (issue 36,
 * record 259), releases by status and platform, and the withdrawal history (also as CSV).
 */
import { toCsv } from '@tunedrop/shared/csv';
import { centsToDecimal } from '@tunedrop/shared/money';
import { ANALYTICS_RANGES, type AnalyticsRange, type AnalyticsReport } from '@tunedrop/shared/schemas/wallet';
import { and, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, releases, tracks } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { payableMoves, userBalanceCents, withdrawnCents } from '../ledger';
import { listWithdrawals } from '../wallet';

/**
 * The artist's balance moves with what each counts as earned (ledger/payable.ts), and the admin's hand
 * edits of total earnings: the single edit sets the figure (spec 5, "Manual balance edit"), which moves
 * no money, so the journal does not hold it. What the edit set beyond the rise of the balance (the rise
 * itself is the journal's `manual_adjustment`) is read from its balance log row, so the earnings series
 * and its cumulative line follow total earnings as they did before the journal (record 072).
 */
function earnedMoves(userId: string): SQL {
  return sql`
    select at, cents, earned from (${payableMoves(userId)}) moves
    union all
    select l.created_at, 0::bigint,
           (l.earnings_delta_cents - greatest(l.new_balance_cents - l.old_balance_cents, 0))::bigint
      from balance_updates_log l
     where l.user_id = ${userId} and l.update_type = 'manual'
       and l.earnings_delta_cents <> greatest(l.new_balance_cents - l.old_balance_cents, 0)`;
}

const RANGE_INTERVALS: Record<AnalyticsRange, string | null> = {
  '30d': '30 days',
  '90d': '90 days',
  '12m': '12 months',
  all: null,
};

export async function getAnalytics(db: Db, userId: string, range: AnalyticsRange): Promise<AnalyticsReport> {
  const bucket = ANALYTICS_RANGES.find((item) => item.id === range)?.bucket ?? 'month';
  const interval = RANGE_INTERVALS[range];
  // Both values come from the fixed tables above, never from the request.
  const bucketSql = sql.raw(`'${bucket}'`);
  const stepSql = sql.raw(`'1 ${bucket}'::interval`);
  const rangeStart = interval
    ? sql`date_trunc(${bucketSql}, (now() - ${sql.raw(`'${interval}'::interval`)}) at time zone 'UTC')`
    : sql`date_trunc(${bucketSql}, coalesce(
        (select min(at) from (${earnedMoves(userId)}) moves), now()) at time zone 'UTC')`;

  // Total earnings is the profile's figure (the admin may set it, spec 5); the money is the journal's, the
  // earnings series the journal's plus the admin's hand edits of that figure (earnedMoves).
  const [profile] = await db
    .select({ totalEarningsCents: profiles.totalEarningsCents })
    .from(profiles)
    .where(eq(profiles.id, userId));
  if (!profile) throw notFound('User not found');
  const { balanceCents, pendingBalanceCents } = await userBalanceCents(db, userId);

  // Raw SQL earns its place here: generate_series buckets and the balance at each bucket's end.
  const series = await rows<{ start: string; earned: string | number; balance: string | number }>(
    db,
    sql`
      with moves as materialized (${earnedMoves(userId)}),
      bounds as (
        select ${rangeStart} as first, date_trunc(${bucketSql}, now() at time zone 'UTC') as last
      ),
      buckets as (
        select generate_series(first, last, ${stepSql}) as start from bounds
      ),
      earned as (
        select date_trunc(${bucketSql}, at at time zone 'UTC') as start, sum(earned) as earned
          from moves
         where at at time zone 'UTC' >= (select first from bounds)
         group by 1
      )
      select to_char(b.start, 'YYYY-MM-DD') as start,
             coalesce(e.earned, 0) as earned,
             (select coalesce(sum(m.cents), 0) from moves m
               where m.at at time zone 'UTC' < b.start + ${stepSql}) as balance
        from buckets b left join earned e on e.start = b.start
       order by b.start`,
  );

  const [sums] = await rows<{ before: string | number; previous: string | number | null }>(
    db,
    sql`
      with bounds as (select ${rangeStart} as first)
      select coalesce(sum(earned) filter (where at at time zone 'UTC' < (select first from bounds)), 0) as before,
             ${
               interval
                 ? sql`coalesce(sum(earned) filter (
                     where at at time zone 'UTC' < (select first from bounds)
                       and at at time zone 'UTC' >= (select first from bounds) - ${sql.raw(`'${interval}'::interval`)}), 0)`
                 : sql`null`
             } as previous
        from (${earnedMoves(userId)}) moves`,
  );

  let cumulative = Number(sums?.before ?? 0);
  const earnings = series.map((row) => {
    const earningsCents = Number(row.earned);
    cumulative += earningsCents;
    return {
      start: row.start,
      earningsCents,
      cumulativeCents: cumulative,
      balanceCents: Number(row.balance),
    };
  });
  const best = earnings.reduce<(typeof earnings)[number] | null>(
    (top, point) =>
      point.earningsCents > 0 && (!top || point.earningsCents > top.earningsCents) ? point : top,
    null,
  );

  const byStatus = await db
    .select({ status: releases.status, count: count() })
    .from(releases)
    .where(eq(releases.userId, userId))
    .groupBy(releases.status)
    .orderBy(desc(count()));
  const [trackCount] = await db
    .select({ count: count() })
    .from(tracks)
    .innerJoin(releases, eq(releases.id, tracks.releaseId))
    .where(and(eq(releases.userId, userId), ne(releases.status, 'deleted')));
  // unnest() of the store array has no query-builder form.
  const topPlatforms = (
    await rows<{ id: string; count: string | number }>(
      db,
      sql`
      select store as id, count(*) as count
        from releases, unnest(distribution_stores) as store
       where user_id = ${userId} and status not in ('deleted', 'taken_down', 'rejected')
       group by store order by count(*) desc, store limit 10`,
    )
  ).map((row) => ({ id: row.id, count: Number(row.count) }));

  const withdrawals = (await listWithdrawals(db, userId)).map((row) => ({
    id: row.id,
    amountCents: row.amountCents,
    status: row.status,
    paymentMethod: row.paymentMethod,
    requestedAt: row.requestedAt.toISOString(),
    processedAt: row.processedAt?.toISOString() ?? null,
    rejectionReason: row.rejectionReason,
  }));

  return {
    range,
    bucket,
    totals: {
      balanceCents,
      totalEarningsCents: profile.totalEarningsCents,
      pendingBalanceCents,
      withdrawnCents: await withdrawnCents(db, userId),
      earningsInRangeCents: earnings.reduce((sum, point) => sum + point.earningsCents, 0),
      earningsPreviousRangeCents:
        sums?.previous === null || sums?.previous === undefined ? null : Number(sums.previous),
      bestPeriod: best ? { start: best.start, earningsCents: best.earningsCents } : null,
    },
    earnings,
    releases: {
      total: byStatus.reduce((sum, row) => sum + row.count, 0),
      tracks: Number(trackCount?.count ?? 0),
      byStatus,
      topPlatforms,
    },
    withdrawals,
  };
}

export async function withdrawalsCsv(db: Db, userId: string): Promise<string> {
  const rows = await listWithdrawals(db, userId);
  return toCsv(
    ['requested_at', 'amount', 'status', 'payment_method', 'processed_at', 'rejection_reason'],
    rows.map((row) => [
      row.requestedAt.toISOString(),
      centsToDecimal(row.amountCents),
      row.status,
      row.paymentMethod,
      row.processedAt?.toISOString() ?? '',
      row.rejectionReason ?? '',
    ]),
  );
}
