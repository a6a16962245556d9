/** GET /api/releases: My Songs, newest first, a page at a time (cursor), searched and filtered by state. */
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ReleaseStatus } from '@tunedrop/shared';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export const MY_SONGS_PAGE_SIZE = 20;

/** `artistProfileId`: one artist profile's releases (record 201); empty for all the account's. */
export type MySongsFilters = { q: string; status: ReleaseStatus | ''; artistProfileId?: string };

/** My Songs' query for these filters: read by the page, started early by its route loader. */
export const myReleasesQuery = (filters: MySongsFilters) =>
  infiniteQueryOptions({
    queryKey: releasesKeys.list(filters),
    queryFn: ({ pageParam }) =>
      unwrap(
        client.releases.$get({
          query: {
            limit: String(MY_SONGS_PAGE_SIZE),
            ...(filters.q ? { q: filters.q } : {}),
            ...(filters.status ? { status: filters.status } : {}),
            ...(filters.artistProfileId ? { artistProfileId: filters.artistProfileId } : {}),
            ...(pageParam ? { cursor: pageParam } : {}),
          },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export function useMyReleases(filters: MySongsFilters = { q: '', status: '' }) {
  return useInfiniteQuery({ ...myReleasesQuery(filters), placeholderData: keepPreviousData });
}
