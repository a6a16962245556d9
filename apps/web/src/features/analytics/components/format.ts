/** Labels for the analytics charts: periods by bucket, short money for axes. */
import { PLATFORMS } from '@tunedrop/shared';

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function periodLabel(start: string, bucket: 'day' | 'week' | 'month'): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (bucket === 'month') return monthFormat.format(date);
  return bucket === 'week' ? `Week of ${dayFormat.format(date)}` : dayFormat.format(date);
}

export function shortPeriodLabel(start: string, bucket: 'day' | 'week' | 'month'): string {
  const date = new Date(`${start}T00:00:00Z`);
  return bucket === 'month'
    ? new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(date)
    : dayFormat.format(date);
}

/** '$1.2k' style for chart axes; full amounts (formatCents) everywhere else. */
export function axisMoney(cents: number): string {
  const dollars = cents / 100;
  if (Math.abs(dollars) >= 1_000_000) return `$${(dollars / 1_000_000).toFixed(1)}M`;
  if (Math.abs(dollars) >= 1000) return `$${(dollars / 1000).toFixed(1)}k`;
  return `$${dollars.toFixed(0)}`;
}

export const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  processing: 'Processing',
  approved: 'Approved',
  live: 'Live',
  rejected: 'Rejected',
  taken_down: 'Taken down',
  deleted: 'Deleted',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const platformName = (id: string) => PLATFORMS.find((platform) => platform.id === id)?.name ?? id;
