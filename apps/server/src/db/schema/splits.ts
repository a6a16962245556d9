import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { cents, createdAt, inList } from './columns';
import { releases, tracks } from './releases';
import { royaltyImports } from './royalties';

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
    // Is this address a payee (record 175): pending invitations by address.
    index('split_payees_pending_email_idx').on(sql`lower(${t.email})`).where(sql`status = 'pending'`),
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
