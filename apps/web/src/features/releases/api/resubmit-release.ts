/** POST /api/releases/:id/resubmit: the owner's rejected release goes back to review (rejected → pending). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useResubmitRelease(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.releases[':id'].resubmit.$post({ param: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}

/** Where the owner's player streams a track from (Range-capable, owner only). */
export const trackAudioUrl = (releaseId: string, trackId: string) =>
  `/api/releases/${releaseId}/tracks/${trackId}/audio`;
