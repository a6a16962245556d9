/**
 * The wallet's rules: payment settings (encrypted at rest, shown back masked) and the owner's side of a
 * withdrawal request (request, cancel). The admin's decisions live in admin-withdrawals/service.ts and
 * use leavePending() from here. Each transition is one transaction; the status move is in the UPDATE's
 * WHERE, rows are locked withdrawal first, then profile, so racing transitions serialise and one wins.
 */
import { formatCents, PLAN_DETAILS, type Plan, type Role, type WithdrawalStatus } from '@tunedrop/shared';
import {
  checkPaymentSettings,
  checkWithdrawal,
  type MaskedPaymentDetails,
  maskPaymentDetails,
  minimumWithdrawalCents,
  type PaymentSettingsInput,
  WALLET_TEXTS,
  type WalletMessage,
  type WalletSummary,
  type WithdrawalSummary,
} from '@tunedrop/shared/schemas/wallet';
import { and, desc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { profiles, userRoles, withdrawalRequests } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { notifyWithdrawalRequested } from '../staff-notifications';
import { applyBalanceChange, lockProfile } from './balance';
import { isPayee, readPayeeSettings } from './payees';
import { decryptPaymentDetails, encryptPaymentDetails } from './payment-crypto';

export type Actor = { id: string; email: string };

const walletError = (message: WalletMessage, status: 400 | 409 | 422 = 422) =>
  new AppError(message.code, message.description, status);

const withdrawalNotFound = () => notFound(WALLET_TEXTS.withdrawalNotFound);
const notPending = () => new AppError('not_pending', WALLET_TEXTS.notPending, 409);

/** Masked details for the owner; null (and a logged warning upstream) when they cannot be read. */
function maskedOrNull(
  appSecret: string,
  userId: string,
  encrypted: string | null,
): MaskedPaymentDetails | null {
  if (!encrypted) return null;
  try {
    const stored = decryptPaymentDetails(appSecret, userId, encrypted);
    return maskPaymentDetails(stored.method, stored.details);
  } catch {
    return null;
  }
}

export type WithdrawalRow = typeof withdrawalRequests.$inferSelect;

export function toWithdrawalSummary(appSecret: string, row: WithdrawalRow): WithdrawalSummary {
  return {
    id: row.id,
    amountCents: row.amountCents,
    paymentMethod: row.paymentMethod,
    paymentDetails: maskedOrNull(appSecret, row.userId, row.paymentDetailsEncrypted),
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    processedAt: row.processedAt?.toISOString() ?? null,
    rejectionReason: row.rejectionReason,
  };
}

async function rolesOf(db: DbOrTx, userId: string): Promise<Role[]> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((row) => row.role);
}

/**
 * The minimum that applies to this account: a payee's is the operator's payee minimum (record 175), any
 * other account's is its plan's (spec 02 §2: $50 Basic, $20 Pro-level).
 */
async function withdrawalMinimum(
  db: DbOrTx,
  userId: string,
  plan: Plan,
  roles: readonly Role[],
): Promise<{ minimumCents: number; isPayee: boolean }> {
  if (await isPayee(db, userId)) {
    return { minimumCents: (await readPayeeSettings(db)).minimumWithdrawalCents, isPayee: true };
  }
  return { minimumCents: minimumWithdrawalCents(plan, roles), isPayee: false };
}

export async function getWalletSummary(db: Db, appSecret: string, userId: string): Promise<WalletSummary> {
  const [profile] = await db.select().from(profiles).where(eq(profiles.id, userId));
  if (!profile) throw notFound('User not found');
  const [roles, pending] = await Promise.all([
    rolesOf(db, userId),
    db
      .select()
      .from(withdrawalRequests)
      .where(and(eq(withdrawalRequests.userId, userId), eq(withdrawalRequests.status, 'pending')))
      .orderBy(desc(withdrawalRequests.requestedAt)),
  ]);
  const minimum = await withdrawalMinimum(db, userId, profile.plan, roles);
  return {
    balanceCents: profile.balanceCents,
    totalEarningsCents: profile.totalEarningsCents,
    pendingBalanceCents: profile.pendingBalanceCents,
    minimumWithdrawalCents: minimum.minimumCents,
    plan: profile.plan,
    hasProMinimum: !minimum.isPayee && minimum.minimumCents === PLAN_DETAILS.pro.minWithdrawalCents,
    isPayee: minimum.isPayee,
    paymentMethod: profile.paymentMethod,
    paymentDetails: maskedOrNull(appSecret, userId, profile.paymentDetailsEncrypted),
    pendingRequests: pending.map((row) => toWithdrawalSummary(appSecret, row)),
  };
}

