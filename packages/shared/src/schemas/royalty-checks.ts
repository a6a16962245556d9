/**
 * Checks of a staged royalty report before posting (issue 25, record 187): the report's currency and its
 * exchange rate (read from the file first, settable on the staged report), and the sanity warnings an
 * admin accepts or resolves before the report can be posted.
 *
 * Routes (apps/server/src/modules/royalty-imports/report-checks-routes.ts), access('admin'):
 *   POST /api/admin/royalties/imports/inspect            raw body = the file's first bytes; query
 *                                                        inspectQuerySchema → CurrencyInspection
 *   PUT  /api/admin/royalties/imports/:id/rate           reportRateSchema → ImportSummary
 *   GET  /api/admin/royalties/imports/:id/warnings       query reportWarningsQuerySchema → ReportWarningsResponse
 *   POST /api/admin/royalties/imports/:id/warnings/:warningId/accept    acceptWarningSchema → ReportWarning
 *   POST /api/admin/royalties/imports/:id/warnings/:warningId/resolve   → ReportWarningsResponse
 */
import { z } from 'zod';
import { safeText } from '../text';
import { exchangeRateSchema, ROYALTY_FORMATS } from './royalties';

export const reportRateSchema = z.object({ rate: exchangeRateSchema });
export type ReportRateInput = z.infer<typeof reportRateSchema>;

export const inspectQuerySchema = z.object({
  format: z.enum(ROYALTY_FORMATS).default('auto'),
  preset: z.uuid('Unknown preset').optional(),
});

/** What the head of a file says before it is uploaded: its format and currency (null when it does not say). */
export type CurrencyInspection = { format: string | null; currency: string | null };

export const acceptWarningSchema = z.object({
  note: safeText().trim().max(500, 'At most 500 characters').optional(),
});
export type AcceptWarningInput = z.infer<typeof acceptWarningSchema>;

export const REPORT_WARNING_KINDS = ['period_before_release', 'foreign_isrc'] as const;
export type ReportWarningKind = (typeof REPORT_WARNING_KINDS)[number];

export const REPORT_WARNING_TITLES: Record<ReportWarningKind, string> = {
  period_before_release: 'Sales before the release date',
  foreign_isrc: "Another label's ISRC",
};

export type ReportWarningLine = {
  lineNo: number;
  isrc: string | null;
  upc: string | null;
  title: string | null;
  artist: string | null;
  store: string | null;
  period: string | null;
  /** In the report currency, exact decimal text. */
  amount: string;
};

export type ReportWarning = {
  id: string;
  kind: ReportWarningKind;
  subject: string;
  message: string;
  lineCount: number;
  /** In the report currency, exact decimal text. */
  amount: string;
  acceptedAt: string | null;
  acceptedBy: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  note: string | null;
  /** The first lines (at most REPORT_WARNING_LINES_LISTED), by line number. */
  lines: ReportWarningLine[];
};

/**
 * One page of a report's warnings (issue 43: a list that grows with the report is paged; a report crediting
 * another name on each of 9,500 tracks has 9,500 warnings). `openCount` and `total` count them all.
 */
export type ReportWarningsResponse = {
  items: ReportWarning[];
  openCount: number;
  page: number;
  pageSize: number;
  total: number;
};

export const REPORT_WARNINGS_PAGE_SIZE = 25;

export const reportWarningsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(REPORT_WARNINGS_PAGE_SIZE),
});
export type ReportWarningsQuery = z.infer<typeof reportWarningsQuerySchema>;

export const REPORT_WARNING_LINES_LISTED = 50;

export const ROYALTY_CHECK_TEXTS = {
  /** The CLI's refusal of a non-USD file imported without --rate. */
  cliNeedsRate: (currency: string) => `the report is in ${currency}: pass --rate`,
  needsRate: (currency: string) =>
    `The report is in ${currency}: give its exchange rate to USD (1 ${currency} = ? USD).`,
  rateNotNeeded: 'The report is in USD; it needs no exchange rate.',
  rateUnknownCurrency: 'The report does not say its currency; import it again with one.',
  rateNotSettable: 'The exchange rate can only be set on a report that is staged and not posted.',
  openWarnings: (count: number) =>
    `This report has ${count} sanity warning${count === 1 ? '' : 's'} to accept or resolve before posting.`,
  warningNotOpen: 'This warning was already accepted or resolved.',
} as const;
