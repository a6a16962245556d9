/** GET /api/admin/audit: who did what, newest first, filtered by user and release (admins only). */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditPage } from '@tunedrop/shared/schemas/admin-releases';
import { api } from '../../../lib/api';
import { adminReleasesKeys } from './keys';

export function useAuditLog(user: string, releaseId: string) {
  return useInfiniteQuery({
    queryKey: adminReleasesKeys.audit(user, releaseId),
    queryFn: ({ pageParam }) =>
      api<AuditPage>('/api/admin/audit', {
        query: {
          user: user || undefined,
          releaseId: releaseId || undefined,
          cursor: pageParam ?? undefined,
          limit: 50,
        },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
