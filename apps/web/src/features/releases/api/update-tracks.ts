/** PUT /api/releases/:id/tracks: titles, explicit flags, credits and order of the owner's tracks. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditTracksInput } from '@tunedrop/shared/schemas/releases';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useUpdateTracks(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditTracksInput) =>
      unwrap(client.releases[':id'].tracks.$put({ param: { id }, json: body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}
