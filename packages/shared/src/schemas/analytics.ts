/**
 * Pro analytics on the earnings ledger (issue 16): units and earnings by store, country, track, release and
 * month, read from the immutable earnings lines written when a royalty report is posted.
 *
 * Routes (apps/server/src/modules/analytics/routes.ts, Pro / free access / admins; basic users get 403):
 *   GET /api/analytics/earnings?months=3|12|all   → EarningsBreakdown
 *   GET /api/analytics/earnings.csv?months=…      → text/csv attachment (one row per period, store,
 *                                                   country, release and track; exact USD amounts)
 */
import { z } from 'zod';

export const EARNINGS_WINDOWS = [
  { id: '3', label: 'Last 3 months' },
  { id: '12', label: 'Last 12 months' },
  { id: 'all', label: 'All time' },
] as const;
export type EarningsWindow = (typeof EARNINGS_WINDOWS)[number]['id'];

export const earningsBreakdownQuerySchema = z.object({
  /** Sales periods (statement months) counted back from the current month, or all of them. */
  months: z.enum(['3', '12', 'all']).default('12'),
  /** One artist profile's releases (record 201); all the account's earnings when left out. */
  artistProfileId: z.uuid().optional(),
});

/** One group of earnings lines. `units` is exact decimal text; `amountCents` the USD sum rounded to cents. */
export type EarningsRow = { key: string; label: string; units: string; amountCents: number; lines: number };

export type EarningsBreakdown = {
  months: EarningsWindow;
  /** The first sales period counted (YYYY-MM), null for all time. */
  from: string | null;
  totals: { units: string; amountCents: number; lines: number; reports: number };
  /** Every sales period with earnings in the window, oldest first (the trend). */
  byMonth: EarningsRow[];
  byStore: EarningsRow[];
  byCountry: EarningsRow[];
  /** Top tracks first. */
  byTrack: EarningsRow[];
  byRelease: EarningsRow[];
  /** When the last report that paid this artist was posted. */
  lastPostedAt: string | null;
};

export const EARNINGS_BREAKDOWN_LIMIT = 50;

export const EARNINGS_ANALYTICS_TEXTS = {
  empty:
    'Stores, countries and tracks appear here once a store report with your music has been imported and posted, usually a month or two after your first streams.',
} as const;
