/** Query keys of release review. */
import type { AdminReleaseTab } from '@tunedrop/shared/schemas/admin-releases';

export const adminReleasesKeys = {
  all: ['admin-releases'] as const,
  list: (tab: AdminReleaseTab, q: string, page: number) =>
    [...adminReleasesKeys.all, 'list', tab, q, page] as const,
};
