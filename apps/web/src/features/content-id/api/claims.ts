/** Content ID claims requests (record 193): the artist's claims and their release, the admin's queue. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

const claimsKey = ['content-id', 'claims'] as const;
const queueKey = ['admin', 'content-id', 'claims'] as const;

export function useContentIdClaims(isEnabled: boolean) {
  return useQuery({
    queryKey: claimsKey,
    queryFn: () => unwrap(client['content-id'].claims.$get()),
    enabled: isEnabled,
  });
}

export function useReleaseClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client['content-id'].claims[':id'].release.$post({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: claimsKey }),
  });
}

export function useClaimsToRelease() {
  return useQuery({
    queryKey: queueKey,
    queryFn: () => unwrap(client.admin['content-id'].claims.$get()),
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
