/**
 * The whole data model (spec 01 §3 and 02 §3) plus the auth library's tables.
 * Money columns are integer cents; every enum has a CHECK; deletes are deliberate:
 * nothing an artist uploaded or earned disappears through a cascade from a user row.
 */
import type {
  BalanceUpdateType,
  PaymentMethod,
  Plan,
  PlatformId,
  ReleaseStatus,
  Role,
  SongwriterRole,
  SubscriptionStatus,
  WithdrawalStatus,
} from '@tunedrop/shared';
import type { UploadInfo, UploadKind } from '@tunedrop/shared/schemas/builder';
import {
  type AckView,
  DELIVERY_STATES,
  type DeliveryAction,
  type DeliveryState,
  type TargetProfile,
  type TargetScheme,
} from '@tunedrop/shared/schemas/delivery';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const cents = (name: string) => bigint(name, { mode: 'number' });
const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

// ---------------------------------------------------------------- auth (better-auth)

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  twoFactorEnabled: boolean('two_factor_enabled').default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/**
 * Email links the server mailed (verification, email change), by SHA-256 of the token: a link is honoured
 * only if recorded here, once, while the account's address is still `email` (decision 143).
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    newEmail: text('new_email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('email_tokens_user_id_idx').on(t.userId)],
);

/** Browsers that signed in to an account: a random server-issued value each, by SHA-256 (decisions 085, 143). */
export const knownDevices = pgTable(
  'known_devices',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('known_devices_user_id_idx').on(t.userId)],
);

export const twoFactor = pgTable(
  'two_factor',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    verified: boolean('verified').default(true),
    failedVerificationCount: integer('failed_verification_count').default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factor_user_id_idx').on(t.userId), index('two_factor_secret_idx').on(t.secret)],
);

export const rateLimit = pgTable('rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

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
    check('profiles_plan_check', inList('plan', ['basic', 'pro'])),
    check('profiles_pending_plan_check', sql`pending_plan is null or pending_plan in ('basic', 'pro')`),
    check(
      'profiles_subscription_status_check',
      inList('subscription_status', ['active', 'canceled', 'past_due', 'inactive']),
    ),
    check(
      'profiles_payment_method_check',
      sql`payment_method is null or payment_method in ('bank', 'paypal')`,
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
    check('user_roles_role_check', inList('role', ['admin', 'moderator', 'free_access'])),
    index('user_roles_role_idx').on(t.role),
  ],
);

// ---------------------------------------------------------------- releases

export type ArtistCredit = { name: string; spotifyLink?: string; appleMusicLink?: string };

