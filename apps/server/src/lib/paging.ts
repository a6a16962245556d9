/** Offset paging for the admin lists: one window computation and one page shape (PageInfo). */
import type { PageInfo } from '@tunedrop/shared';

/** LIMIT and OFFSET for 1-based `page` of `pageSize` rows. */
export function pageWindow(page: number, pageSize: number): { limit: number; offset: number } {
  return { limit: pageSize, offset: (Math.max(1, page) - 1) * pageSize };
}

/** The page fields every paged answer carries beside its rows. */
export function pageInfo(page: number, pageSize: number, total: number): PageInfo {
  return { page, pageSize, total };
}
