/**
 * Balances read from the journal (docs/money.md). A credit account's balance (what the operator owes or
 * kept: payables, held, suspense, fee income, revenue, residue, paid out) is -(sum of its amounts); a
 * debit account's (store receivable, manual adjustments) is the sum itself.
 */
import { negateDecimal } from '@tunedrop/shared/money';
import { JOURNAL_ACCOUNTS, type JournalAccount, LIABILITY_ACCOUNTS } from '@tunedrop/shared/schemas/ledger';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../lib/sql';

const CREDIT_ACCOUNTS = new Set<JournalAccount>([...LIABILITY_ACCOUNTS, 'withdrawals_paid']);

/** -1 for an account read credit-positive, 1 for one read debit-positive. */
const signOf = (account: JournalAccount): 1 | -1 => (CREDIT_ACCOUNTS.has(account) ? -1 : 1);

/** One account's balance (exact USD text), for one subject or, with subject undefined, over all subjects. */
export async function accountBalance(
  db: DbOrTx,
  account: JournalAccount,
  subject?: string | null,
): Promise<string> {
  const where =
    subject === undefined
      ? sql`account = ${account}`
      : subject === null
        ? sql`account = ${account} and subject is null`
        : sql`account = ${account} and subject = ${subject}`;
  const [row] = await rows<{ balance: string }>(
    db,
    sql`select trim_scale(${signOf(account)} * coalesce(sum(amount), 0))::text as balance
          from journal_entries where ${where}`,
  );
  return row?.balance ?? '0';
}

/** Every account's balance over all its subjects (exact USD text; accounts never moved are '0'). */
export async function accountTotals(db: DbOrTx): Promise<Record<JournalAccount, string>> {
  const found = await rows<{ account: JournalAccount; total: string }>(
    db,
    sql`select account, trim_scale(sum(amount))::text as total from journal_entries group by account`,
  );
  const sums = new Map(found.map((row) => [row.account, row.total]));
  const totals = {} as Record<JournalAccount, string>;
  for (const account of JOURNAL_ACCOUNTS) {
    const sum = sums.get(account) ?? '0';
    totals[account] = signOf(account) === 1 ? sum : negateDecimal(sum);
  }
  return totals;
}

/** A user's available and pending balance from the journal, in cents (the figures profiles caches). */
export async function userBalanceCents(
  db: DbOrTx,
  userId: string,
): Promise<{ balanceCents: number; pendingBalanceCents: number }> {
  const [row] = await rows<{ available: string; pending: string }>(
    db,
    sql`select coalesce(-100 * sum(amount) filter (where account = 'artist_payable'), 0)::bigint::text as available,
               coalesce(-100 * sum(amount) filter (where account = 'withdrawals_payable'), 0)::bigint::text as pending
          from journal_entries
         where subject = ${userId} and account in ('artist_payable', 'withdrawals_payable')`,
  );
  return { balanceCents: Number(row?.available ?? 0), pendingBalanceCents: Number(row?.pending ?? 0) };
}
