/**
 * Balance Management for admins: user search, the single edit, and the bulk CSV's verify (one query for
 * every identifier) and apply (one statement in one transaction).
 */
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
import { rows } from '../../lib/sql';
import { applyBalanceChange, lockProfile } from '../wallet/balance';

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

type ApplyOutcome = {
  n: number;
  id: string;
  email: string | null;
  currentBalance: string | number | null;
  isApplied: boolean;
  newTotal: string | number | null;
};

/**
 * Applies verified rows with ONE statement in one transaction (issue 29, record 172): the profiles locked
 * in id order (two batches never deadlock), each row applied only if its balance is still the one
 * verified (otherwise reported, not overwritten), a rise counted as earnings as in the single edit, a
 * log row per change with update_type 'bulk_csv', and each row's outcome read back in input order.
 * Nothing is computed row by row in JavaScript. The statement tells the profile triggers it changes
 * balances only (`tunedrop.changed_balances`, migration 0024): live updates get one notification for the
 * batch instead of one per hundred users, without comparing old and new rows.
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
    notes: `Bulk CSV update (line ${row.line})`,
  }));
  const outcomes = await db.transaction(async (tx) => {
    const found = await rows<ApplyOutcome>(
      tx,
      sql`
      with flag as materialized (select set_config('tunedrop.changed_balances', 'balance_cents,total_earnings_cents', true)),
      v as materialized (
        select v.* from flag, jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          as v(n integer, id text, balance bigint, expected bigint, notes text)
      ),
      locked as materialized (
        select p.id, p.email, p.balance_cents, p.total_earnings_cents
          from profiles p
         where p.id in (select id from v)
         order by p.id
           for update
      ),
      applied as (
        update profiles as p
           set balance_cents = v.balance,
               total_earnings_cents = l.total_earnings_cents + greatest(v.balance - l.balance_cents, 0),
               updated_at = now()
          from v join locked l on l.id = v.id
         where p.id = v.id and l.balance_cents = v.expected
        returning p.id, p.total_earnings_cents as new_total
      ),
      logged as (
        insert into balance_updates_log
          (user_id, user_email, old_balance_cents, new_balance_cents, earnings_delta_cents,
           admin_id, admin_email, update_type, notes, created_at)
        select l.id, l.email, l.balance_cents, v.balance, a.new_total - l.total_earnings_cents,
               ${admin.id}, ${admin.email}, 'bulk_csv', v.notes, clock_timestamp()
          from applied a join v on v.id = a.id join locked l on l.id = a.id
      )
      select v.n, v.id, l.email, l.balance_cents as current_balance, a.id is not null as is_applied,
             a.new_total
        from v
        left join locked l on l.id = v.id
        left join applied a on a.id = v.id
       order by v.n`,
    );
    // Rolled back with the transaction: JavaScript could not show such a total exactly.
    if (found.some((row) => row.isApplied && Number(row.newTotal) > MAX_CENTS)) {
      throw new AppError('invalid_values', 'That amount is too large', 422);
    }
    return found;
  });
  return outcomes.map((outcome): AppliedRow => {
    const row = input.rows[outcome.n];
    const line = row?.line ?? 0;
    if (outcome.email === null)
      return { line, status: 'not_found', userId: outcome.id, error: BALANCE_TEXTS.userNotFound };
    const currentBalanceCents = Number(outcome.currentBalance);
    if (!outcome.isApplied) {
      return {
        line,
        status: 'stale',
        userId: outcome.id,
        userEmail: outcome.email,
        currentBalanceCents,
        error: BALANCE_TEXTS.staleRow(currentBalanceCents),
      };
    }
    return {
      line,
      status: 'applied',
      userId: outcome.id,
      userEmail: outcome.email,
      oldBalanceCents: currentBalanceCents,
      newBalanceCents: row?.newBalanceCents ?? 0,
    };
  });
}