export const releases = pgTable(
  'releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    primaryArtists: text('primary_artists').array().notNull().default(sql`'{}'::text[]`),
    featuredArtists: text('featured_artists').array().notNull().default(sql`'{}'::text[]`),
    primaryArtistsData: jsonb('primary_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    featuredArtistsData: jsonb('featured_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    genre: text('genre').notNull(),
    releaseDate: date('release_date').notNull(),
    originalReleaseDate: date('original_release_date'),
    labelName: text('label_name'),
    upc: text('upc'),
    copyrightHolder: text('copyright_holder').notNull(),
    publishingHolder: text('publishing_holder').notNull(),
    copyrightYear: integer('copyright_year').notNull(),
    publishingYear: integer('publishing_year').notNull(),
    distributionStores: text('distribution_stores')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`)
      .$type<PlatformId[]>(),
    status: text('status').$type<ReleaseStatus>().notNull().default('pending'),
    coverArtKey: text('cover_art_key'),
    coverThumbSmallKey: text('cover_thumb_small_key'),
    coverThumbMediumKey: text('cover_thumb_medium_key'),
    rejectionReason: text('rejection_reason'),
    takedownRequested: boolean('takedown_requested').notNull().default(false),
    takedownRequestedAt: timestamp('takedown_requested_at', { withTimezone: true }),
    /** Client-chosen key so a double click or a retried submission makes one release. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'releases_status_check',
      inList('status', ['pending', 'processing', 'approved', 'live', 'rejected', 'taken_down', 'deleted']),
    ),
    check('releases_copyright_year_check', sql`copyright_year >= 1900`),
    check('releases_publishing_year_check', sql`publishing_year >= 1900`),
    check('releases_upc_check', sql`upc is null or upc ~ '^[0-9]{12,13}$'`),
    index('releases_user_created_id_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('releases_status_created_idx').on(t.status, t.createdAt.desc()),
    index('releases_takedown_idx').on(t.createdAt.desc()).where(sql`takedown_requested`),
    uniqueIndex('releases_user_idempotency_key').on(t.userId, t.idempotencyKey),
    // Review tabs (migration 0008): one partial index per tab in the tab's order; trigram search.
    index('releases_review_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`status in ('pending', 'processing')`),
    index('releases_review_approved_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`status in ('approved', 'live')`),
    index('releases_review_rejected_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`status = 'rejected'`),
    index('releases_review_takendown_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`status in ('taken_down', 'deleted')`),
    index('releases_review_takedown_idx').on(t.takedownRequestedAt, t.id).where(sql`takedown_requested`),
    index('releases_search_trgm_idx').using(
      'gin',
      sql`tunedrop_release_search_text(${t.title}, ${t.primaryArtists}) gin_trgm_ops`,
    ),
  ],
);

/**
 * Tab counts kept by statement triggers on releases (migration 0008): each statement appends what it
 * changed per (status, takedown flag); the review list sums these rows and folds them up when they grow.
 */
export const releaseCountDeltas = pgTable('release_count_deltas', {
  status: text('status').$type<ReleaseStatus>().notNull(),
  takedownRequested: boolean('takedown_requested').notNull(),
  delta: bigint('delta', { mode: 'number' }).notNull(),
});

/** The same for profiles per (plan, banned), read by the admin user list's tab counts. */
export const profileCountDeltas = pgTable('profile_count_deltas', {
  plan: text('plan').$type<Plan>().notNull(),
  banned: boolean('banned').notNull(),
  delta: bigint('delta', { mode: 'number' }).notNull(),
});

export const tracks = pgTable(
  'tracks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    isrc: text('isrc'),
    explicit: boolean('explicit').notNull().default(false),
    /** Duration in milliseconds, read from the WAV header. */
    durationMs: integer('duration_ms'),
    fileKey: text('file_key').notNull(),
    originalFileName: text('original_file_name').notNull(),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }).notNull(),
    sampleRate: integer('sample_rate'),
    bitDepth: integer('bit_depth'),
    channels: integer('channels'),
    primaryArtistsData: jsonb('primary_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    featuredArtistsData: jsonb('featured_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    check('tracks_isrc_check', sql`isrc is null or isrc ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'`),
    check('tracks_position_check', sql`position between 1 and 20`),
    index('tracks_release_idx').on(t.releaseId, t.position),
    uniqueIndex('tracks_isrc_unique').on(t.isrc),
  ],
);

export const songwriters = pgTable(
  'songwriters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
    role: text('role').$type<SongwriterRole>().notNull().default('music_and_lyrics'),
  },
  (t) => [
    check('songwriters_role_check', inList('role', ['music', 'lyrics', 'music_and_lyrics'])),
    index('songwriters_track_idx').on(t.trackId),
  ],
);

export const producers = pgTable(
  'producers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
  },
  (t) => [index('producers_track_idx').on(t.trackId)],
);

/** Files received through tus: staged, checked by content, then moved into storage. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<UploadKind>().notNull(),
    originalName: text('original_name').notNull(),
    sanitizedName: text('sanitized_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    status: text('status').$type<Exclude<UploadInfo['status'], 'missing'>>().notNull().default('uploading'),
    storageKey: text('storage_key'),
    thumbSmallKey: text('thumb_small_key'),
    thumbMediumKey: text('thumb_medium_key'),
    /** What the content check read: pixels for images; sample rate, bit depth, channels, duration for audio. */
    details: jsonb('details').$type<Record<string, number | string>>(),
    error: text('error'),
    releaseId: uuid('release_id').references(() => releases.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('uploads_kind_check', inList('kind', ['cover', 'audio'])),
    check('uploads_status_check', inList('status', ['uploading', 'checked', 'rejected', 'consumed'])),
    index('uploads_user_idx').on(t.userId, t.createdAt.desc()),
    index('uploads_status_updated_idx').on(t.status, t.updatedAt),
  ],
);

