/**
 * PUT /api/releases/:id/cover and PUT /api/releases/:id/tracks/:trackId/audio (issue 18, record 121): a
 * file uploaded through the builder's tus uploads becomes the release's cover or a track's WAV.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useReplaceCover(releaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uploadId: string) =>
      unwrap(client.releases[':id'].cover.$put({ param: { id: releaseId }, json: { uploadId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}

export function useReplaceTrackAudio(releaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ trackId, uploadId }: { trackId: string; uploadId: string }) =>
      unwrap(
        client.releases[':id'].tracks[':trackId'].audio.$put({
          param: { id: releaseId, trackId },
          json: { uploadId },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}
