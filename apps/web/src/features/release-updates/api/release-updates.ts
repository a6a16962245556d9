/**
 * Post-release edits (record 197): the reviewers' list and decisions (/api/admin/release-updates). The
 * owner's side (GET and POST /api/releases/:id/update) is lib/release-updates.ts, read by this feature's
 * status and by the release page's Update Release.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

const IN_REVIEW_KEY = ['release-updates', 'in-review'] as const;

export function useUpdatesInReview() {
  return useQuery({
    queryKey: IN_REVIEW_KEY,
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
