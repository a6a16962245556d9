/**
 * The whole data model (spec 01 §3 and 02 §3) plus the auth library's tables.
 * Money columns are integer cents; every enum has a CHECK; deletes are deliberate:
 * nothing an artist uploaded or earned disappears through a cascade from a user row.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
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

export const profiles = pgTable(
  'profiles',
  {
    id: text('id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    artistName: text('artist_name').notNull(),
    plan: text('plan').notNull().default('basic'),
    /** A plan change waiting for the next billing cycle (FAQ: effective at the start of the next cycle). */
    pendingPlan: text('pending_plan'),
    balanceCents: cents('balance_cents').notNull().default(0),
    totalEarningsCents: cents('total_earnings_cents').notNull().default(0),
    pendingBalanceCents: cents('pending_balance_cents').notNull().default(0),
    paymentMethod: text('payment_method'),
    /** AES-GCM ciphertext of the payment details JSON; never stored in clear. */
    paymentDetailsEncrypted: text('payment_details_encrypted'),
    banned: boolean('banned').notNull().default(false),
    banReason: text('ban_reason'),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    subscriptionStatus: text('subscription_status').notNull().default('inactive'),
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
    index('profiles_created_at_idx').on(t.createdAt.desc()),
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
    role: text('role').notNull(),
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
    distributionStores: text('distribution_stores').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').notNull().default('pending'),
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
    index('releases_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('releases_status_created_idx').on(t.status, t.createdAt.desc()),
    index('releases_takedown_idx').on(t.createdAt.desc()).where(sql`takedown_requested`),
    uniqueIndex('releases_user_idempotency_key').on(t.userId, t.idempotencyKey),
  ],
);

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
    role: text('role').notNull().default('music_and_lyrics'),
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
    kind: text('kind').notNull(),
    originalName: text('original_name').notNull(),
    sanitizedName: text('sanitized_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('uploading'),
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
    paymentMethod: text('payment_method').notNull(),
    /** AES-GCM ciphertext of the payment details as they were when the request was made. */
    paymentDetailsEncrypted: text('payment_details_encrypted').notNull(),
    status: text('status').notNull().default('pending'),
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
    updateType: text('update_type').notNull(),
    withdrawalRequestId: uuid('withdrawal_request_id').references(() => withdrawalRequests.id, {
      onDelete: 'set null',
    }),
    notes: text('notes'),
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
      ]),
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
    plan: text('plan').notNull(),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    status: text('status').notNull().default('open'),
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
