import type { PlatformId } from '@tunedrop/shared';
import {
  type AckView,
  DELIVERY_ACTIONS,
  DELIVERY_STATES,
  type DeliveryAction,
  type DeliveryState,
  TARGET_PROFILES,
  TARGET_SCHEMES,
  type TargetProfile,
  type TargetScheme,
} from '@tunedrop/shared/schemas/delivery';
import type { UpdateScope } from '@tunedrop/shared/schemas/release-updates';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
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
import { createdAt, inList, updatedAt } from './columns';
import { releases } from './releases';

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
    check('delivery_targets_scheme_check', inList('scheme', TARGET_SCHEMES)),
    check('delivery_targets_profile_check', inList('profile', TARGET_PROFILES)),
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
    /** What an update resends besides the metadata (record 331); null: metadata only, or not an update. */
    updateScope: jsonb('update_scope').$type<UpdateScope>(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('deliveries_action_check', inList('action', DELIVERY_ACTIONS)),
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
