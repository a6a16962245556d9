/** The dashboard home's figures (GET /api/me/stats, served by modules/auth with the viewer's account). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

export const dashboardStatsQuery = queryOptions({
  queryKey: ['me', 'stats'],
  queryFn: () => unwrap(client.me.stats.$get()),
});

export function useDashboardStats() {
  return useQuery(dashboardStatsQuery);
}
