/**
 * What a payee's statement says about expenses (record 148): for each release they share whose owner was
 * repaid expenses out of the period's earnings, how much was repaid before the shares and which expenses
 * that repaid (in the order they were added, as recoupment repays them). Information only: these rows move
 * no money of the payee's, so they never count in a statement's total.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../lib/sql';

export type ExpenseStatementRelease = {
  releaseTitle: string;
  upc: string | null;
  /** Recouped from this period's earnings of the release, rounded to the cent. */
  recoupedCents: number;
  expenses: { description: string; spentOn: string; amountCents: number }[];
};

export async function expenseStatementRows(
  db: DbOrTx,
  userId: string,
  period: string,
): Promise<ExpenseStatementRelease[]> {
  const found = await rows<{
    releaseId: string;
    releaseTitle: string;
    upc: string | null;
    recoupedCents: string | number;
    description: string;
    spentOn: string;
    amountCents: string | number;
  }>(
    db,
    sql`
      with shared as (select distinct release_id from split_payees where user_id = ${userId}),
      recouped as (
        select a.release_id, sum(a.amount_usd) as usd, min(i.posted_at) as first_at, max(i.posted_at) as last_at
          from split_allocations a join royalty_imports i on i.id = a.import_id
         where a.kind = 'recoupment' and a.period = ${period} and a.release_id in (select release_id from shared)
         group by a.release_id
      ),
      bounds as (
        select x.*,
               (select coalesce(sum(c.cents), 0) from split_recoupments c join royalty_imports j on j.id = c.import_id
                 where c.release_id = x.release_id and j.posted_at < x.first_at) as before_cents,
               (select coalesce(sum(c.cents), 0) from split_recoupments c join royalty_imports j on j.id = c.import_id
                 where c.release_id = x.release_id and j.posted_at <= x.last_at) as through_cents
          from recouped x
      ),
      expenses as (
        select e.*, sum(e.amount_cents) over (partition by e.release_id order by e.created_at, e.id) as cum_end
          from release_expenses e where e.release_id in (select release_id from bounds)
      )
      select b.release_id, r.title as release_title, r.upc, round(b.usd * 100)::bigint as recouped_cents,
             e.description, e.spent_on::text as spent_on, e.amount_cents
        from bounds b
        join releases r on r.id = b.release_id
        join expenses e on e.release_id = b.release_id and e.created_at <= b.last_at
                       and e.cum_end > b.before_cents and e.cum_end - e.amount_cents < b.through_cents
       order by r.title, b.release_id, e.created_at, e.id`,
  );
  const byRelease = new Map<string, ExpenseStatementRelease>();
  for (const row of found) {
    let release = byRelease.get(row.releaseId);
    if (!release) {
      release = {
        releaseTitle: row.releaseTitle,
        upc: row.upc,
        recoupedCents: Number(row.recoupedCents),
        expenses: [],
      };
      byRelease.set(row.releaseId, release);
    }
    release.expenses.push({
      description: row.description,
      spentOn: row.spentOn,
      amountCents: Number(row.amountCents),
    });
  }
  return [...byRelease.values()];
}
