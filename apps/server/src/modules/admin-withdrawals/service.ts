/**
 * Withdrawal Management: the list (search by artist name or email, Pending / Completed tabs, paging)
 * with the payment details decrypted for the admin, and the admin's decisions (approve, reject), each
 * one transaction through the wallet's leavePending() and balance path, with an audit row and a mail.
 */
import { formatCents } from '@tunedrop/shared';
import {
  type AdminWithdrawal,
  type AdminWithdrawalsPage,
  type AdminWithdrawalsQuery,
  WITHDRAWAL_TABS,
  WITHDRAWALS_PAGE_SIZE,
} from '@tunedrop/shared/schemas/admin-withdrawals';
import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client';
import { profiles, withdrawalRequests } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { AppError } from '../../lib/errors';
import { pageInfo, pageWindow } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import { recordAudit } from '../audit';
import {
  type Actor,
  applyBalanceChange,
  decryptPaymentDetails,
  leavePending,
  releasePending,
  summaryWithoutDetails,
  type WithdrawalRow,
} from '../wallet';

const processedBy = alias(profiles, 'processed_by_profile');

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = containsPattern(q);
  return or(
    sql`lower(${profiles.email}) like ${pattern}`,
    sql`lower(${profiles.artistName}) like ${pattern}`,
  );
}

