/**
 * Every date, money, size and duration display of the web app. One rule (record 096): English (en-US)
 * month names whatever the browser language, since every spec text is English; instants in the
 * viewer's time zone; calendar dates (`YYYY-MM-DD`, e.g. a release date) as written, never shifted by
 * a zone. Sizes and durations have one format each (record 169); store names come from
 * `platformName` in `@tunedrop/shared`.
 */
import { formatCents, formatCompactCents } from '@tunedrop/shared';

export { formatCents, formatCompactCents };

const LOCALE = 'en-US';
const isCalendarDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
/** A calendar date is read and shown in UTC so it stays the same day everywhere. */
const toDate = (value: string | Date) =>
  value instanceof Date ? value : new Date(isCalendarDate(value) ? `${value}T00:00:00Z` : value);
const zoneFor = (value: string | Date) =>
  typeof value === 'string' && isCalendarDate(value) ? { timeZone: 'UTC' } : {};

const format = (value: string | Date, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(LOCALE, { ...options, ...zoneFor(value) }).format(toDate(value));

/** "Jun 12, 2026": lists, cards, tables. */
export const formatDate = (value: string | Date) => format(value, { dateStyle: 'medium' });

/** "June 12, 2026": sentences such as 'Renews on {date}'. */
export const formatLongDate = (value: string | Date) => format(value, { dateStyle: 'long' });

/** "Jun 12, 2026, 3:04 PM": when something happened (requests, decisions, the audit log). */
export const formatDateTime = (value: string | Date) =>
  format(value, { dateStyle: 'medium', timeStyle: 'short' });

/** Chart periods; `start` is a calendar date. Month: "Jun 2026" (short: "Jun 26"); day and week: "Jun 12". */
export function formatPeriod(
  start: string,
  bucket: 'day' | 'week' | 'month',
  length: 'short' | 'long' = 'long',
): string {
  if (bucket === 'month')
    return format(start, { month: 'short', year: length === 'short' ? '2-digit' : 'numeric' });
  const day = format(start, { month: 'short', day: 'numeric' });
  return bucket === 'week' && length === 'long' ? `Week of ${day}` : day;
}

/** "12,345" */
export const formatNumber = (value: number) => value.toLocaleString(LOCALE);

/**
 * A file size in binary units, as the spec's limits are meant ('under 10MB' is 10 × 1024 × 1024):
 * '512 B', '1.5 KB', '3.4 MB', '2.00 GB'. The WAV box shows MB with two decimals (`formatMegabytes`
 * in the shared builder schema), as spec 02 §2 asks.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** A track's length as m:ss ('3:07'); '—' when unknown. */
export function formatDuration(ms: number | null): string {
  if (!ms || ms <= 0) return '—';
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** A credited person's full name: first, middle (when given) and last. */
export const personName = (person: { firstName: string; middleName: string | null; lastName: string }) =>
  [person.firstName, person.middleName, person.lastName].filter(Boolean).join(' ');
