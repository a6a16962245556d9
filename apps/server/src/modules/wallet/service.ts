/**
 * The wallet's rules: payment settings (encrypted at rest, shown back masked) and the owner's side of a
 * withdrawal request (request, cancel). The admin's decisions live in admin-withdrawals/service.ts and
 * use leavePending() from here. Each transition is one transaction; the status move is in the UPDATE's
 * WHERE, rows are locked withdrawal first, then profile, so racing transitions serialise and one wins.
 */
import {
  formatCents,
  type PaymentMethod,
  PLAN_DETAILS,
  type Plan,
  type Role,
  type WithdrawalStatus,
} from '@tunedrop/shared';
import type { PendingPayoutDetails } from '@tunedrop/shared/schemas/payout-details';
import {
  checkPaymentSettings,
  checkWithdrawal,
  describeMaskedDetails,
  type MaskedPaymentDetails,
  maskPaymentDetails,
  minimumWithdrawalCents,
  type PaymentDetails,
  type PaymentSettingsInput,
  WALLET_TEXTS,
  type WalletMessage,
  type WalletSummary,
  type WithdrawalSummary,
} from '@tunedrop/shared/schemas/wallet';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { payoutDetailChanges, profiles, userRoles, withdrawalRequests } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import { notifyWithdrawalRequested } from '../staff-notifications';
import { applyBalanceChange, lockProfile } from './balance';
import { isPayee, readPayeeSettings } from './payees';
import { decryptPaymentDetails, encryptPaymentDetails } from './payment-crypto';
import { needsConfirmation, pendingPayoutDetails, requestConfirmation } from './payout-details-confirm';
import { assertNoPayoutHold, mailOwnerOfWithdrawal } from './payout-guard';

/**
 * Who acts on the account's money, for its trace (record 229): audited with the member and the account,
 * the owner mailed when it is someone else, and a change of payout details held for `holdHours`.
 * Left out only by test seeding, which stands for the owner's own first details.
 */
export type MoneyActor = { viewer: Viewer; holdHours: number; appUrl: string };

export type Actor = { id: string; email: string };

const walletError = (message: WalletMessage) => new AppError(message.code, message.description);

const withdrawalNotFound = () => notFound(WALLET_TEXTS.withdrawalNotFound);
const notPending = () => new AppError('not_pending', WALLET_TEXTS.notPending, 409);
const inPayoutRun = () =>
  new AppError(
    'in_payout_run',
    'This withdrawal is being paid by a payout run; it can no longer be changed here.',
    409,
  );

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

/** The minimum payout of an account (its plan's, or the operator's payee minimum): the payout runs use it. */
export async function minimumPayoutCents(db: DbOrTx, userId: string, plan: Plan): Promise<number> {
  return (await withdrawalMinimum(db, userId, plan, await rolesOf(db, userId))).minimumCents;
}

export async function getWalletSummary(
  db: Db,
  appSecret: string,
  userId: string,
): Promise<WalletSummary & { pendingPaymentDetails: PendingPayoutDetails | null }> {
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
    payoutHoldUntil:
      profile.payoutHoldUntil && profile.payoutHoldUntil.getTime() > Date.now()
        ? profile.payoutHoldUntil.toISOString()
        : null,
    pendingPaymentDetails: await pendingPayoutDetails(db, appSecret, userId),
  };
}

/**
 * Saves the account's payout details in one transaction with their trace (records 229, 314): the audit row
 * (masked before and after); a change waits for the owner's confirmation by email, and its hold starts then.
 */
export async function savePaymentSettings(
  db: Db,
  appSecret: string,
  userId: string,
  input: PaymentSettingsInput,
  actor?: MoneyActor,
): Promise<SavedPayoutDetails> {
  const checked = checkPaymentSettings(input);
  if (!checked.ok) throw walletError(checked.error);
  const { payment_method: method, payment_details: details } = checked.settings;
  return savePayoutDetails(db, appSecret, userId, { method, details }, actor);
}

/** What a save did: the details now in force, or the ones waiting for confirmation by email. */
export type SavedPayoutDetails = {
  paymentDetails: MaskedPaymentDetails;
  pendingConfirmation: PendingPayoutDetails | null;
};

