/** GET /api/admin/releases: one tab's page of release cards, with the count of every tab. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminReleaseTab } from '@tunedrop/shared/schemas/admin-releases';
import type { AiReviewFilter } from '@tunedrop/shared/schemas/ai-disclosure';
import { client, unwrap } from '../../../lib/api';
import { adminReleasesKeys } from './keys';

export const REVIEW_PAGE_SIZE = 10;

/** One tab's page: read by the page, started early by its route loader. */
export const reviewReleasesQuery = (
  tab: AdminReleaseTab,
  q: string,
  page: number,
  ai: AiReviewFilter | null = null,
) =>
  queryOptions({
    queryKey: adminReleasesKeys.list(tab, q, page, ai),
    queryFn: () =>
      unwrap(
        client.admin.releases.$get({
          query: {
            tab,
            q,
            page: String(page),
            pageSize: String(REVIEW_PAGE_SIZE),
            ...(ai ? { ai } : {}),
          },
        }),
      ),
  });

export function useReviewReleases(tab: AdminReleaseTab, q: string, page: number, ai: AiReviewFilter | null) {
  return useQuery({ ...reviewReleasesQuery(tab, q, page, ai), placeholderData: keepPreviousData });
}
