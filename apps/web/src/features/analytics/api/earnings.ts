/** Pro analytics on the earnings ledger: breakdowns by store, country, track, release and month. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EarningsWindow } from '@tunedrop/shared/schemas/analytics';
import { client, unwrap } from '../../../lib/api';

/** Re-read by the live updates (GET /api/events) when a posted report changes the balance. */
export function useEarningsBreakdown(months: EarningsWindow, isEnabled: boolean) {
  return useQuery({
    queryKey: ['analytics-earnings', months],
    queryFn: () => unwrap(client.analytics.earnings.$get({ query: { months } })),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

export const earningsCsvUrl = (months: EarningsWindow) => `/api/analytics/earnings.csv?months=${months}`;
