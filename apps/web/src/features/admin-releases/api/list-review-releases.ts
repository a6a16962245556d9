/** GET /api/admin/releases: one tab's page of release cards, with the count of every tab. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminReleasesPage, AdminReleaseTab } from '@tunedrop/shared/schemas/admin-releases';
import { api } from '../../../lib/api';
import { adminReleasesKeys } from './keys';

export const REVIEW_PAGE_SIZE = 10;

export function useReviewReleases(tab: AdminReleaseTab, q: string, page: number) {
  return useQuery({
    queryKey: adminReleasesKeys.list(tab, q, page),
    queryFn: () =>
      api<AdminReleasesPage>('/api/admin/releases', { query: { tab, q, page, pageSize: REVIEW_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
}
