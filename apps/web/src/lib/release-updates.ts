/**
 * A release's post-release update, the owner's side (record 197): GET and POST /api/releases/:id/update.
 * Shared by features/releases (Update Release on the release page) and features/release-updates (the
 * update's status), which never import each other (issue 37).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReleaseUpdateInput } from '@tunedrop/shared/schemas/release-updates';
import { client, unwrap } from './api';

const releaseUpdateKey = (releaseId: string) => ['release-updates', 'release', releaseId] as const;

/** The release's update in review, else its last decided one (null: none yet). */
export function useReleaseUpdate(releaseId: string) {
  return useQuery({
    queryKey: releaseUpdateKey(releaseId),
    queryFn: async () =>
      (await unwrap(client.releases[':id'].update.$get({ param: { id: releaseId } }))).update,
  });
}

export function useProposeUpdate(releaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReleaseUpdateInput) =>
      (await unwrap(client.releases[':id'].update.$post({ param: { id: releaseId }, json: body }))).update,
    // The release page, My Songs and the history show the change in review.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
