import { MEMBER_ROLES, type MemberRole } from '@tunedrop/shared/schemas/team';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList } from './columns';

// ---------------------------------------------------------------- team (issue 27, migration 0056)

/**
 * A person's membership of an account (record 202): `account_id` is the founder's user id (the account),
 * `user_id` the member. The owner is never a row; after a transfer (record 205) the founder may be one.
 */
export const accountMembers = pgTable(
  'account_members',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    invitedBy: text('invited_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.userId] }),
    index('account_members_user_idx').on(t.userId),
    check('account_members_role_check', inList('role', MEMBER_ROLES)),
  ],
);

/**
 * The owner of an account whose ownership was transferred (record 205, migration 0059); no row: the founder
 * (the account's id) owns it. The owner is never a member row of the account (the service keeps it so).
 */
export const accountOwners = pgTable(
  'account_owners',
  {
    accountId: text('account_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    transferredAt: timestamp('transferred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_owners_owner_idx').on(t.ownerId)],
);

/** An invitation to join an account with a role; the token is stored hashed, the mail holds the only copy. */
export const accountInvitations = pgTable(
  'account_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => user.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => user.id, { onDelete: 'set null' }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_invitations_token_idx').on(t.tokenHash),
    index('account_invitations_account_idx').on(t.accountId),
    check('account_invitations_role_check', inList('role', MEMBER_ROLES)),
  ],
);

/** One row per team invitation mail: the limits per account and per invited address count these. */
export const accountInvitationSends = pgTable(
  'account_invitation_sends',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: text('account_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    index('account_invitation_sends_account_idx').on(t.accountId, t.createdAt),
    index('account_invitation_sends_email_idx').on(t.email, t.createdAt),
  ],
);
