import type { PaymentMethod } from '@tunedrop/shared';
import {
  PAYOUT_ITEM_STATES,
  PAYOUT_PROVIDERS,
  PAYOUT_RUN_STATES,
  PAYOUT_RUN_TRIGGERS,
  type PayoutItemState,
  type PayoutProviderId,
  type PayoutRunState,
  type PayoutRunTrigger,
  WITHDRAWAL_MODES,
  type WithdrawalMode,
} from '@tunedrop/shared/schemas/payouts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { cents, createdAt, inList } from './columns';
import { withdrawalRequests } from './wallet';

// ---------------------------------------------------------------- payouts (issue 38)

/** One row per provider the operator set up: enabled, its credentials encrypted at rest, its base URL. */
export const payoutProviders = pgTable(
  'payout_providers',
  {
    provider: text('provider').$type<PayoutProviderId>().primaryKey(),
    enabled: boolean('enabled').notNull().default(false),
    credentialsEncrypted: text('credentials_encrypted'),
    baseUrl: text('base_url'),
    lastTestAt: timestamp('last_test_at', { withTimezone: true }),
    lastTestOk: boolean('last_test_ok'),
    lastTestMessage: text('last_test_message'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
  },
  () => [check('payout_providers_provider_check', inList('provider', PAYOUT_PROVIDERS))],
);

/** The operator's payout settings: one row (id 1). */
export const payoutSettings = pgTable(
  'payout_settings',
  {
    id: integer('id').primaryKey().default(1),
    /** Day of the month (1-28) of the automatic run; null: runs by hand only. */
    scheduleDay: integer('schedule_day'),
    withdrawalMode: text('withdrawal_mode').$type<WithdrawalMode>().notNull().default('next_run'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  () => [
    check('payout_settings_single_row', sql`id = 1`),
    check('payout_settings_day_check', sql`schedule_day is null or schedule_day between 1 and 28`),
    check('payout_settings_mode_check', inList('withdrawal_mode', WITHDRAWAL_MODES)),
  ],
);

export const payoutRuns = pgTable(
  'payout_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trigger: text('trigger').$type<PayoutRunTrigger>().notNull(),
    state: text('state').$type<PayoutRunState>().notNull().default('planned'),
    /** The scheduled run's month (YYYY-MM): one scheduled run per month. */
    period: text('period'),
    createdAt: createdAt(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    check('payout_runs_state_check', inList('state', PAYOUT_RUN_STATES)),
    check('payout_runs_trigger_check', inList('trigger', PAYOUT_RUN_TRIGGERS)),
    unique('payout_runs_period_unique').on(t.period),
    index('payout_runs_created_idx').on(t.createdAt.desc()),
  ],
);

/** A run's batch per provider; `sender_batch_id` is the provider's idempotency key, fixed per (run, provider). */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => payoutRuns.id),
    provider: text('provider').$type<PayoutProviderId>().notNull(),
    senderBatchId: text('sender_batch_id').notNull(),
    /** The provider's id of the batch once it answered (PayPal's payout_batch_id). */
    providerReference: text('provider_reference'),
    /** bank-csv: the payout file, as made once (downloaded as often as wanted). */
    fileCsv: text('file_csv'),
    createdAt: createdAt(),
  },
  (t) => [
    check('payout_batches_provider_check', inList('provider', PAYOUT_PROVIDERS)),
    unique('payout_batches_run_provider_unique').on(t.runId, t.provider),
    unique('payout_batches_sender_batch_id_unique').on(t.senderBatchId),
  ],
);

export const payoutItems = pgTable(
  'payout_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => payoutRuns.id),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    provider: text('provider').$type<PayoutProviderId>(),
    state: text('state').$type<PayoutItemState>().notNull(),
    blockedCode: text('blocked_code'),
    blockedReason: text('blocked_reason'),
    /** Where it is paid, as the payee's details were when the run was planned (wallet's encryption). */
    paymentMethod: text('payment_method').$type<PaymentMethod>(),
    paymentDetailsEncrypted: text('payment_details_encrypted'),
    grossCents: cents('gross_cents').notNull().default(0),
    withheldCents: cents('withheld_cents').notNull().default(0),
    netCents: cents('net_cents').notNull().default(0),
    withholdingSummary: text('withholding_summary'),
    /** The tax module's decision (per line) the withholding was planned on, kept for when it is paid. */
    withholdingDecision: jsonb('withholding_decision').$type<Record<string, unknown>>(),
    /** The provider's per-item idempotency key: `<run id>:<account id>`. */
    idempotencyKey: text('idempotency_key').notNull(),
    batchId: uuid('batch_id').references(() => payoutBatches.id),
    providerReference: text('provider_reference'),
    providerStatus: text('provider_status'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    returnReason: text('return_reason'),
  },
  (t) => [
    check('payout_items_state_check', inList('state', PAYOUT_ITEM_STATES)),
    check(
      'payout_items_provider_check',
      sql.raw(`provider is null or provider in (${PAYOUT_PROVIDERS.map((p) => `'${p}'`).join(', ')})`),
    ),
    check(
      'payout_items_amounts',
      sql`gross_cents >= 0 and withheld_cents >= 0 and net_cents = gross_cents - withheld_cents`,
    ),
    unique('payout_items_run_user_unique').on(t.runId, t.userId),
    unique('payout_items_idempotency_unique').on(t.idempotencyKey),
    index('payout_items_user_idx').on(t.userId, t.createdAt.desc()),
    index('payout_items_state_idx').on(t.state),
  ],
);

/**
 * The pending withdrawal requests an item pays: they hold its gross in withdrawals payable while it is in
 * flight, and no admin, owner or other run can move them meanwhile (wallet's leavePending checks this).
 */
export const payoutItemRequests = pgTable('payout_item_requests', {
  withdrawalRequestId: uuid('withdrawal_request_id')
    .primaryKey()
    .references(() => withdrawalRequests.id),
  itemId: uuid('item_id')
    .notNull()
    .references(() => payoutItems.id),
});

/** Provider events already applied (webhooks and polls), so a repeat changes nothing. */
export const payoutEvents = pgTable(
  'payout_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').$type<PayoutProviderId>().notNull(),
    eventId: text('event_id').notNull(),
    itemId: uuid('item_id').references(() => payoutItems.id),
    status: text('status').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('payout_events_provider_event_unique').on(t.provider, t.eventId)],
);

/**
 * An account's Stripe Connect account (issue 38, record 281): made once by "Connect with Stripe", its
 * onboarding state kept from Stripe's `account.updated` events. One Stripe account per Tunedrop account.
 */
export const payoutStripeAccounts = pgTable('payout_stripe_accounts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  stripeAccountId: text('stripe_account_id').notNull().unique(),
  detailsSubmitted: boolean('details_submitted').notNull().default(false),
  transfersActive: boolean('transfers_active').notNull().default(false),
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  /** The `created` second of the last `account.updated` applied: an older event arriving late is ignored. */
  stateAt: integer('state_at'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
