/** POST /api/artist-profiles and PATCH /api/artist-profiles/:id: add a profile, edit one (record 201). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ArtistProfileInput } from '@tunedrop/shared/schemas/artist-profiles';
import { client, unwrap } from '../../../lib/api';
import { artistProfilesKey } from '../../../lib/artist-profiles';

export function useCreateArtistProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: ArtistProfileInput) => unwrap(client['artist-profiles'].$post({ json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: artistProfilesKey }),
  });
}

export function useUpdateArtistProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, json }: { id: string; json: ArtistProfileInput }) =>
      unwrap(client['artist-profiles'][':id'].$patch({ param: { id }, json })),
    // The first profile's name is the account's artist name (the viewer's too).
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
