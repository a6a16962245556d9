import {
  BALANCE_UPDATE_TYPES,
  type BalanceUpdateType,
  PAYMENT_METHODS,
  type PaymentMethod,
  WITHDRAWAL_STATUSES,
  type WithdrawalStatus,
} from '@tunedrop/shared';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { profiles } from './accounts';
import { user } from './auth';
import { cents, createdAt, inList } from './columns';

// ---------------------------------------------------------------- money

export const withdrawalRequests = pgTable(
  'withdrawal_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    amountCents: cents('amount_cents').notNull(),
    paymentMethod: text('payment_method').$type<PaymentMethod>().notNull(),
    /** AES-GCM ciphertext of the payment details as they were when the request was made. */
    paymentDetailsEncrypted: text('payment_details_encrypted').notNull(),
    status: text('status').$type<WithdrawalStatus>().notNull().default('pending'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    processedBy: text('processed_by').references(() => user.id, { onDelete: 'set null' }),
    rejectionReason: text('rejection_reason'),
    notes: text('notes'),
  },
  (t) => [
    check('withdrawal_requests_amount_positive', sql`amount_cents > 0`),
    check('withdrawal_requests_method_check', inList('payment_method', PAYMENT_METHODS)),
    check('withdrawal_requests_status_check', inList('status', WITHDRAWAL_STATUSES)),
    index('withdrawal_requests_user_status_idx').on(t.userId, t.status, t.requestedAt.desc()),
    index('withdrawal_requests_status_idx').on(t.status, t.requestedAt.desc()),
  ],
);

export const balanceUpdatesLog = pgTable(
  'balance_updates_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // user_id and admin_id: the rules below hold, enforced once per statement by migration 0025's triggers
    // instead of per-row foreign keys (record 172); drizzle-kit knows nothing of triggers.
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    userEmail: text('user_email').notNull(),
    oldBalanceCents: cents('old_balance_cents').notNull(),
    newBalanceCents: cents('new_balance_cents').notNull(),
    /** How much total earnings rose with this change (0 for withdrawals and refunds). */
    earningsDeltaCents: cents('earnings_delta_cents').notNull().default(0),
    adminId: text('admin_id').references(() => user.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email'),
    updateType: text('update_type').$type<BalanceUpdateType>().notNull(),
    withdrawalRequestId: uuid('withdrawal_request_id').references(() => withdrawalRequests.id, {
      onDelete: 'set null',
    }),
    notes: text('notes'),
    /** The royalty report whose posting made this change ('royalty_import', and 'split_return' of held shares). */
    royaltyImportId: uuid('royalty_import_id'),
    createdAt: createdAt(),
  },
  (t) => [
    check('balance_updates_log_type_check', inList('update_type', BALANCE_UPDATE_TYPES)),
    check(
      'balance_updates_log_royalty_import_consistent',
      sql`(update_type in ('royalty_import', 'split_return')) = (royalty_import_id is not null)`,
    ),
    check('balance_updates_log_non_negative', sql`old_balance_cents >= 0 and new_balance_cents >= 0`),
    index('balance_updates_log_user_created_idx').on(t.userId, t.createdAt),
    // No index on created_at over every user: no query reads the log in that order (migration 0062).
  ],
);

/**
 * New payout details waiting for the owner's confirmation by email (issue 38, record 314): at most one per
 * account, the link's token kept as a SHA-256 only; the row goes when it is confirmed or replaced, so a used
 * link finds nothing. The details in force stay on `profiles` until then.
 */
export const payoutDetailChanges = pgTable(
  'payout_detail_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id')
      .notNull()
      .unique()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    requestedBy: text('requested_by').references(() => user.id, { onDelete: 'set null' }),
    paymentMethod: text('payment_method').$type<PaymentMethod>().notNull(),
    /** AES-GCM ciphertext of the new details, as on `profiles`. */
    paymentDetailsEncrypted: text('payment_details_encrypted').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  () => [check('payout_detail_changes_method_check', inList('payment_method', PAYMENT_METHODS))],
);
