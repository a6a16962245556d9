/** PATCH /api/releases/:id: saves the Edit Release form. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditReleaseInput } from '@tunedrop/shared/schemas/releases';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useUpdateRelease(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: EditReleaseInput) =>
      (await unwrap(client.releases[':id'].$patch({ param: { id }, json: body }))).release,
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}
