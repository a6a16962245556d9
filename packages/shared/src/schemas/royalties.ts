/**
 * Royalty import (issue 16): store / aggregator statements in, an earnings ledger out.
 * Input schemas and response shapes shared by the server routes and the web pages.
 *
 * Routes served (apps/server/src/modules/royalty-imports/routes.ts, royalty-posting/routes.ts for the list, retry
 * and posting, statements/routes.ts for the ledger and statements):
 *   Admin (access('admin')):
 *     POST   /api/admin/royalties/imports            streamed upload (raw body = the file, plain or .gz;
 *                                                    query: royaltyImportQuerySchema) → ImportSummary (201)
 *     GET    /api/admin/royalties/imports            ?cursor= → ImportListResponse
 *     GET    /api/admin/royalties/imports/:id        → ImportSummary (totals by store, country, period,
 *                                                    usage type; matched vs unmatched; refused lines)
 *     DELETE /api/admin/royalties/imports/:id        unposted only → { deleted: true }
 *     POST   /api/admin/royalties/imports/:id/post   → PostResult (409 already_posted / not_postable)
 *     POST   /api/admin/royalties/imports/:id/include-overlap  includeOverlapSchema → ImportSummary
 *                                                    (lines already posted elsewhere included; audited)
 *     GET    /api/admin/royalties/unmatched          ?cursor= → UnmatchedListResponse (codes waiting)
 *     POST   /api/admin/royalties/code-mappings      codeMappingSchema → CodeMapping (remembered, re-matches
 *                                                    every unposted import's lines with that code)
 *     GET    /api/admin/royalties/presets            → CsvPreset[]
 *     POST   /api/admin/royalties/presets            csvPresetSchema → CsvPreset (201)
 *     PUT    /api/admin/royalties/presets/:id        csvPresetSchema → CsvPreset
 *     DELETE /api/admin/royalties/presets/:id        → { deleted: true }
 *   Artist (access('user'), every plan):
 *     GET    /api/royalties/ledger                   ?cursor= → LedgerResponse (newest first, running balance)
 *     GET    /api/royalties/statements               → StatementPeriodsResponse
 *     GET    /api/royalties/statements/:period.csv   period = YYYY-MM → text/csv attachment
 *     GET    /api/royalties/statements/:period.pdf   period = YYYY-MM → application/pdf attachment
 *
 * Money: file amounts are exact decimal strings (never floats); cents only after posting.
 */
import { z } from 'zod';
import { safeText } from '../text';

export const ROYALTY_FORMATS = ['auto', 'dsr', 'distrokid', 'tunecore', 'fuga', 'youtube', 'csv'] as const;
export type RoyaltyFormat = (typeof ROYALTY_FORMATS)[number];
/** The format a file was read as (auto resolved). */
export type RoyaltySourceFormat = Exclude<RoyaltyFormat, 'auto'>;

/** staging: still being read or checked (its phase says where); never shown as failed while it may finish. */
export const ROYALTY_IMPORT_STATUSES = ['staging', 'staged', 'failed', 'posted'] as const;
export type RoyaltyImportStatus = (typeof ROYALTY_IMPORT_STATUSES)[number];
/**
 * Where an import's job is (decision 161): waiting for a worker, reading and staging the file's lines,
 * checking and summing them, ready to post, posting, posted, or failed.
 */
export const ROYALTY_IMPORT_PHASES = [
  'queued',
  'reading',
  'staging',
  'ready',
  'posting',
  'posted',
  'failed',
] as const;
export type RoyaltyImportPhase = (typeof ROYALTY_IMPORT_PHASES)[number];
export const ROYALTY_PHASE_LABELS: Record<RoyaltyImportPhase, string> = {
  queued: 'Waiting for a worker',
  reading: 'Reading lines',
  staging: 'Checking totals',
  ready: 'Ready to post',
  posting: 'Posting',
  posted: 'Posted',
  failed: 'Failed',
};
/** How far an import's job has come: lines read of the file's lines (counted first), lines posted. */
export type ImportProgress = {
  phase: RoyaltyImportPhase;
  linesRead: number;
  /** The file's lines, counted in a first pass before parsing; null until counted. */
  linesTotal: number | null;
  /** The amounts of the lines read so far, in the report currency. */
  amountRead: DecimalAmount;
  linesPosted: number;
  /** Why the last posting request did not go through; the import stays ready to post. */
  postError: string | null;
};