/** The builder's draft, one per user, so a reload or a later visit restores the wizard. */
export const releaseDrafts = pgTable('release_drafts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  updatedAt: updatedAt(),
});

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
    check('withdrawal_requests_method_check', inList('payment_method', ['bank', 'paypal'])),
    check(
      'withdrawal_requests_status_check',
      inList('status', ['pending', 'completed', 'rejected', 'cancelled']),
    ),
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
    check(
      'balance_updates_log_type_check',
      inList('update_type', [
        'manual',
        'bulk_csv',
        'cli',
        'withdrawal_request',
        'withdrawal_cancel',
        'withdrawal_refund',
        'royalty_import',
        'split_release',
        'split_return',
      ]),
    ),
    check(
      'balance_updates_log_royalty_import_consistent',
      sql`(update_type in ('royalty_import', 'split_return')) = (royalty_import_id is not null)`,
    ),
    check('balance_updates_log_non_negative', sql`old_balance_cents >= 0 and new_balance_cents >= 0`),
    index('balance_updates_log_user_created_idx').on(t.userId, t.createdAt),
    index('balance_updates_log_created_idx').on(t.createdAt.desc()),
  ],
);

// ---------------------------------------------------------------- billing

/** Provider events seen, by id, so a replayed webhook is a no-op. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Checkout sessions of the built-in payment sandbox. */
export const sandboxCheckouts = pgTable(
  'sandbox_checkouts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    plan: text('plan').$type<Plan>().notNull(),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    status: text('status').$type<'open' | 'paid' | 'canceled'>().notNull().default('open'),
    createdAt: createdAt(),
  },
  () => [
    check('sandbox_checkouts_plan_check', inList('plan', ['basic', 'pro'])),
    check('sandbox_checkouts_status_check', inList('status', ['open', 'paid', 'canceled'])),
  ],
);

// ---------------------------------------------------------------- site, mail, audit

export const contactRequests = pgTable(
  'contact_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    companyName: text('company_name').notNull(),
    email: text('email').notNull(),
    links: text('links').array().notNull().default(sql`'{}'::text[]`),
    clientAddress: text('client_address'),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: text('handled_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_requests_created_idx').on(t.createdAt.desc())],
);

/** Mail written in the same transaction as the change that causes it; a worker sends it. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('mail_outbox_status_check', inList('status', ['pending', 'sent', 'failed'])),
    index('mail_outbox_pending_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/** Who did what to which release or user, with the state before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    releaseId: uuid('release_id'),
    subjectUserId: text('subject_user_id'),
    withdrawalRequestId: uuid('withdrawal_request_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt.desc()),
    index('audit_log_release_idx').on(t.releaseId),
    index('audit_log_subject_user_idx').on(t.subjectUserId),
    index('audit_log_actor_idx').on(t.actorId),
  ],
);

// ---------------------------------------------------------------- delivery (issue 15, migration 0004)

/** Operator settings (codes, DDEX sender); the server's DDEX_* variables are the defaults. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value'),
  updatedBy: text('updated_by'),
  updatedAt: updatedAt(),
});

/** Last number handed out per ISRC registrant+year or UPC prefix; only ever goes up (never reused). */
export const codeCounters = pgTable(
  'code_counters',
  {
    kind: text('kind').notNull().$type<'isrc' | 'upc'>(),
    scope: text('scope').notNull(),
    lastValue: bigint('last_value', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'code_counters_pk', columns: [t.kind, t.scope] }),
    check('code_counters_kind_check', inList('kind', ['isrc', 'upc'])),
  ],
);

/** Every code ever given out or accepted from an artist; rows outlive their release (no foreign key). */
export const assignedCodes = pgTable(
  'assigned_codes',
  {
    kind: text('kind').notNull().$type<'isrc' | 'upc'>(),
    code: text('code').notNull(),
    source: text('source').notNull().$type<'assigned' | 'artist'>(),
    releaseId: uuid('release_id'),
    trackId: uuid('track_id'),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'assigned_codes_pk', columns: [t.kind, t.code] }),
    check('assigned_codes_kind_check', inList('kind', ['isrc', 'upc'])),
    check('assigned_codes_source_check', inList('source', ['assigned', 'artist'])),
    index('assigned_codes_release_idx').on(t.releaseId),
  ],
);

