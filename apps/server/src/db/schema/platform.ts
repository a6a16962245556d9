import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList } from './columns';

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

/**
 * Who did what to which release, user, report, setting or target, with the state before and after. `action`
 * is the kind (AUDIT_KINDS in packages/shared/src/schemas/audit.ts); names are stored at write time.
 */
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
    /** The account a team member acted for (record 202); null when the actor acted for their own. */
    accountId: text('account_id'),
    /** What the action was about (record 191): a type, its id, and its name at write time. */
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    subjectLabel: text('subject_label'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt.desc()),
    index('audit_log_action_created_idx').on(t.action, t.createdAt.desc()),
    index('audit_log_release_idx').on(t.releaseId),
    index('audit_log_subject_user_idx').on(t.subjectUserId),
    index('audit_log_actor_idx').on(t.actorId),
  ],
);

// ---------------------------------------------------------------- job engine

/**
 * A job run in progress and its worker's last heartbeat (record 217): a run not refreshed for 30 s is
 * taken over by another worker. Keyed by the job and the run's start (a retry keeps the job's id).
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    jobId: uuid('job_id').notNull(),
    startedOn: timestamp('started_on', { withTimezone: true }).notNull(),
    queue: text('queue').notNull(),
    worker: text('worker').notNull(),
    beatAt: timestamp('beat_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'job_runs_pkey', columns: [t.jobId, t.startedOn] }),
    index('job_runs_worker_idx').on(t.worker),
  ],
);
