/**
 * Balance Management for admins: user search, the single edit, and the bulk CSV's verify (one query for
 * every identifier) and apply (one statement in one transaction).
 */
import { centsToDecimal } from '@tunedrop/shared/money';
import {
  type AppliedRow,
  type ApplyRowsInput,
  BALANCE_TEXTS,
  type BalanceUser,
  BULK_BALANCE_LIMITS,
  type ManualBalanceInput,
  type ManualBalanceResult,
  manualBalanceNote,
  type VerifiedRow,
  type VerifyRowsInput,
} from '@tunedrop/shared/schemas/admin-balances';
import { desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { containsPattern } from '../../lib/search';
import { firstRow, rows, run } from '../../lib/sql';
import { recordTransaction } from '../ledger';
import { applyBalanceChange, lockProfile } from '../wallet';

export type Admin = { id: string; email: string };

const balanceColumns = {
  id: profiles.id,
  email: profiles.email,
  artistName: profiles.artistName,
  fullName: profiles.fullName,
  balanceCents: profiles.balanceCents,
  totalEarningsCents: profiles.totalEarningsCents,
  pendingBalanceCents: profiles.pendingBalanceCents,
};

/** Email or artist name, case-insensitive, partial, at most 10 (spec 02 §7). */
export async function searchBalanceUsers(db: Db, query: string): Promise<BalanceUser[]> {
  const pattern = containsPattern(query);
  return db
    .select(balanceColumns)
    .from(profiles)
    .where(sql`lower(${profiles.email}) like ${pattern} or lower(${profiles.artistName}) like ${pattern}`)
    .orderBy(desc(profiles.createdAt), profiles.id)
    .limit(BULK_BALANCE_LIMITS.searchLimit);
}

/**
 * The single edit: available, total earnings (plus the positive difference when available rises) and
 * pending. Pending follows the pending withdrawal requests, so it must equal what is stored.
 */
export async function updateBalanceManually(
  db: Db,
  admin: Admin,
  userId: string,
  input: ManualBalanceInput,
): Promise<ManualBalanceResult> {
  return db.transaction(async (tx) => {
    const profile = await lockProfile(tx, userId);
    if (!profile) throw notFound(BALANCE_TEXTS.userNotFound);
    if (input.pendingBalanceCents !== profile.pendingBalanceCents) {
      throw new AppError('pending_not_editable', BALANCE_TEXTS.pendingNotEditable, 409);
    }
    if (
      (input.expectedBalanceCents !== undefined && input.expectedBalanceCents !== profile.balanceCents) ||
      (input.expectedTotalEarningsCents !== undefined &&
        input.expectedTotalEarningsCents !== profile.totalEarningsCents)
    ) {
      throw conflict(
        'These balances changed since you opened them. Search again to see the current figures.',
      );
    }
    const outcome = await applyBalanceChange(tx, {
      userId,
      newBalanceCents: input.balanceCents,
      newTotalEarningsCents: input.totalEarningsCents,
      addsPositiveDifferenceToEarnings: true,
      updateType: 'manual',
      admin,
      notes: (result) => manualBalanceNote(result.earningsAddedCents),
    });
    return {
      id: profile.id,
      email: profile.email,
      artistName: profile.artistName,
      fullName: profile.fullName,
      balanceCents: outcome.newBalanceCents,
      totalEarningsCents: outcome.newTotalEarningsCents,
      pendingBalanceCents: outcome.newPendingBalanceCents,
      earningsAddedCents: outcome.earningsAddedCents,
    };
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Resolves every identifier with ONE query (ids and lower-cased emails as two JSON arrays) and marks each
 * row verified (with the current balance) or 'User not found'. A user named twice is an error the second time.
 */
export async function verifyBalanceRows(db: Db, input: VerifyRowsInput): Promise<VerifiedRow[]> {
  const emails = new Set<string>();
  const ids = new Set<string>();
  for (const row of input.rows) {
    const identifier = row.identifier.trim();
    if (identifier.includes('@')) emails.add(identifier.toLowerCase());
    else if (UUID.test(identifier)) ids.add(identifier.toLowerCase());
  }
  // One statement: two index joins (ids, lower-cased emails), each fed by a JSON array parameter.
  const found =
    emails.size + ids.size === 0
      ? []
      : (
          await rows<{ id: string; email: string; balanceCents: string | number }>(
            db,
            sql`
            select p.id, p.email, p.balance_cents
              from jsonb_array_elements_text(${JSON.stringify([...ids])}::jsonb) as wanted(id)
              join profiles p on p.id = wanted.id
            union all
            select p.id, p.email, p.balance_cents
              from jsonb_array_elements_text(${JSON.stringify([...emails])}::jsonb) as wanted(email)
              join profiles p on lower(p.email) = wanted.email`,
          )
        ).map((row) => ({ id: row.id, email: row.email, balanceCents: Number(row.balanceCents) }));
  const byId = new Map(found.map((user) => [user.id.toLowerCase(), user]));
  const byEmail = new Map(found.map((user) => [user.email.toLowerCase(), user]));
  const firstLine = new Map<string, number>();
  return input.rows.map((row): VerifiedRow => {
    const identifier = row.identifier.trim();
    const user = identifier.includes('@')
      ? byEmail.get(identifier.toLowerCase())
      : byId.get(identifier.toLowerCase());
    const base = { line: row.line, identifier, newBalanceCents: row.newBalanceCents };
    if (!user) return { ...base, status: 'error', error: BALANCE_TEXTS.userNotFound };
    const earlier = firstLine.get(user.id);
    if (earlier !== undefined) {
      return { ...base, status: 'error', error: `This user is already updated on line ${earlier}.` };
    }
    firstLine.set(user.id, row.line);
    return {
      ...base,
      status: 'verified',
      userId: user.id,
      userEmail: user.email,
      oldBalanceCents: user.balanceCents,
    };
  });
}

/** Total earnings past this would be rounded by JavaScript (the single edit refuses them as well). */
const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/** One applied row as the statement answers it: input index, email, new total earnings. */
type AppliedTuple = [n: number, email: string, newTotal: number];

/**
 * Applies verified rows with ONE statement in one transaction (issue 29, records 172 and 204). The UPDATE
 * locks and computes at once: a row is applied only if its balance is still the one verified (the
 * condition is checked again on the newest version when a concurrent writer got there first, so a stale
 * row is reported, never overwritten), a rise counts as earnings as in the single edit, and the log rows
 * are inserted from what the UPDATE returned (their old balance is the verified one, which the UPDATE
 * has just confirmed). The statement walks the rows in id order (a nested loop over the sorted input and
 * the primary key, the only join it has; the transaction-local planner settings below keep that plan),
 * so two batches lock in the same order and never deadlock. It answers one JSON array of the applied rows;
 * the few rows not applied are read afterwards for their current balance. Nothing is computed row by row
 * in JavaScript. `tunedrop.changed_balances` (migrations 0024 and 0058) tells the profile triggers the
 * statement changes balances only: one notification for the batch, no plan/ban count deltas to compute.
 */
export async function applyBalanceRows(db: Db, admin: Admin, input: ApplyRowsInput): Promise<AppliedRow[]> {
  const userIds = input.rows.map((row) => row.userId);
  if (new Set(userIds).size !== userIds.length) {
    throw new AppError('duplicate_users', 'Each user may appear only once in an update.', 422);
  }
  if (input.rows.length === 0) return [];
  const values = input.rows.map((row, index) => ({
    n: index,
    id: row.userId,
    balance: row.newBalanceCents,
    expected: row.expectedOldBalanceCents,
    line: row.line,
  }));
  // Already in the statement's id order (code-unit order, as the ids are ASCII): its sort finds it sorted.
  values.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const { applied, others } = await db.transaction(async (tx) => {
    // Transaction-local: the UPDATE's only join becomes a nested loop in the input's id order.
    await run(
      tx,
      sql`select set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`,
    );
    const answer = await firstRow<{ applied: AppliedTuple[]; tooLarge: boolean | null }>(
      tx,
      sql`
      with flag as materialized (select set_config('tunedrop.changed_balances', 'balance_cents,total_earnings_cents', true)),
      v as materialized (
        select v.* from flag, jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          as v(n integer, id text, balance bigint, expected bigint, line integer)
         order by v.id
      ),
      applied as (
        update profiles as p
           set balance_cents = v.balance,
               total_earnings_cents = p.total_earnings_cents + greatest(v.balance - p.balance_cents, 0),
               updated_at = now()
          from v
         where p.id = v.id and p.balance_cents = v.expected
        returning v.n, v.id, p.email, v.expected, v.balance, v.line,
                  greatest(v.balance - v.expected, 0) as earned, p.total_earnings_cents as new_total
      ),
      logged as (
        insert into balance_updates_log
          (user_id, user_email, old_balance_cents, new_balance_cents, earnings_delta_cents,
           admin_id, admin_email, update_type, notes, created_at)
        select id, email, expected, balance, earned, ${admin.id}, ${admin.email}, 'bulk_csv',
               'Bulk CSV update (line ' || line || ')', clock_timestamp()
          from applied
      )
      select coalesce(json_agg(json_build_array(n, email, new_total)), '[]'::json) as applied,
             bool_or(new_total > ${MAX_CENTS}) as too_large
        from applied`,
    );
    // Rolled back with the transaction: JavaScript could not show such a total exactly.
    if (answer?.tooLarge) throw new AppError('invalid_values', 'That amount is too large', 422);
    await run(
      tx,
      sql`select set_config('enable_hashjoin', 'on', true), set_config('enable_mergejoin', 'on', true)`,
    );
    const appliedRows = answer?.applied ?? [];
    // The journal: one transaction for the file, a leg per changed user against manual adjustments.
    const legs = appliedRows.flatMap(([n]) => {
      const row = input.rows[n];
      const moved = row ? row.newBalanceCents - row.expectedOldBalanceCents : 0;
      return row && moved !== 0
        ? [
            { account: 'artist_payable' as const, subject: row.userId, amount: centsToDecimal(-moved) },
            { account: 'manual_adjustments' as const, amount: centsToDecimal(moved) },
          ]
        : [];
    });
    await recordTransaction(tx, {
      kind: 'bulk_adjustment',
      actorId: admin.id,
      memo: `Bulk CSV update (${appliedRows.length} row${appliedRows.length === 1 ? '' : 's'})`,
      entries: legs,
    });
    const missed =
      appliedRows.length === input.rows.length
        ? []
        : (() => {
            const done = new Set(appliedRows.map(([n]) => n));
            return input.rows.filter((_, index) => !done.has(index)).map((row) => row.userId);
          })();
    const current =
      missed.length === 0
        ? []
        : await rows<{ id: string; email: string; balanceCents: string | number }>(
            tx,
            sql`select p.id, p.email, p.balance_cents
                  from jsonb_array_elements_text(${JSON.stringify(missed)}::jsonb) as wanted(id)
                  join profiles p on p.id = wanted.id`,
          );
    return { applied: appliedRows, others: new Map(current.map((row) => [row.id, row])) };
  });
  const byIndex = new Map<number, AppliedTuple>(applied.map((tuple) => [tuple[0], tuple]));
  return input.rows.map((row, index): AppliedRow => {
    const done = byIndex.get(index);
    if (done) {
      return {
        line: row.line,
        status: 'applied',
        userId: row.userId,
        userEmail: done[1],
        oldBalanceCents: row.expectedOldBalanceCents,
        newBalanceCents: row.newBalanceCents,
      };
    }
    const other = others.get(row.userId);
    if (!other) {
      return { line: row.line, status: 'not_found', userId: row.userId, error: BALANCE_TEXTS.userNotFound };
    }
    const currentBalanceCents = Number(other.balanceCents);
    return {
      line: row.line,
      status: 'stale',
      userId: row.userId,
      userEmail: other.email,
      currentBalanceCents,
      error: BALANCE_TEXTS.staleRow(currentBalanceCents),
    };
  });
}