export const deliveryTargets = pgTable(
  'delivery_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    scheme: text('scheme').notNull().$type<TargetScheme>(),
    urlMasked: text('url_masked').notNull(),
    /** AES-256-GCM (lib/crypto.ts) of the URL with its password, key and S3 credentials. */
    secret: text('secret').notNull(),
    dpid: text('dpid').notNull(),
    /** null = all platforms. */
    platforms: text('platforms').array().$type<PlatformId[] | null>(),
    profile: text('profile').notNull().default('release').$type<TargetProfile>(),
    enabled: boolean('enabled').notNull().default(true),
    hasPassword: boolean('has_password').notNull().default(false),
    hasPrivateKey: boolean('has_private_key').notNull().default(false),
    hasOwnS3: boolean('has_own_s3').notNull().default(false),
    /** SFTP host key pin, `SHA256:…` as OpenSSH prints it (record 153); null until given or first seen. */
    hostKeySha256: text('host_key_sha256'),
    hostKeyRecordedAt: timestamp('host_key_recorded_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('delivery_targets_scheme_check', inList('scheme', ['sftp', 's3', 'file'])),
    check('delivery_targets_profile_check', inList('profile', ['release', 'batch'])),
    uniqueIndex('delivery_targets_name_unique').on(sql`lower(${t.name})`).where(sql`deleted_at is null`),
  ],
);

/** One row per release per target: the state machine of record 102. */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    targetId: uuid('target_id')
      .notNull()
      .references(() => deliveryTargets.id, { onDelete: 'restrict' }),
    action: text('action').notNull().default('new').$type<DeliveryAction>(),
    state: text('state').notNull().default('queued').$type<DeliveryState>(),
    platforms: text('platforms').array().notNull().default(sql`'{}'::text[]`).$type<PlatformId[]>(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(6),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    leaseOwner: text('lease_owner'),
    /** New per claim; renewals and every state change after the upload match owner and id (record 154). */
    leaseId: uuid('lease_id'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('deliveries_action_check', inList('action', ['new', 'update', 'takedown'])),
    check('deliveries_state_check', inList('state', DELIVERY_STATES)),
    uniqueIndex('deliveries_release_target_unique').on(t.releaseId, t.targetId),
    index('deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`state in ('queued', 'takedown_queued', 'uploading')`),
    index('deliveries_state_updated_idx').on(t.state, t.updatedAt, t.id),
    index('deliveries_target_idx').on(t.targetId, t.updatedAt, t.id),
  ],
);

export type DeliveredFile = { name: string; key: string | null; md5: string; bytes: number };

export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    action: text('action').notNull().$type<DeliveryAction>(),
    messageId: text('message_id').notNull(),
    batchId: text('batch_id'),
    remotePath: text('remote_path'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    outcome: text('outcome').notNull().default('running').$type<'running' | 'uploaded' | 'failed'>(),
    error: text('error'),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    messageXml: text('message_xml').notNull().default(''),
    files: jsonb('files').$type<DeliveredFile[]>().notNull().default([]),
  },
  (t) => [
    check('delivery_attempts_outcome_check', inList('outcome', ['running', 'uploaded', 'failed'])),
    uniqueIndex('delivery_attempts_message_id_unique').on(t.messageId),
    index('delivery_attempts_delivery_idx').on(t.deliveryId, t.number),
  ],
);

export const deliveryAcks = pgTable(
  'delivery_acks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    targetId: uuid('target_id')
      .notNull()
      .references(() => deliveryTargets.id, { onDelete: 'cascade' }),
    deliveryId: uuid('delivery_id').references(() => deliveries.id, { onDelete: 'set null' }),
    attemptId: uuid('attempt_id').references(() => deliveryAttempts.id, { onDelete: 'set null' }),
    remotePath: text('remote_path').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    outcome: text('outcome').notNull().$type<AckView['outcome']>(),
    messageId: text('message_id'),
    status: text('status'),
    errorText: text('error_text'),
    text: text('text').notNull().default(''),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'delivery_acks_outcome_check',
      inList('outcome', ['accepted', 'rejected', 'unknown_message', 'malformed']),
    ),
    uniqueIndex('delivery_acks_target_path_unique').on(t.targetId, t.remotePath),
    index('delivery_acks_attempt_idx').on(t.attemptId),
  ],
);

