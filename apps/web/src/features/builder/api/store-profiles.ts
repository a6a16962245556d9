/** PATCH /api/artist-profiles/:id from the builder: the explicit "new artist profile on the store" choice. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NewOnStore } from '@tunedrop/shared/schemas/artist-profile-rules';
import type { ArtistProfile } from '@tunedrop/shared/schemas/artist-profiles';
import { client, unwrap } from '../../../lib/api';
import { artistProfilesKey } from '../../../lib/artist-profiles';

export function useChooseNewOnStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ profile, store }: { profile: ArtistProfile; store: NewOnStore }) =>
      unwrap(
        client['artist-profiles'][':id'].$patch({
          param: { id: profile.id },
          json: {
            name: profile.name,
            spotifyArtistId: profile.spotifyArtistId,
            appleArtistId: profile.appleArtistId,
            deezerArtistId: profile.deezerArtistId,
            amazonArtistId: profile.amazonArtistId,
            youtubeChannelId: profile.youtubeChannelId,
            spotifyArtistKey: profile.spotifyArtistKey,
            newOnStores: [...new Set([...profile.newOnStores, store])],
          },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: artistProfilesKey }),
  });
}
