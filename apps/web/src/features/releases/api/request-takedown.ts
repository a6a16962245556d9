/** POST /api/releases/:id/takedown: asks the moderators to take an approved or live release down. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MySongItem } from '@tunedrop/shared/schemas/releases';
import { api } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useRequestTakedown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await api<{ release: MySongItem }>(`/api/releases/${id}/takedown`, { method: 'POST' })).release,
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.list() }),
  });
}
