import type { ApiScope } from '@tunedrop/shared/schemas/api-keys';
import {
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
import { user } from './auth';
import { createdAt } from './columns';

// ---------------------------------------------------------------- public API (issue 40, record 290)

/**
 * A key for /api/v1: only the SHA-256 of the key is kept. It acts as `created_by` on `account_id` (the
 * account's owner user id, record 202) with that person's current role there, within `scopes`. The
 * rate-limit window is counted in the row itself (`window_started_at`, `window_count`), so every instance
 * sees one count.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    start: text('start').notNull(),
    scopes: jsonb('scopes').$type<ApiScope[]>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
    windowCount: integer('window_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('api_keys_hash_idx').on(t.keyHash),
    index('api_keys_account_idx').on(t.accountId, t.createdAt),
  ],
);

/**
 * The first answer to a v1 POST per key and `Idempotency-Key` (kept 24 hours): a retry with the same body
 * gets it again, another body is refused. `status` null while the first request still runs.
 */
export const apiIdempotency = pgTable(
  'api_idempotency',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    body: text('body'),
    contentType: text('content_type'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.idempotencyKey] }),
    index('api_idempotency_created_idx').on(t.createdAt),
  ],
);

// ---------------------------------------------------------------- webhooks (issue 40, record 291)

/**
 * An account's webhook endpoint: where events go, which (none listed: all), its `whsec_` secret and, for 24
 * hours after a rotation, the previous one (both sign). A 410 answer disables it.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: jsonb('event_types').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId, t.createdAt)],
);

/** One event (the outbox row), written in the change's transaction; `id` is its `webhook-id` (`msg_…`). */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_messages_account_idx').on(t.accountId, t.createdAt)],
);

/** One message to one endpoint: its state, tries and the last answer (the delivery log). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    state: text('state').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt)],
);
