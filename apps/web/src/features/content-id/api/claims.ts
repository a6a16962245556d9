/** Content ID claims requests (record 193): the artist's claims and their release, the admin's queue. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CLAIMS_PAGE_SIZE } from '@tunedrop/shared/schemas/content-id-claims';
import { client, unwrap } from '../../../lib/api';

const claimsKey = ['content-id', 'claims'] as const;
const queueKey = ['admin', 'content-id', 'claims'] as const;

/** A page of the claims list and its search (issue 43 finding 11: the list is paged on the server). */
export type ClaimsParams = { q: string; page: number };

export function useContentIdClaims(isEnabled: boolean, params: ClaimsParams) {
  return useQuery({
    queryKey: [...claimsKey, params],
    queryFn: () =>
      unwrap(
        client['content-id'].claims.$get({
          query: { q: params.q, page: String(params.page), limit: String(CLAIMS_PAGE_SIZE) },
        }),
      ),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

export function useReleaseClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client['content-id'].claims[':id'].release.$post({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: claimsKey }),
  });
}

export function useClaimsToRelease(params: ClaimsParams) {
  return useQuery({
    queryKey: [...queueKey, params],
    queryFn: () =>
      unwrap(
        client.admin['content-id'].claims.$get({
          query: { q: params.q, page: String(params.page), limit: String(CLAIMS_PAGE_SIZE) },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useMarkClaimReleased() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(client.admin['content-id'].claims[':id'].done.$post({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKey }),
  });
}

export function useSetTrackAssetId() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trackId, assetId }: { trackId: string; assetId: string }) =>
      unwrap(
        client.admin['content-id'].tracks[':trackId'].asset.$put({ param: { trackId }, json: { assetId } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'content-id'] }),
  });
}
