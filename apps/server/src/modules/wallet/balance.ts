/**
 * Balance changes: the one path that writes money on a profile. Every change locks the profile row
 * (FOR UPDATE, in id order when there are several), writes the new figures, a balance_updates_log row
 * and its journal entries (issue 36, docs/money.md) in the same transaction. One change or ten thousand
 * use the same code: a batch costs three statements (lock; update with its log rows; the journal)
 * whatever its size.
 */

import { type BalanceUpdateType, formatCents } from '@tunedrop/shared';
import { centsToDecimal } from '@tunedrop/shared/money';
import type { JournalTransactionKind } from '@tunedrop/shared/schemas/ledger';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { profiles } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { run } from '../../lib/sql';
import { type JournalEntryInput, recordTransaction } from '../ledger';

export type BalanceOutcome = {
  userId: string;
  email: string;
  oldBalanceCents: number;
  newBalanceCents: number;
  oldTotalEarningsCents: number;
  newTotalEarningsCents: number;
  /** The positive balance difference added to total earnings (0 unless the change counts rises as earnings). */
  earningsAddedCents: number;
  oldPendingBalanceCents: number;
  newPendingBalanceCents: number;
};

export type BalanceChange = {
  userId: string;
  /** The new available balance. Give this or balanceDeltaCents. */
  newBalanceCents?: number;
  /** A move of the available balance (negative for a withdrawal). */
  balanceDeltaCents?: number;
  /** When set, total earnings rise by the positive difference between new and old balance. */
  addsPositiveDifferenceToEarnings?: boolean;
  /** Sets total earnings (the admin's single edit); the positive difference above is added on top. */
  newTotalEarningsCents?: number;
  /** A move of the pending balance (withdrawal requests raise it, their end lowers it). */
  pendingDeltaCents?: number;
  /** Refuse the change (reported as 'stale') when the balance is no longer this value. */
  expectedOldBalanceCents?: number;
  updateType: BalanceUpdateType;
  admin?: { id: string; email: string } | null;
  notes?: string | null | ((outcome: BalanceOutcome) => string | null);
  withdrawalRequestId?: string | null;
  /** The royalty report being posted (update type 'royalty_import'). */
  royaltyImportId?: string | null;
  /**
   * The journal legs on the other side of this change (they sum to minus its artist_payable and
   * withdrawals_payable legs). Left out: the manual types' counter is manual_adjustments, withdrawals
   * balance themselves, and the other types need the caller's legs (BalanceJournal.entries or collect).
   */
  counterEntries?: JournalEntryInput[];
};

/**
 * How a call's changes reach the journal: by default one transaction per update type in the call, its
 * kind, reference, actor and memo taken from the changes; `entries` adds legs to it (a posting's other
 * side); `collect` writes nothing and hands every leg to the caller, who records them in its own
 * transaction (the posting: one transaction for the report).
 */
export type BalanceJournal = {
  reference?: { type: string; id: string } | null;
  memo?: string | null;
  rate?: string | null;
  entries?: JournalEntryInput[];
  collect?: JournalEntryInput[];
  /** Dates the log rows and the journal transaction in the past (test fixtures' earlier months); else the clock. */
  at?: Date;
};

const JOURNAL_KIND: Record<BalanceUpdateType, JournalTransactionKind> = {
  manual: 'manual_adjustment',
  bulk_csv: 'bulk_adjustment',
  cli: 'cli_adjustment',
  withdrawal_request: 'withdrawal_request',
  withdrawal_cancel: 'withdrawal_cancel',
  withdrawal_refund: 'withdrawal_reject',
  royalty_import: 'royalty_posting',
  split_release: 'split_release',
  split_return: 'split_return',
  reserve_release: 'reserve_release',
};

const MANUAL_TYPES = new Set<BalanceUpdateType>(['manual', 'bulk_csv', 'cli']);

