/** DELETE /api/releases/:id: removes a release still pending or processing, with its files. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useDeleteRelease(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.releases[':id'].$delete({ param: { id } })),
    onSuccess: () => queryClient.removeQueries({ queryKey: releasesKeys.detail(id) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.list() }),
  });
}
