/**
 * Revenue per line (decision 111): a DSR summary record's NetRevenue is shared among its sales lines by
 * usages, by the largest-remainder rule, in units of 10^-s where s = max(2, decimals of NetRevenue), so
 * the amounts under one summary add up exactly to its revenue. Lines that are not royalty bearing, or
 * have no positive units, get no share. Lines with their own amount keep it. Computed set-based in SQL,
 * in one scan of the import's lines (window functions, no self-join), when the report is summed and when
 * it is posted; never stored twice.
 */
import { RunningDecimalShare } from '@tunedrop/shared/money';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { firstRow } from '../../lib/sql';

/** Whether some staged line still waits for its share of a summary's revenue (computed in SQL). */
export async function needsAllocation(db: DbOrTx, importId: string): Promise<boolean> {
  const row = await firstRow<{ needed: boolean }>(
    db,
    sql`select exists (select 1 from royalty_import_lines where import_id = ${importId} and amount is null) as needed`,
  );
  return row?.needed === true;
}

/**
 * The single-pass rule used while a DSR file streams (decision 111): when a summary states its usages U
 * and its lines' royalty-bearing weights add up to exactly U, line i gets
 * round(N × C_i / U) − round(N × C_(i−1) / U) units, C_i being the running sum of weights in file order.
 * The amounts add up exactly to N (the sum telescopes) and each is within one unit of its exact share,
 * with no sort and O(1) memory per summary. A summary where the condition fails falls back to the
 * largest-remainder computation in SQL (its lines' amounts are cleared after staging).
 */
export class StreamingAllocator {
  private readonly states = new Map<string, { running: RunningDecimalShare | null; valid: boolean }>();

  constructor(summaries: Iterable<{ id: string; netRevenue: string; usages: string | null }>) {
    for (const summary of summaries) this.add(summary);
  }

  add(summary: { id: string; netRevenue: string; usages: string | null }) {
    if (this.states.has(summary.id)) return;
    const total = summary.usages !== null && /^\d+$/.test(summary.usages) ? BigInt(summary.usages) : 0n;
    this.states.set(summary.id, {
      running: total > 0n ? new RunningDecimalShare(summary.netRevenue, total) : null,
      valid: total > 0n,
    });
  }

  /** The line's amount as decimal text, or null when its summary falls back to SQL. */
  share(summaryId: string, units: string, royaltyBearing: boolean): string | null {
    const state = this.states.get(summaryId);
    if (!state?.valid || !state.running) return null;
    let weight = 0n;
    if (royaltyBearing && !units.startsWith('-')) {
      if (!/^\d+$/.test(units)) {
        state.valid = false;
        return null;
      }
      weight = BigInt(units);
    }
    const share = state.running.next(weight);
    if (share === null) {
      state.valid = false;
      return null;
    }
    return share;
  }

  /** Summaries whose lines must be allocated in SQL instead (condition failed or total not reached). */
  fallbacks(): string[] {
    return [...this.states.entries()]
      .filter(
        ([, state]) =>
          state.running !== null &&
          state.running.weightSeen > 0n &&
          (!state.valid || !state.running.isComplete),
      )
      .map(([id]) => id);
  }
}

/**
 * Every line of the import to post with `line_amount`, its amount in the report currency. With `allocate`
 * false (every line already has its amount) it is a plain scan; otherwise lines without an amount get
 * their largest-remainder share computed here. Lines another report already posted (posted_in, decision
 * 186) are left out, after the shares are computed over all of them; `withPosted` keeps them (the file's
 * own totals).
 */
export function lineAmountsSql(importId: string, allocate = true, withPosted = false): SQL {
  const toPost = withPosted ? sql`` : sql` and posted_in is null`;
  if (!allocate) {
    return sql`select l.*, l.amount as line_amount from royalty_import_lines l where l.import_id = ${importId}${toPost}`;
  }
  return sql`
    select r.*,
           case when r.amount is not null then r.amount
                when r.n is null then 0
                else trim_scale(r.sg * (r.fl + case when r.rk <= r.n - r.sum_fl then 1 else 0 end) / r.unit)
           end as line_amount
      from (
        select q.*,
               sum(q.fl) over (partition by q.summary_id) as sum_fl,
               row_number() over (partition by q.summary_id order by q.rem desc, q.line_no) as rk
          from (
            select w.*,
                   case when w.total > 0 then div(w.n * w.weight, w.total) else 0 end as fl,
                   case when w.total > 0 then mod(w.n * w.weight, w.total) else 0 end as rem
              from (
                select l.*, s.sg, s.n, s.unit,
                       case when l.amount is null and l.royalty_bearing and l.units > 0 then l.units else 0 end
                         as weight,
                       sum(case when l.amount is null and l.royalty_bearing and l.units > 0 then l.units else 0 end)
                         over (partition by l.summary_id) as total
                  from royalty_import_lines l
                  left join (
                    select summary_id, sign(net_revenue) as sg,
                           power(10::numeric, greatest(2, scale(net_revenue))) as unit,
                           abs(net_revenue) * power(10::numeric, greatest(2, scale(net_revenue))) as n
                      from royalty_import_summaries
                     where import_id = ${importId}
                  ) s on s.summary_id = l.summary_id and l.amount is null
                 where l.import_id = ${importId}
              ) w
          ) q
      ) r
     where true${toPost}`;
}
