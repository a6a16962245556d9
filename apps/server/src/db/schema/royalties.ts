import { ROYALTY_FORMATS, ROYALTY_IMPORT_PHASES } from '@tunedrop/shared/schemas/royalties';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
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
import { user } from './auth';
import { cents, createdAt, inList, updatedAt } from './columns';
import { releases, tracks } from './releases';

// ---------------------------------------------------------------- royalties (issue 16, migration 0005)

type Royalties = typeof import('@tunedrop/shared/schemas/royalties');
type RoyaltySourceFormat = Exclude<Royalties['ROYALTY_FORMATS'][number], 'auto'>;
type RoyaltyImportStatus = Royalties['ROYALTY_IMPORT_STATUSES'][number];
type CsvMapping = import('@tunedrop/shared/schemas/royalties').CsvMapping;
type RoyaltyImportPhase = Royalties['ROYALTY_IMPORT_PHASES'][number];
type RoyaltyImportOverlap = import('@tunedrop/shared/schemas/royalties').ImportOverlap;
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
    /** Lines already posted by other reports, left out unless an admin included them (migration 0040, decision 186). */
    overlap: jsonb('overlap').$type<RoyaltyImportOverlap>(),
    /** Set on the small posting that pays out suspense money later: the report the money came from (0042). */
    suspenseOf: uuid('suspense_of').references((): AnyPgColumn => royaltyImports.id, {
      onDelete: 'restrict',
    }),
  },
  (t) => [
    check('royalty_imports_phase_check', inList('phase', ROYALTY_IMPORT_PHASES)),
    check(
      'royalty_imports_format_check',
      inList(
        'format',
        ROYALTY_FORMATS.filter((format) => format !== 'auto'),
      ),
    ),
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
    /**
     * The sale's identity across files (migration 0040, decision 186): staging computes it; a line
     * inserted without one gets a random identity that repeats nothing.
     */
    lineIdentity: uuid('line_identity').notNull().defaultRandom(),
    /** The report that already posted this line's identity: the line is left out of posting. */
    postedIn: uuid('posted_in'),
  },
  (t) => [
    primaryKey({ name: 'royalty_import_lines_pk', columns: [t.importId, t.lineNo] }),
    check('royalty_import_lines_amount_or_summary', sql`amount is not null or summary_id is not null`),
    index('royalty_import_lines_unmatched_idx').on(t.isrc, t.upc).where(sql`user_id is null`),
    index('royalty_import_lines_unallocated_idx').on(t.importId).where(sql`amount is null`),
    // A report's unmatched lines, read twice when it is posted (suspense, their identities; record 189 bench).
    index('royalty_import_lines_import_unmatched_idx').on(t.importId, t.lineNo).where(sql`user_id is null`),
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
    /** The staged line's identity (migration 0040); royalty_posted_lines holds it uniquely. */
    lineIdentity: uuid('line_identity'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'royalty_earnings_pk', columns: [t.importId, t.lineNo] }),
    index('royalty_earnings_user_period_idx').on(t.userId, t.period),
  ],
);

/**
 * The identity of every posted sales line, matched or unmatched (migration 0040, decision 186): its
 * primary key refuses a sale that a later file repeats from being posted a second time.
 */
export const royaltyPostedLines = pgTable('royalty_posted_lines', {
  lineIdentity: uuid('line_identity').primaryKey(),
  importId: uuid('import_id').notNull(),
  lineNo: integer('line_no').notNull(),
});

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
    /** Cents of this artist's lines moved to split payees (paid or held), decision 317. */
    splitOutCents: cents('split_out_cents').notNull().default(0),
    /** Cents received as a split payee (accepted shares) in this posting. */
    splitInCents: cents('split_in_cents').notNull().default(0),
    /** The distribution fee in percent applied to this artist's own lines (migration 0043, record 189). */
    feePercent: numeric('fee_percent'),
    /** Cents of the gross kept by the operator as its fee: trunc(gross) − trunc(net), record 189. */
    feeCents: cents('fee_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'royalty_postings_pk', columns: [t.importId, t.userId] }),
    index('royalty_postings_user_idx').on(t.userId),
  ],
);