export const releaseStoreTakedowns = pgTable(
  'release_store_takedowns',
  {
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    platformId: text('platform_id').notNull().$type<PlatformId>(),
    state: text('state').notNull().default('requested').$type<'requested' | 'approved' | 'done'>(),
    requestedBy: text('requested_by'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'release_store_takedowns_pk', columns: [t.releaseId, t.platformId] }),
    check('release_store_takedowns_state_check', inList('state', ['requested', 'approved', 'done'])),
  ],
);

export const releaseStatusEvents = pgTable(
  'release_status_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('release_status_events_release_idx').on(t.releaseId, t.at)],
);

// ---------------------------------------------------------------- royalties (issue 16, migration 0005)

type Royalties = typeof import('@tunedrop/shared/schemas/royalties');
type RoyaltySourceFormat = Exclude<Royalties['ROYALTY_FORMATS'][number], 'auto'>;
type RoyaltyImportStatus = Royalties['ROYALTY_IMPORT_STATUSES'][number];
type CsvMapping = import('@tunedrop/shared/schemas/royalties').CsvMapping;
type RoyaltyImportPhase = Royalties['ROYALTY_IMPORT_PHASES'][number];
/** What an upload asked for, kept for its job (migration 0018). */
type RoyaltyImportOptions = {
  format: Royalties['ROYALTY_FORMATS'][number];
  rate?: string | undefined;
  currency?: string | undefined;
  presetId?: string | undefined;
};

/** One imported sales report (a DSR file, an aggregator statement or a mapped CSV). Amounts are exact decimals. */
export const royaltyImports = pgTable(
  'royalty_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileName: text('file_name').notNull(),
    fileSha256: text('file_sha256').notNull(),
    format: text('format').$type<RoyaltySourceFormat>().notNull(),
    status: text('status').$type<RoyaltyImportStatus | 'staging'>().notNull().default('staging'),
    currency: text('currency'),
    exchangeRate: numeric('exchange_rate'),
    sender: text('sender'),
    messageId: text('message_id'),
    fileNumber: integer('file_number'),
    periodStart: date('period_start'),
    periodEnd: date('period_end'),
    lineCount: integer('line_count').notNull().default(0),
    refusedCount: integer('refused_count').notNull().default(0),
    errors: jsonb('errors').$type<string[]>().notNull().default([]),
    warnings: jsonb('warnings').$type<string[]>().notNull().default([]),
    refused: jsonb('refused').$type<{ line: number; reason: string }[]>().notNull().default([]),
    totals: jsonb('totals'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    postedBy: text('posted_by').references(() => user.id, { onDelete: 'set null' }),
    postedCents: cents('posted_cents'),
    residue: numeric('residue'),
    postedArtists: integer('posted_artists'),
    /** Where the import's job is (migration 0018, decision 161); `status` stays the rule for posting. */
    phase: text('phase').$type<RoyaltyImportPhase>().notNull().default('queued'),
    linesRead: integer('lines_read').notNull().default(0),
    /** The file's lines, counted in a first pass before parsing. */
    linesTotal: integer('lines_total'),
    /** The amounts of the lines read so far, in the report currency. */
    amountRead: numeric('amount_read'),
    linesPosted: integer('lines_posted').notNull().default(0),
    /** The uploaded file in storage until its lines are staged. */
    fileKey: text('file_key'),
    options: jsonb('options').$type<RoyaltyImportOptions>(),
    /** Why the last posting did not go through (the import stays ready to post). */
    postError: text('post_error'),
    progressAt: timestamp('progress_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'royalty_imports_phase_check',
      inList('phase', ['queued', 'reading', 'staging', 'ready', 'posting', 'posted', 'failed']),
    ),
    check('royalty_imports_format_check', inList('format', ['dsr', 'distrokid', 'tunecore', 'fuga', 'csv'])),
    check('royalty_imports_status_check', inList('status', ['staging', 'staged', 'failed', 'posted'])),
    check('royalty_imports_posted_consistent', sql`(status = 'posted') = (posted_at is not null)`),
    // Only imports that reached 'staged' or 'posted' hold their file and message (migration 0011, decision 152).
    uniqueIndex('royalty_imports_file_sha256_unique')
      .on(t.fileSha256)
      .where(sql`status in ('staged', 'posted')`),
    uniqueIndex('royalty_imports_message_unique')
      .on(t.sender, t.messageId, t.fileNumber)
      .where(sql`message_id is not null and status in ('staged', 'posted')`),
    index('royalty_imports_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

/** A DSR summary record's revenue, allocated to its sales lines by usages (decision 111). */
export const royaltyImportSummaries = pgTable(
  'royalty_import_summaries',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'cascade' }),
    summaryId: text('summary_id').notNull(),
    netRevenue: numeric('net_revenue').notNull(),
    usages: numeric('usages'),
  },
  (t) => [primaryKey({ name: 'royalty_import_summaries_pk', columns: [t.importId, t.summaryId] })],
);

