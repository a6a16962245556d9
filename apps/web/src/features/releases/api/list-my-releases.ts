/** GET /api/releases: My Songs, newest first, a page at a time (cursor). */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { MySongsPage } from '@tunedrop/shared/schemas/releases';
import { api } from '../../../lib/api';
import { releasesKeys } from './keys';

export const MY_SONGS_PAGE_SIZE = 20;

export function useMyReleases() {
  return useInfiniteQuery({
    queryKey: releasesKeys.list(),
    queryFn: ({ pageParam }) =>
      api<MySongsPage>('/api/releases', {
        query: { limit: MY_SONGS_PAGE_SIZE, cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
