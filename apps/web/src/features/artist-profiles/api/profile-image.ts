/** PUT and DELETE /api/artist-profiles/:id/image: a profile's optional image (record 332). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ArtistProfile } from '@tunedrop/shared/schemas/artist-profiles';
import { ApiError, client, unwrap } from '../../../lib/api';
import { artistProfilesKey } from '../../../lib/artist-profiles';

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

/** The image's bytes as the body; the server checks them by content (JPEG or PNG, at most 5 MB). */
export function useUploadProfileImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, file }: { id: string; file: File }): Promise<{ profile: ArtistProfile }> => {
      const response = await fetch(`/api/artist-profiles/${encodeURIComponent(id)}/image`, {
        method: 'PUT',
        credentials: 'same-origin',
        headers: { 'Content-Type': file.type || 'application/octet-stream' },
        body: file,
      });
      const body = (await response.json().catch(() => null)) as { profile: ArtistProfile } | ErrorBody | null;
      if (!response.ok || !body || 'error' in body) {
        const error =
          body && 'error' in body
            ? body.error
            : { code: 'failed', message: 'The profile image could not be saved.' };
        throw new ApiError(response.status, error.code, error.message);
      }
      return body;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: artistProfilesKey }),
  });
}

export function useRemoveProfileImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(client['artist-profiles'][':id'].image.$delete({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: artistProfilesKey }),
  });
}
