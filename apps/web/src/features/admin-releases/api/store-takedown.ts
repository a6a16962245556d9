/** POST /api/admin/releases/:id/store-takedowns/approve: approve an artist's per-store takedown request. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlatformId } from '@tunedrop/shared';
import { client, unwrap } from '../../../lib/api';
import { adminReleasesKeys } from './keys';

export function useApproveStoreTakedown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ releaseId, platformId }: { releaseId: string; platformId: PlatformId }) =>
      unwrap(
        client.admin.releases[':id']['store-takedowns'].approve.$post({
          param: { id: releaseId },
          json: { platformId },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminReleasesKeys.all }),
  });
}

/** POST /api/admin/releases/:id/store-takedowns/reject: the store stays live; the artist is mailed the reason. */
export function useRejectStoreTakedown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      releaseId,
      platformId,
      reason,
    }: {
      releaseId: string;
      platformId: PlatformId;
      reason: string;
    }) =>
      unwrap(
        client.admin.releases[':id']['store-takedowns'].reject.$post({
          param: { id: releaseId },
          json: { platformId, reason },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminReleasesKeys.all }),
  });
}
