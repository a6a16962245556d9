/** Query keys of release review. */

import type { AdminReleaseTab } from '@tunedrop/shared/schemas/admin-releases';
import type { AiReviewFilter } from '@tunedrop/shared/schemas/ai-disclosure';

export const adminReleasesKeys = {
  all: ['admin-releases'] as const,
  list: (tab: AdminReleaseTab, q: string, page: number, ai: AiReviewFilter | null = null) =>
    [...adminReleasesKeys.all, 'list', tab, q, page, ai] as const,
};