/**
 * The suspense account (issue 25, migration 0042, decision 188): every unmatched line of a posted report,
 * with its money in the report currency and in USD at the report's rate (exact). 'open' until an admin
 * assigns its code (paid to the artist by a posting of its own, `assigned_import_id`) or releases it to
 * operator revenue with a reason.
 */
export const royaltySuspenseLines = pgTable(
  'royalty_suspense_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'restrict' }),
    lineNo: integer('line_no').notNull(),
    lineKey: text('line_key').notNull(),
    isrc: text('isrc'),
    upc: text('upc'),
    title: text('title'),
    artist: text('artist'),
    store: text('store'),
    country: text('country'),
    period: text('period').notNull(),
    usageType: text('usage_type'),
    units: numeric('units').notNull(),
    amount: numeric('amount').notNull(),
    amountUsd: numeric('amount_usd').notNull(),
    state: text('state').$type<'open' | 'assigned' | 'released'>().notNull().default('open'),
    assignedImportId: uuid('assigned_import_id').references(() => royaltyImports.id, {
      onDelete: 'restrict',
    }),
    userId: text('user_id').references(() => user.id, { onDelete: 'restrict' }),
    trackId: uuid('track_id'),
    releaseId: uuid('release_id'),
    resolvedBy: text('resolved_by').references(() => user.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('royalty_suspense_lines_line_unique').on(t.importId, t.lineNo),
    check('royalty_suspense_lines_state_check', inList('state', ['open', 'assigned', 'released'])),
    check(
      'royalty_suspense_lines_resolved_check',
      sql`(state = 'open') = (resolved_at is null) and (state <> 'assigned' or assigned_import_id is not null) and (state <> 'released' or reason is not null)`,
    ),
    index('royalty_suspense_lines_code_idx').on(t.state, sql`coalesce(${t.isrc}, ${t.upc})`),
  ],
);

// ---------------------------------------------------------------- operator fee (issue 25, migration 0043)

/** The operator's own money (record 189): distribution fees, released suspense, rounding. Exact amounts. */
export const operatorRevenue = pgTable(
  'operator_revenue',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<'fee' | 'suspense_release' | 'rounding'>().notNull(),
    importId: uuid('import_id').references(() => royaltyImports.id, { onDelete: 'restrict' }),
    /** The artist whose earnings bore the fee. */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    period: text('period'),
    cents: cents('cents').notNull(),
    amountUsd: numeric('amount_usd').notNull(),
    reason: text('reason'),
    /** The row it came from (a suspense line for a release). */
    referenceId: uuid('reference_id'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('operator_revenue_kind_check', inList('kind', ['fee', 'suspense_release', 'rounding'])),
    uniqueIndex('operator_revenue_fee_unique').on(t.importId, t.userId).where(sql`kind = 'fee'`),
    index('operator_revenue_import_idx').on(t.importId),
  ],
);

/** A distribution fee set for one account, overriding its plan's (record 189). */
export const accountFees = pgTable('account_fees', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  feePercent: numeric('fee_percent').notNull(),
  updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

/**
 * A sanity warning of a staged report (migration 0041, decision 187): its lines are found again from
 * kind and subject (a release id or an ISRC). Posting is refused while one is neither accepted nor resolved.
 */
export const royaltyImportWarnings = pgTable(
  'royalty_import_warnings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'period_before_release' | 'foreign_isrc'>().notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    lineCount: integer('line_count').notNull(),
    amount: numeric('amount').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => user.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by').references(() => user.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    check('royalty_import_warnings_kind_check', inList('kind', ['period_before_release', 'foreign_isrc'])),
    uniqueIndex('royalty_import_warnings_subject_unique').on(t.importId, t.kind, t.subject),
  ],
);
