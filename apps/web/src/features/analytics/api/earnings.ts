/** Pro analytics on the earnings ledger: breakdowns by store, country, track, release and month. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EarningsWindow } from '@tunedrop/shared/schemas/analytics';
import { client, unwrap } from '../../../lib/api';

/** Re-read by the live updates (GET /api/events) when a posted report changes the balance. */
export function useEarningsBreakdown(months: EarningsWindow, isEnabled: boolean, artistProfileId?: string) {
  return useQuery({
    queryKey: ['analytics-earnings', months, artistProfileId ?? 'all'],
    queryFn: () =>
      unwrap(
        client.analytics.earnings.$get({
          query: { months, ...(artistProfileId ? { artistProfileId } : {}) },
        }),
      ),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

/** With a profile (record 201): that artist profile's releases only. */
export const earningsCsvUrl = (months: EarningsWindow, artistProfileId?: string) =>
  `/api/analytics/earnings.csv?months=${months}${artistProfileId ? `&artistProfileId=${encodeURIComponent(artistProfileId)}` : ''}`;