export async function listWithdrawalsForAdmin(
  db: Db,
  appSecret: string,
  query: AdminWithdrawalsQuery,
): Promise<AdminWithdrawalsPage> {
  const search = searchCondition(query.q);
  const isPending = eq(withdrawalRequests.status, 'pending');
  const [counts] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${isPending})`.mapWith(Number),
      completed: sql<number>`count(*) filter (where not ${isPending})`.mapWith(Number),
      pendingTotal:
        sql<number>`coalesce(sum(${withdrawalRequests.amountCents}) filter (where ${isPending}), 0)`.mapWith(
          Number,
        ),
    })
    .from(withdrawalRequests)
    .innerJoin(profiles, eq(profiles.id, withdrawalRequests.userId))
    .where(search);
  const statuses = WITHDRAWAL_TABS.find((item) => item.id === query.tab)?.statuses ?? ['pending'];
  const { limit, offset } = pageWindow(query.page, WITHDRAWALS_PAGE_SIZE);
  const rows = await db
    .select({
      request: withdrawalRequests,
      email: profiles.email,
      artistName: profiles.artistName,
      balanceCents: profiles.balanceCents,
      processedByEmail: processedBy.email,
    })
    .from(withdrawalRequests)
    .innerJoin(profiles, eq(profiles.id, withdrawalRequests.userId))
    .leftJoin(processedBy, eq(processedBy.id, withdrawalRequests.processedBy))
    .where(and(search, inArray(withdrawalRequests.status, [...statuses])))
    .orderBy(
      query.tab === 'pending'
        ? desc(withdrawalRequests.requestedAt)
        : desc(sql`coalesce(${withdrawalRequests.processedAt}, ${withdrawalRequests.requestedAt})`),
      withdrawalRequests.id,
    )
    .limit(limit)
    .offset(offset);
  const tabCounts = { pending: counts?.pending ?? 0, completed: counts?.completed ?? 0 };
  return {
    withdrawals: rows.map(
      ({ request, ...row }): AdminWithdrawal => ({
        id: request.id,
        userId: request.userId,
        email: row.email,
        artistName: row.artistName,
        amountCents: request.amountCents,
        paymentMethod: request.paymentMethod,
        paymentDetails: readPaymentDetails(appSecret, request)?.details ?? null,
        status: request.status,
        requestedAt: request.requestedAt.toISOString(),
        processedAt: request.processedAt?.toISOString() ?? null,
        processedByEmail: row.processedByEmail,
        rejectionReason: request.rejectionReason,
        userBalanceCents: row.balanceCents,
      }),
    ),
    counts: tabCounts,
    pendingTotalCents: counts?.pendingTotal ?? 0,
    ...pageInfo(query.page, WITHDRAWALS_PAGE_SIZE, tabCounts[query.tab]),
  };
}

async function audit(
  tx: DbOrTx,
  admin: Actor,
  action: 'withdrawal.approve' | 'withdrawal.reject',
  row: WithdrawalRow,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
) {
  // The requester's email is stored with the entry (record 191).
  await recordAudit(tx, admin, {
    kind: action,
    subjectUserId: row.userId,
    withdrawalRequestId: row.id,
    before,
    after,
  });
}

async function ownerEmail(tx: DbOrTx, userId: string): Promise<string | null> {
  const [owner] = await tx.select({ email: profiles.email }).from(profiles).where(eq(profiles.id, userId));
  return owner?.email ?? null;
}

/** Admin approval: completed with processed_at and processed_by; the amount leaves pending. */
export async function approveWithdrawal(db: Db, admin: Actor, requestId: string) {
  return db.transaction(async (tx) => {
    const row = await leavePending(
      tx,
      { id: requestId },
      { status: 'completed', processedAt: new Date(), processedBy: admin.id },
    );
    await releasePending(tx, row, admin.id);
    await audit(tx, admin, 'withdrawal.approve', row, { status: 'pending' }, { status: 'completed' });
    const email = await ownerEmail(tx, row.userId);
    if (email) {
      await enqueueMail(tx, {
        to: email,
        subject: `Your withdrawal of ${formatCents(row.amountCents)} has been sent`,
        text: `Hello,\n\nYour withdrawal request of ${formatCents(row.amountCents)} has been approved and the payment is on its way to your ${row.paymentMethod === 'bank' ? 'bank account' : 'PayPal account'}.\n\nTunedrop`,
      });
    }
    return summaryWithoutDetails(row);
  });
}

/** Admin rejection (reason required): rejected, and the amount refunded to available in the same transaction. */
export async function rejectWithdrawal(db: Db, admin: Actor, requestId: string, reason: string) {
  const trimmed = reason.trim();
  if (!trimmed) {
    throw new AppError(
      'rejection_reason_required',
      'Please provide a reason for rejecting this request.',
      422,
    );
  }
  return db.transaction(async (tx) => {
    const row = await leavePending(
      tx,
      { id: requestId },
      { status: 'rejected', processedAt: new Date(), processedBy: admin.id, rejectionReason: trimmed },
    );
    const outcome = await applyBalanceChange(tx, {
      userId: row.userId,
      balanceDeltaCents: row.amountCents,
      pendingDeltaCents: -row.amountCents,
      updateType: 'withdrawal_refund',
      admin,
      withdrawalRequestId: row.id,
      notes: `Withdrawal rejected: ${trimmed}`,
    });
    await audit(
      tx,
      admin,
      'withdrawal.reject',
      row,
      { status: 'pending' },
      { status: 'rejected', rejectionReason: trimmed },
    );
    await enqueueMail(tx, {
      to: outcome.email,
      subject: `Your withdrawal of ${formatCents(row.amountCents)} was not approved`,
      text: `Hello,\n\nYour withdrawal request of ${formatCents(row.amountCents)} was rejected.\n\nReason: ${trimmed}\n\nThe amount has been returned to your available balance (now ${formatCents(outcome.newBalanceCents)}).\n\nTunedrop`,
    });
    return { ...summaryWithoutDetails(row), balanceCents: outcome.newBalanceCents };
  });
}

/** For admins only: the payment details of a request, decrypted, to make the payment. */
export function readPaymentDetails(
  appSecret: string,
  row: Pick<WithdrawalRow, 'userId' | 'paymentDetailsEncrypted'>,
) {
  try {
    return decryptPaymentDetails(appSecret, row.userId, row.paymentDetailsEncrypted);
  } catch {
    return null;
  }
}