export const LEDGER_ENTRY_KINDS = ['earnings', 'withdrawal', 'withdrawal_refund', 'adjustment'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

/** The canonical fields a generic CSV column mapping can fill. */
export const CSV_MAPPING_FIELDS = [
  'isrc',
  'upc',
  'store',
  'country',
  'period',
  'usageType',
  'units',
  'amount',
  'currency',
  'lineId',
] as const;
export type CsvMappingField = (typeof CSV_MAPPING_FIELDS)[number];

export const ROYALTY_LIMITS = {
  /** 4 GB uncompressed is the DSR maximum (Part 1 §6.6.13); the upload itself may be gzip. */
  maxUploadBytes: 4_000_000_000,
  /** Refused lines kept per import (the count is exact, the list is capped). */
  maxRefusedListed: 1000,
  pageSize: 50,
  /** Default of ROYALTY_MAX_LINE_BYTES: the longest report line (DSR records are a few hundred bytes). */
  maxLineBytes: 64 * 1024,
  /** Default of ROYALTY_MAX_DECOMPRESSED_BYTES: twice the DSR maximum, so a gzip bomb stops early. */
  maxDecompressedBytes: 8 * 1024 ** 3,
  /** A line's amount (and a DSR summary's revenue) in the report currency is below this (decision 152). */
  maxLineAmount: 1_000_000_000_000,
  /** A quantity (units, usages, streams) is below this. */
  maxUnits: 1_000_000_000_000_000,
  /** Decimal places an amount or quantity may have (numeric keeps more, nothing real needs them). */
  maxDecimals: 20,
  /** The report's amounts (absolute) in USD at its rate add up to at most this (decision 152). */
  maxReportUsd: 100_000_000_000,
  /** The exchange rate to USD (1 unit of the report currency = rate USD) is within these bounds. */
  minExchangeRate: '0.000000001',
  maxExchangeRate: '1000',
} as const;

const decimalText = /^-?\d+(\.\d+)?$/;

/**
 * An exchange rate to USD (1 unit of the report currency = rate USD), exact decimal text. The bounds hold
 * every currency's real rate (IRR ≈ 0.00002, KWD ≈ 3.3) and keep a report's USD total storable (decision 152).
 */
export const exchangeRateSchema = safeText()
  .trim()
  .max(40, 'The exchange rate must be a decimal number such as 1.0825')
  .regex(decimalText, 'The exchange rate must be a decimal number such as 1.0825')
  .refine((value) => Number(value) > 0, 'The exchange rate must be above 0')
  .refine(
    (value) =>
      Number(value) >= Number(ROYALTY_LIMITS.minExchangeRate) &&
      Number(value) <= Number(ROYALTY_LIMITS.maxExchangeRate) &&
      (value.split('.')[1]?.length ?? 0) <= ROYALTY_LIMITS.maxDecimals,
    `The exchange rate must be between ${ROYALTY_LIMITS.minExchangeRate} and ${ROYALTY_LIMITS.maxExchangeRate} USD per unit of the report currency`,
  );

/** Query of POST /api/admin/royalties/imports (the body is the file itself). */
export const royaltyImportQuerySchema = z.object({
  format: z.enum(ROYALTY_FORMATS).default('auto'),
  /** Exchange rate to USD (1 unit of the report currency = rate USD); required for non-USD reports
   * unless the file gives one. Exact decimal text. */
  rate: exchangeRateSchema.optional(),
  /** ISO 4217 currency of the amounts when the file does not say (CSV presets). */
  currency: safeText()
    .trim()
    .regex(/^[A-Za-z]{3}$/, 'The currency must be a three-letter ISO 4217 code')
    .transform((value) => value.toUpperCase())
    .optional(),
  /** A saved CSV preset's id (format csv). */
  preset: z.uuid('Unknown preset').optional(),
  /** The original file name (the body carries only bytes). */
  filename: safeText().trim().max(255).optional(),
});
export type RoyaltyImportQuery = z.infer<typeof royaltyImportQuerySchema>;

/** A generic CSV's column mapping: canonical field → header text in the file. */
export const csvMappingSchema = z
  .object({
    isrc: safeText().trim().min(1).optional(),
    upc: safeText().trim().min(1).optional(),
    store: safeText().trim().min(1).optional(),
    country: safeText().trim().min(1).optional(),
    period: safeText().trim().min(1).optional(),
    usageType: safeText().trim().min(1).optional(),
    units: safeText().trim().min(1).optional(),
    amount: safeText().trim().min(1, 'Choose the column that holds the amount'),
    currency: safeText().trim().min(1).optional(),
    lineId: safeText().trim().min(1).optional(),
  })
  .refine((m) => m.isrc !== undefined || m.upc !== undefined, {
    message: 'Map an ISRC or a UPC column',
    path: ['isrc'],
  });
export type CsvMapping = z.infer<typeof csvMappingSchema>;

export const csvPresetSchema = z.object({
  name: safeText().trim().min(1, 'Name the preset').max(100),
  delimiter: z.enum([',', ';', '\t']).default(','),
  /** Currency of the amount column when the file has no currency column. */
  currency: safeText()
    .trim()
    .regex(/^[A-Za-z]{3}$/, 'The currency must be a three-letter ISO 4217 code')
    .transform((value) => value.toUpperCase())
    .default('USD'),
  mapping: csvMappingSchema,
});
export type CsvPresetInput = z.input<typeof csvPresetSchema>;
export type CsvPreset = z.infer<typeof csvPresetSchema> & { id: string; createdAt: string };

export const codeMappingSchema = z
  .object({
    /** ISRC or UPC/EAN as seen in the file (normalised on the server). */
    code: safeText().trim().min(1, 'Enter the code'),
    kind: z.enum(['isrc', 'upc']),
    trackId: z.uuid().optional(),
    releaseId: z.uuid().optional(),
  })
  .refine((m) => (m.trackId === undefined) !== (m.releaseId === undefined), {
    message: 'Choose exactly one track or release',
    path: ['trackId'],
  });
export type CodeMappingInput = z.infer<typeof codeMappingSchema>;
export type CodeMapping = {
  code: string;
  kind: 'isrc' | 'upc';
  trackId: string | null;
  releaseId: string | null;
  /** Lines of unposted imports that now match. */
  rematchedLines: number;
};

export const statementPeriodSchema = safeText().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Period must be YYYY-MM');

// ---------------------------------------------------------------- responses

/** An exact decimal amount as text, with its currency. */
export type DecimalAmount = string;

export type RefusedLine = { line: number; reason: string };

export type TotalsRow = {
  key: string;
  lines: number;
  units: string;
  /** Sum of the line amounts in the report currency, exact. */
  amount: DecimalAmount;
};

export type ImportListItem = {
  id: string;
  fileName: string;
  format: RoyaltySourceFormat;
  status: RoyaltyImportStatus;
  currency: string;
  /** Report currency → USD, exact decimal text. */
  exchangeRate: string;
  sender: string | null;
  messageId: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  lineCount: number;
  refusedCount: number;
  totalAmount: DecimalAmount;
  createdAt: string;
  postedAt: string | null;
  progress: ImportProgress;
  /** Set while a run that stopped waits for its retry (record 220); null otherwise. */
  retry: ImportRetry | null;
};

/**
 * An unfinished import or posting whose run is not going on (record 220): `scheduled`, a retry at `at`;
 * `stalled`, a run that has made no progress for a while and is taken over by `at` at the latest if its
 * worker died; `none`, no run scheduled (retries used up): only the admin's retry finishes it.
 */
export type ImportRetry = { state: 'scheduled' | 'stalled' | 'none'; at: string | null };

/** The upload's answer (202): the import's id; its job reads, stages (and posts) it. */
export type ImportAccepted = { id: string; progress: ImportProgress };
/** A posting request's answer (202): the posting runs as a job. */
export type PostAccepted = { importId: string; progress: ImportProgress };

/** A report that already posted some of an import's lines (decision 186). */
export type OverlapReport = {
  importId: string;
  fileName: string;
  postedAt: string | null;
  lines: number;
  /** In the import's currency, exact. */
  amount: DecimalAmount;
};

/**
 * Lines of an import whose sale an earlier report already posted (decision 186): left out of posting
 * unless an admin included them with a confirmation (audited), after which `included` says so.
 */
export type ImportOverlap = {
  lines: number;
  amount: DecimalAmount;
  reports: OverlapReport[];
  included: { lines: number; amount: DecimalAmount; at: string; by: string | null } | null;
};

/** Including already-posted lines needs this explicit confirmation. */
export const includeOverlapSchema = z.object({ confirm: z.literal(true) });
export type IncludeOverlapInput = z.infer<typeof includeOverlapSchema>;

export type ImportSummary = ImportListItem & {
  /** Fatal problems (bad FOOT totals, unknown currency …): the import cannot be posted. */
  errors: string[];
  warnings: string[];
  refused: RefusedLine[];
  matched: { lines: number; amount: DecimalAmount };
  unmatched: { lines: number; amount: DecimalAmount };
  /** Distinct artists owning the matched lines: how many balances posting will credit. */
  matchedArtists: number;
  /** Lines whose amount is negative (refunds / returns). */
  refunds: { lines: number; amount: DecimalAmount };
  byStore: TotalsRow[];
  byCountry: TotalsRow[];
  byPeriod: TotalsRow[];
  byUsageType: TotalsRow[];
  /** After posting: the cents credited and the rounding residue kept by the house. */
  postedCents: number | null;
  residue: DecimalAmount | null;
  postedArtists: number | null;
  /** Lines already posted by other reports (left out unless included); null when there are none. */
  overlap: ImportOverlap | null;
};

export type ImportListResponse = { items: ImportListItem[]; nextCursor: string | null };

export type PostResult = {
  importId: string;
  postedCents: number;
  /** USD left over from rounding each artist's total down to cents, exact. */
  residue: DecimalAmount;
  artists: number;
  earningsLines: number;
  /** Split shares held for payees who have not accepted yet (decision 318), in cents. */
  heldCents: number;
  /** Held shares of withdrawn invitations returned to their owners by this posting, in cents. */
  returnedCents: number;
  /** The operator's distribution fee kept from the artists' gross (record 189), in cents. */
  feeCents: number;
};

export type UnmatchedCode = {
  code: string;
  kind: 'isrc' | 'upc';
  lines: number;
  imports: number;
  amount: DecimalAmount;
  sampleTitle: string | null;
  sampleArtist: string | null;
};
export type UnmatchedListResponse = { items: UnmatchedCode[] };

export type LedgerEntry = {
  id: string;
  kind: LedgerEntryKind;
  /** For earnings: the statement period (YYYY-MM); otherwise null. */
  period: string | null;
  description: string;
  amountCents: number;
  /** Available balance after this entry. */
  balanceCents: number;
  status: string | null;
  createdAt: string;
};
export type LedgerResponse = { items: LedgerEntry[]; nextCursor: string | null };

export type StatementPeriod = { period: string; amountCents: number; lines: number; units: string };
export type StatementPeriodsResponse = { items: StatementPeriod[] };

export const ROYALTY_TEXTS = {
  earningsMailSubject: (amount: string, period: string) => `New earnings: ${amount} for ${period}`,
  alreadyImported: 'This file was already imported.',
  tooLargeToPost: 'The amounts in this report are too large to post; nothing was posted.',
  alreadyPosted: 'This report has already been posted.',
  alreadyPosting: 'This report is already being posted.',
  notReadyToPost: 'This report is still being read; post it once it is ready.',
  notPostable: 'This report has errors and cannot be posted.',
  notRetryable: 'This report is not waiting for a retry.',
  retryQueued: 'Retry queued: the import goes on from where it stopped.',
  postedNotDeletable: 'A posted report cannot be deleted.',
  /** How a line whose sale another report posted is marked (decision 186). */
  alreadyPostedIn: (report: string, date: string) => `already posted in ${report} on ${date}`,
  overlapNothingToInclude: 'This report has no lines already posted to include.',
  overlapNotIncludable: 'Lines can only be included while the report is ready to post.',
  overlapPostedTwice: (lines: number) =>
    `${lines} line(s) of this report were posted by another report meanwhile; they are now marked already posted and left out. Check the summary and post again.`,
} as const;
