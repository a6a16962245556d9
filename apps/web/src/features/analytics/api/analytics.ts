/** The Pro analytics report and the withdrawal history export. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AnalyticsRange } from '@tunedrop/shared/schemas/wallet';
import { ApiError, client, unwrap } from '../../../lib/api';

export function useAnalytics(range: AnalyticsRange, isEnabled: boolean) {
  return useQuery({
    queryKey: ['analytics', range],
    queryFn: () => unwrap(client.analytics.$get({ query: { range } })),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

/** Downloads the CSV through fetch, so a refusal shows as a toast instead of a broken download. */
export async function downloadWithdrawalsCsv(): Promise<void> {
  const response = await fetch('/api/analytics/withdrawals.csv', { credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(response.status, 'export_failed', 'Failed to export withdrawals');
  const blob = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'withdrawals.csv';
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
