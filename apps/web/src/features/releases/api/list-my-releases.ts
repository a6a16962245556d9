/** GET /api/releases: My Songs, newest first, a page at a time (cursor). */
import { useInfiniteQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export const MY_SONGS_PAGE_SIZE = 20;

export function useMyReleases() {
  return useInfiniteQuery({
    queryKey: releasesKeys.list(),
    queryFn: ({ pageParam }) =>
      unwrap(
        client.releases.$get({
          query: { limit: String(MY_SONGS_PAGE_SIZE), ...(pageParam ? { cursor: pageParam } : {}) },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
