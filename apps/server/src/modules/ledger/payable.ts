/**
 * An artist's payable account over time, read from the journal (issue 36, record 259): the statements'
 * opening and closing balances and the analytics' money figures are these sums, not the balance log's.
 */
import type { JournalTransactionKind } from '@tunedrop/shared/schemas/ledger';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { firstRow, rows } from '../../lib/sql';

/** Money credited to the artist by the books: postings, suspense payouts, held shares released or returned. */
const CREDITED_KINDS: readonly JournalTransactionKind[] = [
  'royalty_posting',
  'suspense_assignment',
  'split_release',
  'split_return',
];

/**
 * Transactions whose rise of the balance counts as earnings (the rule the profile's total earnings follows,
 * record 241): what is credited, and a balance raised by hand or carried over. Withdrawals never count.
 */
const EARNING_KINDS: readonly JournalTransactionKind[] = [
  ...CREDITED_KINDS,
  'manual_adjustment',
  'bulk_adjustment',
  'cli_adjustment',
  'opening_balance',
];

const kindList = (kinds: readonly string[]) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(kinds)}::jsonb))`;

/**
 * A subquery: one row per journal transaction that moved the user's artist payable, with `at` (when),
 * `kind`, `cents` (the balance's change, whole cents: a credit is a rise), `credited` (cents if the
 * transaction credits earnings by the books, else 0) and `earned` (the rise counted as earnings, never
 * negative). Callers group it by month or bucket.
 */
export function payableMoves(userId: string): SQL {
  return sql`
    select t.created_at as at, t.kind, m.cents,
           case when t.kind in ${kindList(CREDITED_KINDS)} then m.cents else 0 end as credited,
           case when t.kind in ${kindList(EARNING_KINDS)} then greatest(m.cents, 0) else 0 end as earned
      from (select e.transaction_id, (-100 * sum(e.amount))::bigint as cents
              from journal_entries e
             where e.account = 'artist_payable' and e.subject = ${userId}
             group by e.transaction_id) m
      join journal_transactions t on t.id = m.transaction_id`;
}

/** The user's available balance (cents) as it stood at `start` and at `end` (both exclusive). */
export async function payableCentsAt(
  db: DbOrTx,
  userId: string,
  start: Date,
  end: Date,
): Promise<{ startCents: number; endCents: number }> {
  const row = await firstRow<{ startCents: string; endCents: string }>(
    db,
    sql`
      select coalesce(sum(cents) filter (where at < ${start.toISOString()}::timestamptz), 0)::text as start_cents,
             coalesce(sum(cents) filter (where at < ${end.toISOString()}::timestamptz), 0)::text as end_cents
        from (${payableMoves(userId)}) moves`,
  );
  return { startCents: Number(row?.startCents ?? 0), endCents: Number(row?.endCents ?? 0) };
}

/** Per calendar month (UTC, `YYYY-MM`) in which the balance moved: its change and what the books credited. */
export async function payableByMonth(
  db: DbOrTx,
  userId: string,
): Promise<Map<string, { changeCents: number; creditedCents: number }>> {
  const found = await rows<{ period: string; changeCents: string; creditedCents: string }>(
    db,
    sql`
      select to_char(at at time zone 'UTC', 'YYYY-MM') as period, sum(cents)::text as change_cents,
             sum(credited)::text as credited_cents
        from (${payableMoves(userId)}) moves
       group by 1`,
  );
  return new Map(
    found.map((row) => [
      row.period,
      { changeCents: Number(row.changeCents), creditedCents: Number(row.creditedCents) },
    ]),
  );
}

/**
 * What the user was paid out (cents): the withdrawals the operator paid and the payouts a run paid (their
 * gross, withholding included), from withdrawals payable, less payouts refunded after they were paid
 * (a `payout_returned` that takes money back out of withdrawals paid, record 267).
 */
export async function withdrawnCents(db: DbOrTx, userId: string): Promise<number> {
  const row = await firstRow<{ cents: string }>(
    db,
    sql`
      select (coalesce((select 100 * sum(e.amount)
                          from journal_entries e
                          join journal_transactions t on t.id = e.transaction_id
                               and t.kind in ('withdrawal_paid', 'payout_paid')
                         where e.account = 'withdrawals_payable' and e.subject = ${userId}), 0)
            - coalesce((select -100 * sum(e.amount)
                          from journal_entries e
                          join journal_transactions t on t.id = e.transaction_id and t.kind = 'payout_returned'
                         where e.account = 'artist_payable' and e.subject = ${userId}
                           and exists (select 1 from journal_entries p
                                        where p.transaction_id = t.id and p.account = 'withdrawals_paid')), 0)
             )::bigint::text as cents`,
  );
  return Number(row?.cents ?? 0);
}
