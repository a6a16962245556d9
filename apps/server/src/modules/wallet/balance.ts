/**
 * Balance changes: the one path that writes money on a profile. Every change locks the profile row
 * (FOR UPDATE, in id order when there are several), writes the new figures and a balance_updates_log
 * row in the same transaction. One change or ten thousand use the same code: a batch costs two
 * statements (lock; update with its log rows) whatever its size.
 */
import { type BalanceUpdateType, formatCents } from '@tunedrop/shared';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { profiles } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { run } from '../../lib/sql';

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
};

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
export async function applyBalanceChanges(db: DbOrTx, changes: BalanceChange[]): Promise<BatchResult[]> {
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

    const rows = applied.map(({ change, outcome }) => ({
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
      notes: typeof change.notes === 'function' ? change.notes(outcome) : (change.notes ?? null),
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
             clock_timestamp()
        from v`,
    );
    return results;
  });
}

/** One change; throws 404 when the user does not exist and 409 when the expected balance moved. */
export async function applyBalanceChange(db: DbOrTx, change: BalanceChange): Promise<BalanceOutcome> {
  const [result] = await applyBalanceChanges(db, [change]);
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
 * A completed withdrawal leaves the pending balance: the money was paid out, the available balance
 * already went down when it was requested, so no log row (the audit derives pending from requests).
 */
export async function releasePending(tx: Tx, userId: string, amountCents: number): Promise<void> {
  const updated = await tx
    .update(profiles)
    .set({
      pendingBalanceCents: sql`${profiles.pendingBalanceCents} - ${amountCents}`,
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, userId))
    .returning({ id: profiles.id });
  if (updated.length === 0) throw notFound('User not found');
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
