/**
 * The totals of a staged import (by store, country, period, usage type, matched and refunds), summed
 * set-based in one scan and kept on the import row.
 */
import type { TotalsRow } from '@tunedrop/shared/schemas/royalties';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { allowLongStatements } from '../../db/long-statements';
import { royaltyImports } from '../../db/schema';
import { rows, run } from '../../lib/sql';
import { lineAmountsSql, needsAllocation } from './amounts';

export type TotalsJson = {
  byStore: TotalsRow[];
  byCountry: TotalsRow[];
  byPeriod: TotalsRow[];
  byUsageType: TotalsRow[];
  matched: { lines: number; amount: string };
  unmatched: { lines: number; amount: string };
  refunds: { lines: number; amount: string };
  total: string;
};

/** Sums the import's lines by store, country, period, usage type, matched and refunds in one scan. */
export async function refreshTotals(db: DbOrTx, importId: string): Promise<void> {
  await db.transaction(async (tx) => {
    // One scan of every line of the report (record 223).
    await allowLongStatements(tx);
    // The sorts and hashes of a million lines fit in memory instead of spilling to disk.
    await run(tx, sql`set local work_mem = '256MB'`);
    await sumTotals(tx, importId);
  });
}

async function sumTotals(db: DbOrTx, importId: string): Promise<void> {
  const found = await rows<{
    dim: string;
    key: string | null;
    lines: number | string;
    units: string | null;
    amount: string | null;
  }>(
    db,
    sql`
      with x as (
        select store, country, period, usage_type, units, line_amount as amount,
               -- Lines another report already posted are neither (decision 186): they are left out.
               case when posted_in is not null then 'posted' when user_id is null then 'unmatched' else 'matched' end
                 as matched,
               line_amount < 0 or units < 0 as refund
          from (${lineAmountsSql(importId, await needsAllocation(db, importId), true)}) l
      ),
      -- Summed once per combination (a few thousand groups), then rolled up: the seven grouping sets add
      -- up those groups' sums instead of every line's numerics seven times (record 214).
      g as (
        select store, country, period, usage_type, matched, refund,
               count(*) as lines, sum(units) as units, sum(amount) as amount
          from x group by store, country, period, usage_type, matched, refund
      )
      select case
               when grouping(store) = 0 then 'store'
               when grouping(country) = 0 then 'country'
               when grouping(period) = 0 then 'period'
               when grouping(usage_type) = 0 then 'usage_type'
               when grouping(matched) = 0 then 'matched'
               when grouping(refund) = 0 then 'refund'
               else 'total' end as dim,
             coalesce(store, country, period, usage_type, matched, refund::text) as key,
             sum(lines) as lines, trim_scale(sum(units))::text as units, trim_scale(sum(amount))::text as amount
        from g
       group by grouping sets ((store), (country), (period), (usage_type), (matched), (refund), ())`,
  );
  const pick = (dim: string): TotalsRow[] =>
    found
      .filter((row) => row.dim === dim)
      .map((row) => ({
        key: row.key ?? '',
        lines: Number(row.lines),
        units: row.units ?? '0',
        amount: row.amount ?? '0',
      }))
      .sort((a, b) => Number(b.amount) - Number(a.amount) || a.key.localeCompare(b.key));
  const one = (dim: string, key: string) => {
    const row = found.find((r) => r.dim === dim && r.key === key);
    return { lines: row ? Number(row.lines) : 0, amount: row?.amount ?? '0' };
  };
  const totals: TotalsJson = {
    byStore: pick('store'),
    byCountry: pick('country'),
    byPeriod: pick('period'),
    byUsageType: pick('usage_type'),
    matched: one('matched', 'matched'),
    unmatched: one('matched', 'unmatched'),
    refunds: one('refund', 'true'),
    total: found.find((row) => row.dim === 'total')?.amount ?? '0',
  };
  await db.update(royaltyImports).set({ totals }).where(eq(royaltyImports.id, importId));
}