/**
 * The same save for details the server itself vouches for (a Stripe Connect account it onboarded, which no
 * form may name): the same audit and confirmation. Without an actor (test seeding) they take effect at once.
 */
export async function savePayoutDetails(
  db: Db,
  appSecret: string,
  userId: string,
  { method, details }: { method: PaymentMethod; details: PaymentDetails },
  actor?: MoneyActor,
): Promise<SavedPayoutDetails> {
  const encrypted = encryptPaymentDetails(appSecret, userId, { method, details });
  const masked = maskPaymentDetails(method, details);
  return db.transaction(async (tx) => {
    const profile = await lockProfile(tx, userId);
    if (!profile) throw notFound('User not found');
    const before = maskedOrNull(appSecret, userId, profile.paymentDetailsEncrypted);
    const waits =
      actor &&
      needsConfirmation({
        hadDetails: profile.paymentDetailsEncrypted !== null,
        isOwner: actor.viewer.account.role === 'owner',
      });
    if (actor) {
      await recordAudit(tx, actor.viewer, {
        kind: 'wallet.payment_settings',
        subject: { type: 'account', id: userId, label: profile.email },
        subjectUserId: userId,
        before: before ? { details: describeMaskedDetails(before) } : null,
        after: {
          details: describeMaskedDetails(masked),
          ...(waits ? { inForce: 'once the owner confirms it by email' } : {}),
        },
      });
    }
    if (actor && waits) {
      const pendingConfirmation = await requestConfirmation(tx, {
        accountId: userId,
        actor: actor.viewer,
        method,
        encrypted,
        before,
        after: masked,
        holdHours: actor.holdHours,
        appUrl: actor.appUrl,
      });
      return { paymentDetails: masked, pendingConfirmation };
    }
    await tx
      .update(profiles)
      .set({ paymentMethod: method, paymentDetailsEncrypted: encrypted, updatedAt: new Date() })
      .where(eq(profiles.id, userId));
    // Details set directly supersede any change still waiting for its confirmation.
    await tx.delete(payoutDetailChanges).where(eq(payoutDetailChanges.accountId, userId));
    return { paymentDetails: masked, pendingConfirmation: null };
  });
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
  actor?: MoneyActor & { appSecret: string },
): Promise<WithdrawalSummary & { balanceCents: number; pendingBalanceCents: number }> {
  return db.transaction(async (tx) => {
    const profile = await lockProfile(tx, userId);
    if (!profile) throw notFound('User not found');
    // Checked under the profile's lock, which a change of payout details takes too (record 229).
    assertNoPayoutHold(profile.payoutHoldUntil);
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
    if (actor) {
      const details = maskedOrNull(actor.appSecret, userId, paymentDetailsEncrypted);
      await recordAudit(tx, actor.viewer, {
        kind: 'wallet.withdrawal_request',
        subject: { type: 'withdrawal', id: request.id, label: profile.email },
        subjectUserId: userId,
        withdrawalRequestId: request.id,
        after: { amountCents: checked.amountCents, paidTo: describeMaskedDetails(details) },
      });
      await mailOwnerOfWithdrawal(
        tx,
        actor.viewer,
        { amountCents: checked.amountCents, details },
        actor.appUrl,
      );
    }
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
  const conditions = [
    eq(withdrawalRequests.id, where.id),
    eq(withdrawalRequests.status, 'pending'),
    // A request a payout run holds is the run's until it is paid or returned (issue 38).
    sql`not exists (select 1 from payout_item_requests r where r.withdrawal_request_id = ${withdrawalRequests.id})`,
  ];
  if (where.userId) conditions.push(eq(withdrawalRequests.userId, where.userId));
  const [row] = await tx
    .update(withdrawalRequests)
    .set(set)
    .where(and(...conditions))
    .returning();
  if (row) return row;
  const ownership = where.userId ? [eq(withdrawalRequests.userId, where.userId)] : [];
  const [existing] = await tx
    .select({ id: withdrawalRequests.id, status: withdrawalRequests.status })
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.id, where.id), ...ownership));
  if (existing?.status === 'pending') throw inPayoutRun();
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