export async function savePaymentSettings(
  db: Db,
  appSecret: string,
  userId: string,
  input: PaymentSettingsInput,
): Promise<MaskedPaymentDetails> {
  const checked = checkPaymentSettings(input);
  if (!checked.ok) throw walletError(checked.error);
  const { payment_method: method, payment_details: details } = checked.settings;
  const encrypted = encryptPaymentDetails(appSecret, userId, { method, details });
  const updated = await db
    .update(profiles)
    .set({ paymentMethod: method, paymentDetailsEncrypted: encrypted, updatedAt: new Date() })
    .where(eq(profiles.id, userId))
    .returning({ id: profiles.id });
  if (updated.length === 0) throw notFound('User not found');
  return maskPaymentDetails(method, details);
}

/**
 * One transaction: lock the profile, re-check payment info and every §5 rule against the locked
 * balance, insert the pending request with a snapshot of the payment details, move the amount from
 * available to pending, and log it. Concurrent requests queue on the lock and cannot overdraw.
 */
export async function requestWithdrawal(
  db: Db,
  userId: string,
  amount: string | number | null | undefined,
): Promise<WithdrawalSummary & { balanceCents: number; pendingBalanceCents: number }> {
  return db.transaction(async (tx) => {
    const profile = await lockProfile(tx, userId);
    if (!profile) throw notFound('User not found');
    const roles = await rolesOf(tx, userId);
    const { minimumCents } = await withdrawalMinimum(tx, userId, profile.plan, roles);
    const { paymentMethod, paymentDetailsEncrypted } = profile;
    const checked = checkWithdrawal({
      hasPaymentInfo: Boolean(paymentMethod && paymentDetailsEncrypted),
      balanceCents: profile.balanceCents,
      minimumCents,
      amount,
    });
    if (!checked.ok) throw walletError(checked.error);
    if (!paymentMethod || !paymentDetailsEncrypted) throw new Error('no payment details after the check');
    const [request] = await tx
      .insert(withdrawalRequests)
      .values({
        userId,
        amountCents: checked.amountCents,
        paymentMethod,
        paymentDetailsEncrypted,
        status: 'pending',
      })
      .returning();
    if (!request) throw new Error('withdrawal insert returned nothing');
    const outcome = await applyBalanceChange(tx, {
      userId,
      balanceDeltaCents: -checked.amountCents,
      pendingDeltaCents: checked.amountCents,
      updateType: 'withdrawal_request',
      withdrawalRequestId: request.id,
      notes: `Withdrawal requested (${formatCents(checked.amountCents)})`,
    });
    await notifyWithdrawalRequested(tx, userId, checked.amountCents);
    return {
      ...summaryWithoutDetails(request),
      balanceCents: outcome.newBalanceCents,
      pendingBalanceCents: outcome.newPendingBalanceCents,
    };
  });
}

export function summaryWithoutDetails(row: WithdrawalRow): WithdrawalSummary {
  return {
    id: row.id,
    amountCents: row.amountCents,
    paymentMethod: row.paymentMethod,
    paymentDetails: null,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    processedAt: row.processedAt?.toISOString() ?? null,
    rejectionReason: row.rejectionReason,
  };
}

/** Moves a request out of pending in the UPDATE itself; tells not-found apart from already-decided. */
export async function leavePending(
  tx: DbOrTx,
  where: { id: string; userId?: string },
  set: Partial<typeof withdrawalRequests.$inferInsert> & { status: WithdrawalStatus },
): Promise<WithdrawalRow> {
  const conditions = [eq(withdrawalRequests.id, where.id), eq(withdrawalRequests.status, 'pending')];
  if (where.userId) conditions.push(eq(withdrawalRequests.userId, where.userId));
  const [row] = await tx
    .update(withdrawalRequests)
    .set(set)
    .where(and(...conditions))
    .returning();
  if (row) return row;
  const ownership = where.userId ? [eq(withdrawalRequests.userId, where.userId)] : [];
  const [existing] = await tx
    .select({ id: withdrawalRequests.id })
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.id, where.id), ...ownership));
  throw existing ? notPending() : withdrawalNotFound();
}

/** The owner cancels while pending: cancelled, the amount back to available, in one transaction. */
export async function cancelWithdrawal(db: Db, userId: string, requestId: string) {
  return db.transaction(async (tx) => {
    const row = await leavePending(
      tx,
      { id: requestId, userId },
      { status: 'cancelled', processedAt: new Date(), processedBy: userId },
    );
    const outcome = await applyBalanceChange(tx, {
      userId,
      balanceDeltaCents: row.amountCents,
      pendingDeltaCents: -row.amountCents,
      updateType: 'withdrawal_cancel',
      withdrawalRequestId: row.id,
      notes: `Withdrawal cancelled (${formatCents(row.amountCents)} returned)`,
    });
    return {
      ...summaryWithoutDetails(row),
      balanceCents: outcome.newBalanceCents,
      pendingBalanceCents: outcome.newPendingBalanceCents,
    };
  });
}

/** The user's withdrawal history, newest first (analytics and exports). */
export function listWithdrawals(db: DbOrTx, userId: string) {
  return db
    .select()
    .from(withdrawalRequests)
    .where(eq(withdrawalRequests.userId, userId))
    .orderBy(desc(withdrawalRequests.requestedAt))
    .limit(1000);
}
