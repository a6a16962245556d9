/** The dashboard home's figures (GET /api/me/stats, served by modules/auth with the viewer's account). */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

export function useDashboardStats() {
  return useQuery({
    queryKey: ['me', 'stats'],
    queryFn: () => unwrap(client.me.stats.$get()),
  });
}