/** Staged sales lines of an import; amount is null when it comes from the summary's revenue. */
export const royaltyImportLines = pgTable(
  'royalty_import_lines',
  {
    /** No foreign key (decision 114): the service deletes a report's lines with it. */
    importId: uuid('import_id').notNull(),
    lineNo: integer('line_no').notNull(),
    lineKey: text('line_key').notNull(),
    summaryId: text('summary_id'),
    isrc: text('isrc'),
    upc: text('upc'),
    title: text('title'),
    artist: text('artist'),
    store: text('store'),
    country: text('country'),
    period: text('period'),
    usageType: text('usage_type'),
    units: numeric('units').notNull(),
    amount: numeric('amount'),
    royaltyBearing: boolean('royalty_bearing').notNull().default(true),
    trackId: uuid('track_id'),
    releaseId: uuid('release_id'),
    userId: text('user_id'),
  },
  (t) => [
    primaryKey({ name: 'royalty_import_lines_pk', columns: [t.importId, t.lineNo] }),
    check('royalty_import_lines_amount_or_summary', sql`amount is not null or summary_id is not null`),
    index('royalty_import_lines_unmatched_idx').on(t.isrc, t.upc).where(sql`user_id is null`),
    index('royalty_import_lines_unallocated_idx').on(t.importId).where(sql`amount is null`),
  ],
);

/** An unknown ISRC/UPC assigned by an admin to a track or release, remembered for later imports. */
export const royaltyCodeMappings = pgTable(
  'royalty_code_mappings',
  {
    kind: text('kind').$type<'isrc' | 'upc'>().notNull(),
    code: text('code').notNull(),
    trackId: uuid('track_id').references(() => tracks.id, { onDelete: 'cascade' }),
    releaseId: uuid('release_id').references(() => releases.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'royalty_code_mappings_pk', columns: [t.kind, t.code] }),
    check('royalty_code_mappings_kind_check', inList('kind', ['isrc', 'upc'])),
    check('royalty_code_mappings_target_check', sql`(track_id is null) <> (release_id is null)`),
  ],
);

/** A generic CSV's column mapping, saved under a name. */
export const royaltyCsvPresets = pgTable(
  'royalty_csv_presets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    delimiter: text('delimiter').notNull().default(','),
    currency: text('currency').notNull().default('USD'),
    mapping: jsonb('mapping').$type<CsvMapping>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('royalty_csv_presets_name_unique').on(sql`lower(${t.name})`)],
);

/** Immutable earnings lines written when a report is posted (a trigger refuses UPDATE and DELETE). */
export const royaltyEarnings = pgTable(
  'royalty_earnings',
  {
    /** No foreign keys (decision 114): royalty_postings, one row per artist and report, holds them. */
    importId: uuid('import_id').notNull(),
    lineNo: integer('line_no').notNull(),
    lineKey: text('line_key').notNull(),
    userId: text('user_id').notNull(),
    trackId: uuid('track_id'),
    releaseId: uuid('release_id'),
    store: text('store'),
    country: text('country'),
    period: text('period').notNull(),
    usageType: text('usage_type'),
    units: numeric('units').notNull(),
    amount: numeric('amount').notNull(),
    amountUsd: numeric('amount_usd').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'royalty_earnings_pk', columns: [t.importId, t.lineNo] }),
    index('royalty_earnings_user_period_idx').on(t.userId, t.period),
  ],
);

