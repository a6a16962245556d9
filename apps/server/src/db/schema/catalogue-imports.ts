import type {
  CatalogueImportFormat,
  CatalogueImportReport,
  CatalogueImportStatus,
} from '@tunedrop/shared/schemas/catalogue-import';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt } from './columns';

// ------------------------------------------------ catalogue import (issue 26, migration 0054)

/**
 * One run of `catalogue:import` or of the admin page's import (record 200): who ran it (an admin, or
 * `cli:<os user>`), the folder, the chosen owner and the per-release report, kept so the page lists and
 * downloads it later. The releases themselves are ordinary rows; nothing here is needed to deliver them.
 */
export const catalogueImports = pgTable(
  'catalogue_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorUserId: text('actor_user_id').references(() => user.id, { onDelete: 'set null' }),
    actorLabel: text('actor_label').notNull(),
    source: text('source').notNull(),
    format: text('format').$type<CatalogueImportFormat>().notNull(),
    ownerUserId: text('owner_user_id').references(() => user.id, { onDelete: 'set null' }),
    ownerEmail: text('owner_email').notNull(),
    skipReview: boolean('skip_review').notNull(),
    importedCount: integer('imported_count').notNull(),
    refusedCount: integer('refused_count').notNull(),
    report: jsonb('report').$type<CatalogueImportReport>().notNull(),
    /** As a job (migration 0063, record 232): queued, running, done or failed, and how far it is. */
    status: text('status').$type<CatalogueImportStatus>().notNull().default('done'),
    processed: integer('processed').notNull().default(0),
    total: integer('total').notNull().default(0),
    /** The artist profile chosen for the folder (record 233); null: each release's main artist decides. */
    artistProfile: text('artist_profile'),
    createdAt: createdAt(),
  },
  (t) => [
    check('catalogue_imports_format_check', sql`format in ('ern', 'csv', 'none')`),
    check('catalogue_imports_status_check', sql`status in ('queued', 'running', 'done', 'failed')`),
    index('catalogue_imports_created_idx').on(t.createdAt.desc()),
  ],
);
