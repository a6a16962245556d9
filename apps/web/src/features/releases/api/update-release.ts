/** PATCH /api/releases/:id: saves the Edit Release form. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditReleaseInput, ReleaseForEdit } from '@tunedrop/shared/schemas/releases';
import { api } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useUpdateRelease(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: EditReleaseInput) =>
      (await api<{ release: ReleaseForEdit }>(`/api/releases/${id}`, { method: 'PATCH', body })).release,
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}