/** The legs of one applied change: the payable accounts it moved, then its counter-legs. */
function journalLegs(change: BalanceChange, outcome: BalanceOutcome): JournalEntryInput[] {
  const available = outcome.newBalanceCents - outcome.oldBalanceCents;
  const pending = outcome.newPendingBalanceCents - outcome.oldPendingBalanceCents;
  const legs: JournalEntryInput[] = [];
  if (available !== 0)
    legs.push({ account: 'artist_payable', subject: outcome.userId, amount: centsToDecimal(-available) });
  if (pending !== 0)
    legs.push({ account: 'withdrawals_payable', subject: outcome.userId, amount: centsToDecimal(-pending) });
  if (change.counterEntries) legs.push(...change.counterEntries);
  else if (MANUAL_TYPES.has(change.updateType) && available + pending !== 0) {
    legs.push({ account: 'manual_adjustments', amount: centsToDecimal(available + pending) });
  }
  return legs;
}

function referenceOf(change: BalanceChange): { type: string; id: string } {
  if (change.withdrawalRequestId) return { type: 'withdrawal_request', id: change.withdrawalRequestId };
  if (change.royaltyImportId) return { type: 'royalty_import', id: change.royaltyImportId };
  return { type: 'user', id: change.userId };
}

/** Writes the applied changes' journal transactions (or hands their legs to `journal.collect`). */
async function journalChanges(
  tx: Tx,
  applied: { change: BalanceChange; outcome: BalanceOutcome; notes: string | null }[],
  journal: BalanceJournal,
): Promise<void> {
  if (journal.collect) {
    for (const { change, outcome } of applied) journal.collect.push(...journalLegs(change, outcome));
    return;
  }
  const byType = new Map<BalanceUpdateType, typeof applied>();
  for (const item of applied)
    byType.set(item.change.updateType, [...(byType.get(item.change.updateType) ?? []), item]);
  let extra = journal.entries ?? [];
  for (const [type, items] of byType) {
    const [first] = items;
    if (!first) continue;
    const single = items.length === 1;
    await recordTransaction(tx, {
      kind: JOURNAL_KIND[type],
      reference:
        journal.reference !== undefined ? journal.reference : single ? referenceOf(first.change) : null,
      actorId: first.change.admin?.id ?? null,
      memo: journal.memo !== undefined ? journal.memo : single ? first.notes : null,
      rate: journal.rate ?? null,
      at: journal.at ?? null,
      entries: [...items.flatMap(({ change, outcome }) => journalLegs(change, outcome)), ...extra],
    });
    extra = [];
  }
}

export type BatchResult =
  | ({ status: 'applied' } & BalanceOutcome)
  | { status: 'stale'; userId: string; email: string; currentBalanceCents: number }
  | { status: 'not_found'; userId: string };

type LockedBalance = {
  id: string;
  email: string;
  balanceCents: number;
  totalEarningsCents: number;
  pendingBalanceCents: number;
};

const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/** Locks the whole profile row of one user for the rest of the transaction; null when there is none. */
export async function lockProfile(tx: Tx, userId: string) {
  const [profile] = await tx.select().from(profiles).where(eq(profiles.id, userId)).for('update');
  return profile ?? null;
}

