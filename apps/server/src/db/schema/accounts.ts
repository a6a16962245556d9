import {
  type PaymentMethod,
  PLANS,
  type Plan,
  ROLES,
  type Role,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
} from '@tunedrop/shared';
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { cents, createdAt, inList, updatedAt } from './columns';

// ---------------------------------------------------------------- accounts

/** Stored with fillfactor 50 (migration 0008): a bulk balance update keeps every new row version on its page. */
export const profiles = pgTable(
  'profiles',
  {
    id: text('id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    artistName: text('artist_name').notNull(),
    plan: text('plan').$type<Plan>().notNull().default('basic'),
    /** A plan change waiting for the next billing cycle (FAQ: effective at the start of the next cycle). */
    pendingPlan: text('pending_plan').$type<Plan>(),
    balanceCents: cents('balance_cents').notNull().default(0),
    totalEarningsCents: cents('total_earnings_cents').notNull().default(0),
    pendingBalanceCents: cents('pending_balance_cents').notNull().default(0),
    paymentMethod: text('payment_method').$type<PaymentMethod>(),
    /** AES-GCM ciphertext of the payment details JSON; never stored in clear. */
    paymentDetailsEncrypted: text('payment_details_encrypted'),
    /** Withdrawals wait until then after a change of payout details (record 229); null: no hold. */
    payoutHoldUntil: timestamp('payout_hold_until', { withTimezone: true }),
    banned: boolean('banned').notNull().default(false),
    banReason: text('ban_reason'),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    subscriptionStatus: text('subscription_status').$type<SubscriptionStatus>().notNull().default('inactive'),
    subscriptionEnd: timestamp('subscription_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    paymentCustomerId: text('payment_customer_id').unique(),
    paymentSubscriptionId: text('payment_subscription_id'),
    /** Creation time of the provider event that set the subscription state, so older events never win. */
    subscriptionStateAt: timestamp('subscription_state_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('profiles_plan_check', inList('plan', PLANS)),
    check('profiles_pending_plan_check', sql`pending_plan is null or ${inList('pending_plan', PLANS)}`),
    check('profiles_subscription_status_check', inList('subscription_status', SUBSCRIPTION_STATUSES)),
    check(
      'profiles_payment_method_check',
      sql`payment_method is null or payment_method in ('bank', 'paypal', 'stripe', 'wise')`,
    ),
    check('profiles_balance_non_negative', sql`balance_cents >= 0`),
    check('profiles_total_earnings_non_negative', sql`total_earnings_cents >= 0`),
    check('profiles_pending_balance_non_negative', sql`pending_balance_cents >= 0`),
    check('profiles_ban_consistent', sql`banned or (ban_reason is null and banned_at is null)`),
    // The admin user list (migration 0008): its order whole from an index, per plan and for the banned;
    // partial search through trigram indexes.
    index('profiles_created_id_idx').on(t.createdAt.desc(), t.id),
    index('profiles_plan_created_id_idx').on(t.plan, t.createdAt.desc(), t.id),
    index('profiles_banned_created_id_idx').on(t.createdAt.desc(), t.id).where(sql`banned`),
    index('profiles_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('profiles_search_trgm_idx').using(
      'gin',
      sql`tunedrop_profile_search_text(${t.email}, ${t.artistName}, ${t.fullName}) gin_trgm_ops`,
    ),
    index('profiles_email_lower_idx').on(sql`lower(${t.email})`),
    index('profiles_artist_name_lower_idx').on(sql`lower(${t.artistName})`),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role').$type<Role>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check('user_roles_role_check', inList('role', ROLES)),
    index('user_roles_role_idx').on(t.role),
  ],
);
