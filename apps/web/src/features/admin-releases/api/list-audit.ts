/** GET /api/admin/audit: who did what, newest first, filtered by user and release (admins only). */
import { useInfiniteQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { adminReleasesKeys } from './keys';

export function useAuditLog(user: string, releaseId: string) {
  return useInfiniteQuery({
    queryKey: adminReleasesKeys.audit(user, releaseId),
    queryFn: ({ pageParam }) =>
      unwrap(
        client.admin.audit.$get({
          query: {
            ...(user ? { user } : {}),
            ...(releaseId ? { releaseId } : {}),
            ...(pageParam ? { cursor: pageParam } : {}),
            limit: '50',
          },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
