/**
 * PUT /api/releases/:id/cover and PUT /api/releases/:id/tracks/:trackId/audio (issue 18, record 121): a
 * file uploaded through the builder's tus uploads becomes the release's cover or a track's WAV; POST and
 * DELETE /api/releases/:id/tracks(/:trackId) add a track with its WAV or remove one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddTrackInput } from '@tunedrop/shared/schemas/releases';
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

export function useAddTrack(releaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddTrackInput) =>
      unwrap(client.releases[':id'].tracks.$post({ param: { id: releaseId }, json: body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}

export function useRemoveTrack(releaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (trackId: string) =>
      unwrap(client.releases[':id'].tracks[':trackId'].$delete({ param: { id: releaseId, trackId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releasesKeys.all }),
  });
}