/** Sums of the earnings lines a posting in chunks has written so far (migration 0018, decision 162). */
export const royaltyPostingGroups = pgTable(
  'royalty_posting_groups',
  {
    importId: uuid('import_id').notNull(),
    userId: text('user_id').notNull(),
    releaseId: uuid('release_id'),
    trackId: uuid('track_id'),
    period: text('period').notNull(),
    amount: numeric('amount').notNull(),
    lines: bigint('lines', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('royalty_posting_groups_key')
      // NULLS NOT DISTINCT in migration 0018 (a group without a track is still one group).
      .on(t.importId, t.userId, t.releaseId, t.trackId, t.period),
  ],
);

/** What one posting credited one artist: the exact USD sum and the cents put on the balance. */
export const royaltyPostings = pgTable(
  'royalty_postings',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    amountUsd: numeric('amount_usd').notNull(),
    cents: cents('cents').notNull(),
    lines: integer('lines').notNull(),
    /** Cents of this artist's lines moved to split payees (paid or held), decision 140. */
    splitOutCents: cents('split_out_cents').notNull().default(0),
    /** Cents received as a split payee (accepted shares) in this posting. */
    splitInCents: cents('split_in_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'royalty_postings_pk', columns: [t.importId, t.userId] }),
    index('royalty_postings_user_idx').on(t.userId),
  ],
);

// ---------------------------------------------------------------- royalty splits (issue 17, decision 140)

/** A collaborator invited to share a release's earnings; the mail's token is stored hashed. */
export const splitPayees = pgTable(
  'split_payees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    userId: text('user_id').references(() => user.id, { onDelete: 'restrict' }),
    status: text('status').$type<'pending' | 'accepted' | 'withdrawn'>().notNull().default('pending'),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [
    check('split_payees_status_check', inList('status', ['pending', 'accepted', 'withdrawn'])),
    check(
      'split_payees_accepted_consistent',
      sql`(status = 'accepted') = (user_id is not null and accepted_at is not null)`,
    ),
    check('split_payees_withdrawn_consistent', sql`(status = 'withdrawn') = (withdrawn_at is not null)`),
    uniqueIndex('split_payees_release_email_unique')
      .on(t.releaseId, sql`lower(${t.email})`)
      .where(sql`status <> 'withdrawn'`),
    uniqueIndex('split_payees_token_unique').on(t.tokenHash),
    index('split_payees_user_idx').on(t.userId),
  ],
);

/** One immutable version of a split: a release's default (track null) or one track's own split. */
export const splitVersions = pgTable(
  'split_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    trackId: uuid('track_id').references(() => tracks.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    ownerPercent: numeric('owner_percent', { precision: 5, scale: 2 }).notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    check('split_versions_owner_percent_check', sql`owner_percent >= 0 and owner_percent <= 100`),
    check('split_versions_version_check', sql`version >= 1`),
    uniqueIndex('split_versions_target_version_unique').on(
      t.releaseId,
      sql`coalesce(${t.trackId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.version,
    ),
    index('split_versions_release_created_idx').on(t.releaseId, t.createdAt.desc()),
  ],
);

export const splitShares = pgTable(
  'split_shares',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => splitVersions.id, { onDelete: 'cascade' }),
    payeeId: uuid('payee_id')
      .notNull()
      .references(() => splitPayees.id, { onDelete: 'cascade' }),
    percent: numeric('percent', { precision: 5, scale: 2 }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'split_shares_pk', columns: [t.versionId, t.payeeId] }),
    check('split_shares_percent_check', sql`percent >= 0.01 and percent <= 100`),
    index('split_shares_payee_idx').on(t.payeeId),
  ],
);

/** Expenses the owner recoups from the release's earnings before splits apply. */
export const releaseExpenses = pgTable(
  'release_expenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    amountCents: cents('amount_cents').notNull(),
    description: text('description').notNull(),
    spentOn: date('spent_on').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    check('release_expenses_amount_check', sql`amount_cents > 0`),
    index('release_expenses_release_idx').on(t.releaseId, t.spentOn),
  ],
);

/**
 * One row per split invitation mail (record 147): the limits per sender and per invited address count
 * these. No foreign key to the release, so deleting one gives no quota back.
 */
export const splitInvitationSends = pgTable(
  'split_invitation_sends',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    senderId: text('sender_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    releaseId: uuid('release_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    index('split_invitation_sends_sender_idx').on(t.senderId, t.createdAt),
    index('split_invitation_sends_email_idx').on(t.email, t.createdAt),
  ],
);

export const splitRecoupments = pgTable(
  'split_recoupments',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'restrict' }),
    ownerId: text('owner_id').notNull(),
    cents: cents('cents').notNull(),
  },
  (t) => [
    primaryKey({ name: 'split_recoupments_pk', columns: [t.importId, t.releaseId] }),
    check('split_recoupments_cents_check', sql`cents > 0`),
    index('split_recoupments_release_idx').on(t.releaseId),
  ],
);

export const splitAllocations = pgTable(
  'split_allocations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    ownerId: text('owner_id').notNull(),
    releaseId: uuid('release_id').notNull(),
    trackId: uuid('track_id'),
    period: text('period').notNull(),
    kind: text('kind').$type<'recoupment' | 'share'>().notNull(),
    versionId: uuid('version_id'),
    payeeId: uuid('payee_id').references(() => splitPayees.id, { onDelete: 'restrict' }),
    percent: numeric('percent', { precision: 5, scale: 2 }),
    groupUsd: numeric('group_usd').notNull(),
    baseUsd: numeric('base_usd').notNull(),
    amountUsd: numeric('amount_usd').notNull(),
    held: boolean('held').notNull().default(false),
  },
  (t) => [
    check('split_allocations_kind_check', inList('kind', ['recoupment', 'share'])),
    check(
      'split_allocations_share_consistent',
      sql`(kind = 'share') = (payee_id is not null and version_id is not null and percent is not null)`,
    ),
    index('split_allocations_import_idx').on(t.importId),
    index('split_allocations_payee_idx').on(t.payeeId),
    index('split_allocations_release_idx').on(t.releaseId),
  ],
);

export const splitSettlements = pgTable(
  'split_settlements',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    payeeId: uuid('payee_id')
      .notNull()
      .references(() => splitPayees.id, { onDelete: 'restrict' }),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    payeeUserId: text('payee_user_id').references(() => user.id, { onDelete: 'restrict' }),
    amountUsd: numeric('amount_usd').notNull(),
    cents: cents('cents').notNull(),
    held: boolean('held').notNull(),
    releasedTo: text('released_to').$type<'payee' | 'owner'>(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedImportId: uuid('released_import_id'),
  },
  (t) => [
    primaryKey({ name: 'split_settlements_pk', columns: [t.importId, t.payeeId] }),
    check('split_settlements_released_check', sql`released_to is null or released_to in ('payee', 'owner')`),
    check(
      'split_settlements_release_consistent',
      sql`(released_to is null) = (released_at is null) and (released_to is null or held)`,
    ),
    check('split_settlements_paid_has_user', sql`held or payee_user_id is not null`),
    index('split_settlements_payee_user_idx').on(t.payeeUserId),
    index('split_settlements_unreleased_idx').on(t.payeeId).where(sql`held and released_to is null`),
  ],
);

// ---------------------------------------------------------------- support (issue 28, migration 0026)

/** A signed-in user's message to support, with the plan and reply-by time it was sent under (record 173). */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    plan: text('plan').$type<Plan>().notNull(),
    /** The operator's zone the reply-by time was counted in, kept so a later change moves no promise. */
    timeZone: text('time_zone').notNull(),
    replyBy: timestamp('reply_by', { withTimezone: true }).notNull(),
    /** Set by the first staff reply; the message then leaves the open list. */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('support_messages_plan_check', inList('plan', ['basic', 'pro'])),
    index('support_messages_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('support_messages_open_reply_by_idx').on(t.replyBy, t.id).where(sql`${t.answeredAt} is null`),
    index('support_messages_answered_idx')
      .on(t.answeredAt.desc(), t.id)
      .where(sql`${t.answeredAt} is not null`),
  ],
);

/** A staff reply, mailed to the message's author through the outbox in the same transaction. */
export const supportReplies = pgTable(
  'support_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => supportMessages.id, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => user.id, { onDelete: 'set null' }),
    /** The name shown in the thread, kept if the staff account goes away. */
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('support_replies_message_created_idx').on(t.messageId, t.createdAt)],
);
