/** POST /api/releases/:id/store-takedowns: the owner asks for the release to leave one store. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StoreTakedownInput } from '@tunedrop/shared/schemas/delivery';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useRequestStoreTakedown(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: StoreTakedownInput) =>
      unwrap(client.releases[':id']['store-takedowns'].$post({ param: { id }, json })),
    onSuccess: (detail) => queryClient.setQueryData(releasesKeys.page(id), detail),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.page(id) }),
  });
}
