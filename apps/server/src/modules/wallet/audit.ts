/**
 * `audit:balances`: recomputes every profile's money from the records and lists what disagrees.
 * Available balance: the last log row's new balance (0 with no rows), and each row must start where
 * the previous one ended. Total earnings: the sum of the log's earnings deltas. Pending: the sum of
 * the user's pending withdrawal requests.
 */
import { formatCents } from '@tunedrop/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export type BalanceMismatch = {
  userId: string;
  email: string;
  field: 'balance' | 'total_earnings' | 'pending_balance' | 'log_chain';
  storedCents: number;
  expectedCents: number;
};

type AuditRow = {
  id: string;
  email: string;
  balance: string | number;
  total: string | number;
  pending: string | number;
  log_balance: string | number;
  log_earnings: string | number;
  pending_requests: string | number;
  chain_breaks: string | number;
  first_break_old: string | number | null;
  first_break_expected: string | number | null;
};

export async function auditBalances(db: DbOrTx): Promise<{ checked: number; mismatches: BalanceMismatch[] }> {
  const result = await db.execute(sql`
    with ordered as (
      select user_id, old_balance_cents, new_balance_cents, earnings_delta_cents, created_at, id,
             coalesce(lag(new_balance_cents) over w, 0) as previous_new,
             row_number() over (partition by user_id order by created_at desc, id desc) as newest_first
        from balance_updates_log
      window w as (partition by user_id order by created_at, id)
    ),
    per_user as (
      select user_id,
             max(new_balance_cents) filter (where newest_first = 1) as log_balance,
             sum(earnings_delta_cents) as log_earnings,
             count(*) filter (where old_balance_cents <> previous_new) as chain_breaks
        from ordered
       group by user_id
    ),
    first_break as (
      select distinct on (user_id) user_id, old_balance_cents, previous_new
        from ordered
       where old_balance_cents <> previous_new
       order by user_id, created_at, id
    ),
    pending as (
      select user_id, sum(amount_cents) as pending_requests
        from withdrawal_requests
       where status = 'pending'
       group by user_id
    )
    select p.id, p.email,
           p.balance_cents as balance, p.total_earnings_cents as total, p.pending_balance_cents as pending,
           coalesce(u.log_balance, 0) as log_balance,
           coalesce(u.log_earnings, 0) as log_earnings,
           coalesce(w.pending_requests, 0) as pending_requests,
           coalesce(u.chain_breaks, 0) as chain_breaks,
           b.old_balance_cents as first_break_old,
           b.previous_new as first_break_expected
      from profiles p
      left join per_user u on u.user_id = p.id
      left join first_break b on b.user_id = p.id
      left join pending w on w.user_id = p.id
     order by p.email`);
  const rows = (result as unknown as { rows: AuditRow[] }).rows;
  const mismatches: BalanceMismatch[] = [];
  for (const row of rows) {
    const base = { userId: row.id, email: row.email };
    const compare = (field: BalanceMismatch['field'], stored: unknown, expected: unknown) => {
      if (Number(stored) !== Number(expected)) {
        mismatches.push({ ...base, field, storedCents: Number(stored), expectedCents: Number(expected) });
      }
    };
    compare('balance', row.balance, row.log_balance);
    compare('total_earnings', row.total, row.log_earnings);
    compare('pending_balance', row.pending, row.pending_requests);
    if (Number(row.chain_breaks) > 0) {
      mismatches.push({
        ...base,
        field: 'log_chain',
        storedCents: Number(row.first_break_old),
        expectedCents: Number(row.first_break_expected),
      });
    }
  }
  return { checked: rows.length, mismatches };
}

export function describeMismatch(mismatch: BalanceMismatch): string {
  if (mismatch.field === 'log_chain') {
    return `${mismatch.email} (${mismatch.userId}): the balance log jumps: a row starts at ${formatCents(mismatch.storedCents)} where the previous one ended at ${formatCents(mismatch.expectedCents)}`;
  }
  const source =
    mismatch.field === 'pending_balance' ? 'pending withdrawal requests add up to' : 'balance log gives';
  return `${mismatch.email} (${mismatch.userId}): ${mismatch.field} is ${formatCents(mismatch.storedCents)} but the ${source} ${formatCents(mismatch.expectedCents)}`;
}
