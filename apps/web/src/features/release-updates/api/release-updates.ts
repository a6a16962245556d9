/**
 * Post-release edits (record 197): the owner's update of a release (GET and POST /api/releases/:id/update)
 * and the reviewers' list and decisions (/api/admin/release-updates).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReleaseUpdateInput } from '@tunedrop/shared/schemas/release-updates';
import { client, unwrap } from '../../../lib/api';

export const releaseUpdatesKeys = {
  all: ['release-updates'] as const,
  ofRelease: (releaseId: string) => [...releaseUpdatesKeys.all, 'release', releaseId] as const,
  inReview: () => [...releaseUpdatesKeys.all, 'in-review'] as const,
};

/** The release's update in review, else its last decided one (null: none yet). */
export function useReleaseUpdate(releaseId: string) {
  return useQuery({
    queryKey: releaseUpdatesKeys.ofRelease(releaseId),
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

export function useUpdatesInReview() {
  return useQuery({
    queryKey: releaseUpdatesKeys.inReview(),
    queryFn: async () => (await unwrap(client.admin['release-updates'].$get({ query: {} }))).items,
  });
}

export function useDecideUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      input: { id: string; decision: 'approve' } | { id: string; decision: 'reject'; reason: string },
    ) =>
      input.decision === 'approve'
        ? (await unwrap(client.admin['release-updates'][':id'].approve.$post({ param: { id: input.id } })))
            .update
        : (
            await unwrap(
              client.admin['release-updates'][':id'].reject.$post({
                param: { id: input.id },
                json: { reason: input.reason },
              }),
            )
          ).update,
    onSettled: () => queryClient.invalidateQueries(),
  });
}
