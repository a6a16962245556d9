/**
 * Books a posted report's unmatched money to the suspense account (issue 25, decision 188): one
 * INSERT … SELECT, inside the posting's transaction, of every line that matched no artist and carries
 * money, with its amount in the report currency and in USD at the report's rate (exact numeric). Returns
 * their USD sum (exact text), the posting's suspense leg in the journal.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../lib/sql';
import { lineAmountsSql, needsAllocation } from '../royalty-imports';

export async function bookSuspense(
  tx: Tx,
  report: { id: string; exchangeRate: string | null; periodStart: string | null; createdAt: Date },
): Promise<string> {
  const rate = report.exchangeRate ?? '1';
  const fallbackPeriod = report.periodStart?.slice(0, 7) ?? report.createdAt.toISOString().slice(0, 7);
  const allocate = await needsAllocation(tx, report.id);
  const [booked] = await rows<{ usd: string }>(
    tx,
    sql`
      with booked as (
      insert into royalty_suspense_lines
        (import_id, line_no, line_key, isrc, upc, title, artist, store, country, period, usage_type, units,
         amount, amount_usd)
      select l.import_id, l.line_no, l.line_key, l.isrc, l.upc, l.title, l.artist, l.store, l.country,
             coalesce(l.period, ${fallbackPeriod}), l.usage_type, l.units, l.line_amount,
             l.line_amount * ${rate}::numeric
        from (${lineAmountsSql(report.id, allocate)}) l
       where l.user_id is null and l.line_amount <> 0
      returning amount_usd
      )
      select trim_scale(coalesce(sum(amount_usd), 0))::text as usd from booked`,
  );
  return booked?.usd ?? '0';
}
