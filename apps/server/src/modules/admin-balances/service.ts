/**
 * Balance Management for admins: user search, the single edit, and the bulk CSV's verify (one query for
 * every identifier) and apply (one transaction through the wallet's batch balance path).
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
import { applyBalanceChange, applyBalanceChanges, lockProfile } from '../wallet/balance';

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
          (await db.execute(sql`
            select p.id, p.email, p.balance_cents
              from jsonb_array_elements_text(${JSON.stringify([...ids])}::jsonb) as wanted(id)
              join profiles p on p.id = wanted.id
            union all
            select p.id, p.email, p.balance_cents
              from jsonb_array_elements_text(${JSON.stringify([...emails])}::jsonb) as wanted(email)
              join profiles p on lower(p.email) = wanted.email`)) as unknown as {
            rows: { id: string; email: string; balance_cents: string | number }[];
          }
        ).rows.map((row) => ({ id: row.id, email: row.email, balanceCents: Number(row.balance_cents) }));
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

/**
 * Applies verified rows in one transaction: every profile locked, each row applied only if the balance is
 * still the one verified (otherwise reported, not overwritten), log rows with update_type 'bulk_csv'.
 * A rise of the balance counts as earnings, as in the single edit.
 */
export async function applyBalanceRows(db: Db, admin: Admin, input: ApplyRowsInput): Promise<AppliedRow[]> {
  const userIds = input.rows.map((row) => row.userId);
  if (new Set(userIds).size !== userIds.length) {
    throw new AppError('duplicate_users', 'Each user may appear only once in an update.', 422);
  }
  const results = await applyBalanceChanges(
    db,
    input.rows.map((row) => ({
      userId: row.userId,
      newBalanceCents: row.newBalanceCents,
      expectedOldBalanceCents: row.expectedOldBalanceCents,
      addsPositiveDifferenceToEarnings: true,
      updateType: 'bulk_csv' as const,
      admin,
      notes: `Bulk CSV update (line ${row.line})`,
    })),
  );
  return results.map((result, index): AppliedRow => {
    const line = input.rows[index]?.line ?? 0;
    if (result.status === 'applied') {
      return {
        line,
        status: 'applied',
        userId: result.userId,
        userEmail: result.email,
        oldBalanceCents: result.oldBalanceCents,
        newBalanceCents: result.newBalanceCents,
      };
    }
    if (result.status === 'stale') {
      return {
        line,
        status: 'stale',
        userId: result.userId,
        userEmail: result.email,
        currentBalanceCents: result.currentBalanceCents,
        error: BALANCE_TEXTS.staleRow(result.currentBalanceCents),
      };
    }
    return { line, status: 'not_found', userId: result.userId, error: BALANCE_TEXTS.userNotFound };
  });
}