/** Locks the balance columns of many users at once, in id order so two batches never deadlock. */
async function lockBalances(tx: Tx, userIds: string[]): Promise<Map<string, LockedBalance>> {
  const rows = await tx
    .select({
      id: profiles.id,
      email: profiles.email,
      balanceCents: profiles.balanceCents,
      totalEarningsCents: profiles.totalEarningsCents,
      pendingBalanceCents: profiles.pendingBalanceCents,
    })
    .from(profiles)
    .where(sql`${profiles.id} in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))`)
    .orderBy(profiles.id)
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

function assertCents(value: number, what: string) {
  if (!Number.isSafeInteger(value)) throw new Error(`${what} must be an integer number of cents`);
}

function compute(change: BalanceChange, locked: LockedBalance): BalanceOutcome {
  const hasNew = change.newBalanceCents !== undefined;
  const hasDelta = change.balanceDeltaCents !== undefined;
  if (hasNew === hasDelta)
    throw new Error('a balance change needs exactly one of newBalanceCents, balanceDeltaCents');
  const newBalanceCents = change.newBalanceCents ?? locked.balanceCents + (change.balanceDeltaCents ?? 0);
  assertCents(newBalanceCents, 'balance');
  const difference = newBalanceCents - locked.balanceCents;
  const earningsAddedCents = change.addsPositiveDifferenceToEarnings && difference > 0 ? difference : 0;
  const baseTotal = change.newTotalEarningsCents ?? locked.totalEarningsCents;
  assertCents(baseTotal, 'total earnings');
  const newTotalEarningsCents = baseTotal + earningsAddedCents;
  const newPendingBalanceCents = locked.pendingBalanceCents + (change.pendingDeltaCents ?? 0);
  assertCents(newPendingBalanceCents, 'pending balance');
  if (newBalanceCents < 0) {
    throw new AppError(
      'insufficient_balance',
      `You only have ${formatCents(locked.balanceCents)} available`,
      422,
    );
  }
  if (newTotalEarningsCents < 0 || newPendingBalanceCents < 0) {
    throw new AppError('invalid_values', 'Balances cannot be negative', 422);
  }
  if (newBalanceCents > MAX_CENTS || newTotalEarningsCents > MAX_CENTS) {
    throw new AppError('invalid_values', 'That amount is too large', 422);
  }
  return {
    userId: locked.id,
    email: locked.email,
    oldBalanceCents: locked.balanceCents,
    newBalanceCents,
    oldTotalEarningsCents: locked.totalEarningsCents,
    newTotalEarningsCents,
    earningsAddedCents,
    oldPendingBalanceCents: locked.pendingBalanceCents,
    newPendingBalanceCents,
  };
}

/**
 * Applies many changes in one transaction (or inside the caller's). Each user may appear once.
 * A change whose expected old balance no longer holds is reported 'stale' and left alone.
 */
export async function applyBalanceChanges(
  db: DbOrTx,
  changes: BalanceChange[],
  journal: BalanceJournal = {},
): Promise<BatchResult[]> {
  if (changes.length === 0) return [];
  const userIds = changes.map((change) => change.userId);
  if (new Set(userIds).size !== userIds.length) throw new Error('a batch may change each user once');
  return db.transaction(async (tx) => {
    const locked = await lockBalances(tx, [...userIds].sort());
    const results: BatchResult[] = [];
    const applied: { change: BalanceChange; outcome: BalanceOutcome }[] = [];
    for (const change of changes) {
      const row = locked.get(change.userId);
      if (!row) {
        results.push({ status: 'not_found', userId: change.userId });
        continue;
      }
      if (
        change.expectedOldBalanceCents !== undefined &&
        change.expectedOldBalanceCents !== row.balanceCents
      ) {
        results.push({
          status: 'stale',
          userId: row.id,
          email: row.email,
          currentBalanceCents: row.balanceCents,
        });
        continue;
      }
      const outcome = compute(change, row);
      applied.push({ change, outcome });
      results.push({ status: 'applied', ...outcome });
    }
    if (applied.length === 0) return results;

    const noted = applied.map(({ change, outcome }) => ({
      change,
      outcome,
      notes: typeof change.notes === 'function' ? change.notes(outcome) : (change.notes ?? null),
    }));
    const rows = noted.map(({ change, outcome, notes }) => ({
      id: outcome.userId,
      email: outcome.email,
      old_balance: outcome.oldBalanceCents,
      balance: outcome.newBalanceCents,
      total: outcome.newTotalEarningsCents,
      pending: outcome.newPendingBalanceCents,
      earnings_delta: outcome.newTotalEarningsCents - outcome.oldTotalEarningsCents,
      admin_id: change.admin?.id ?? null,
      admin_email: change.admin?.email ?? null,
      update_type: change.updateType,
      withdrawal_request_id: change.withdrawalRequestId ?? null,
      royalty_import_id: change.royaltyImportId ?? null,
      notes,
    }));
    // One statement writes the figures and the log rows from one parameter. clock_timestamp(), not now():
    // a change that waited for the lock must sort after the one it waited for.
    await run(
      tx,
      sql`
      with v as materialized (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(
          id text, email text, old_balance bigint, balance bigint, total bigint, pending bigint,
          earnings_delta bigint, admin_id text, admin_email text, update_type text,
          withdrawal_request_id uuid, royalty_import_id uuid, notes text)
      ),
      updated as (
        update profiles as p
           set balance_cents = v.balance,
               total_earnings_cents = v.total,
               pending_balance_cents = v.pending,
               updated_at = now()
          from v
         where p.id = v.id
      )
      insert into balance_updates_log
        (user_id, user_email, old_balance_cents, new_balance_cents, earnings_delta_cents,
         admin_id, admin_email, update_type, withdrawal_request_id, royalty_import_id, notes, created_at)
      select v.id, v.email, v.old_balance, v.balance, v.earnings_delta,
             v.admin_id, v.admin_email, v.update_type, v.withdrawal_request_id, v.royalty_import_id, v.notes,
             coalesce(${journal.at?.toISOString() ?? null}::timestamptz, clock_timestamp())
        from v`,
    );
    await journalChanges(tx, noted, journal);
    return results;
  });
}

/** One change; throws 404 when the user does not exist and 409 when the expected balance moved. */
export async function applyBalanceChange(
  db: DbOrTx,
  change: BalanceChange,
  journal: BalanceJournal = {},
): Promise<BalanceOutcome> {
  const [result] = await applyBalanceChanges(db, [change], journal);
  if (!result || result.status === 'not_found') throw notFound('User not found');
  if (result.status === 'stale') {
    throw conflict(
      `The balance changed to ${formatCents(result.currentBalanceCents)} since it was read. Reload and try again.`,
    );
  }
  const { status: _status, ...outcome } = result;
  return outcome;
}

/**
 * Money leaves the pending balance without returning to the available one (paid out): the cached figure
 * and its journal transaction, whose legs the caller names (they must move withdrawals_payable by exactly
 * `amountCents` for this user), in the caller's transaction.
 */
export async function leavePendingBalance(
  tx: Tx,
  userId: string,
  amountCents: number,
  journal: Parameters<typeof recordTransaction>[1],
): Promise<string | null> {
  assertCents(amountCents, 'amount');
  const updated = await tx
    .update(profiles)
    .set({
      pendingBalanceCents: sql`${profiles.pendingBalanceCents} - ${amountCents}`,
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, userId))
    .returning({ pending: profiles.pendingBalanceCents });
  if (updated.length === 0) throw notFound('User not found');
  if ((updated[0]?.pending ?? 0) < 0) throw new Error(`pending balance of ${userId} would go negative`);
  return recordTransaction(tx, journal);
}

/**
 * A completed withdrawal leaves the pending balance: the money was paid out, the available balance
 * already went down when it was requested, so no log row (the audit derives pending from requests); the
 * journal moves it from withdrawals payable to withdrawals paid.
 */
export async function releasePending(
  tx: Tx,
  request: { id: string; userId: string; amountCents: number },
  adminId: string | null,
): Promise<void> {
  const { userId, amountCents } = request;
  const updated = await tx
    .update(profiles)
    .set({
      pendingBalanceCents: sql`${profiles.pendingBalanceCents} - ${amountCents}`,
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, userId))
    .returning({ id: profiles.id });
  if (updated.length === 0) throw notFound('User not found');
  await recordTransaction(tx, {
    kind: 'withdrawal_paid',
    reference: { type: 'withdrawal_request', id: request.id },
    actorId: adminId,
    memo: 'Withdrawal paid',
    entries: [
      { account: 'withdrawals_payable', subject: userId, amount: centsToDecimal(amountCents) },
      { account: 'withdrawals_paid', amount: centsToDecimal(-amountCents) },
    ],
  });
}

/** `balance:set` in the CLI: sets the available balance, counting a rise as earnings. */
export function setBalanceByCli(db: DbOrTx, userId: string, newBalanceCents: number) {
  return applyBalanceChange(db, {
    userId,
    newBalanceCents,
    addsPositiveDifferenceToEarnings: true,
    updateType: 'cli',
    notes: 'Balance set with the administration CLI',
  });
}
