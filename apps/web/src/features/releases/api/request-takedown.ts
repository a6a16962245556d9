/** POST /api/releases/:id/takedown: asks the moderators to take an approved or live release down. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useRequestTakedown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await unwrap(client.releases[':id'].takedown.$post({ param: { id } }))).release,
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.list() }),
  });
}
