/**
 * GET /api/admin/audit: who did what, newest first, filtered by kind, user, release and UTC days (admins
 * only); auditCsvUrl is the same filter as a CSV the server streams.
 */

import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditFilter } from '@tunedrop/shared/schemas/audit';
import { client, unwrap } from '../../../lib/api';

/** The filter as query parameters, leaving out the empty ones. */
export function auditFilterParams(filter: AuditFilter): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) if (value) params[key] = value;
  return params;
}

export const auditCsvUrl = (filter: AuditFilter) => {
  const query = new URLSearchParams(auditFilterParams(filter)).toString();
  return `/api/admin/audit.csv${query ? `?${query}` : ''}`;
};

export function useAuditLog(filter: AuditFilter) {
  const params = auditFilterParams(filter);
  return useInfiniteQuery({
    queryKey: ['admin-audit', params] as const,
    queryFn: ({ pageParam }) =>
      unwrap(
        client.admin.audit.$get({
          query: { ...params, ...(pageParam ? { cursor: pageParam } : {}), limit: '50' },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
