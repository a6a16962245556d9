/**
 * Which artist page on Spotify and Apple Music the release goes to (issue 41, record 297): the profile's
 * artist id, or an explicit "new artist profile on the store" choice, never left to an empty id. A store
 * with neither asks for the choice here (or the id in Artist Profiles).
 */

import { NEW_ON_STORES, type NewOnStore } from '@tunedrop/shared/schemas/artist-profile-rules';
import type { ArtistProfile } from '@tunedrop/shared/schemas/artist-profiles';
import { UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api';
import { useChooseNewOnStore } from '../api/store-profiles';

const STORE_NAMES: Record<NewOnStore, string> = { spotify: 'Spotify', apple_music: 'Apple Music' };

export function StoreProfiles({ profile, canEdit }: { profile: ArtistProfile; canEdit: boolean }) {
  const choose = useChooseNewOnStore();
  const idOf = (store: NewOnStore) => (store === 'spotify' ? profile.spotifyArtistId : profile.appleArtistId);
  return (
    <section aria-labelledby="store-profiles-heading" className="space-y-2" data-testid="store-profiles">
      <h3 id="store-profiles-heading" className="flex items-center gap-2 text-sm font-medium text-zinc-200">
        <UserRound aria-hidden className="size-4 text-brand-400" /> Artist page on the stores
      </h3>
      <ul className="space-y-2">
        {NEW_ON_STORES.map((store) => {
          const id = idOf(store);
          const name = STORE_NAMES[store];
          return (
            <li
              key={store}
              className="flex flex-wrap items-center justify-between gap-2 text-sm text-zinc-300"
            >
              {id ? (
                <span>
                  {name}: existing artist page <span className="font-mono text-white">{id}</span>
                  {store === 'spotify' && profile.spotifyArtistKey
                    ? ' (pre-approved with your artist key)'
                    : ''}
                </span>
              ) : profile.newOnStores.includes(store) ? (
                <span>
                  {name}: new artist profile on {name}
                </span>
              ) : (
                <>
                  <span className="text-amber-200">
                    {name}: not chosen. Add the artist id in{' '}
                    <Link to={paths.artistProfiles} className="underline underline-offset-2">
                      Artist Profiles
                    </Link>
                    , or choose a new artist profile.
                  </span>
                  {canEdit ? (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={choose.isPending}
                      onClick={() =>
                        choose.mutate(
                          { profile, store },
                          {
                            onError: (error) =>
                              notify.error(errorMessage(error, 'The choice could not be saved.')),
                          },
                        )
                      }
                    >
                      New artist profile on {name}
                    </Button>
                  ) : null}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
