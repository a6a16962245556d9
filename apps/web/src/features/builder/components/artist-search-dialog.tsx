/** 'Search for Artist' (spec 02 §2, §5, §8): Spotify search through our server, at least 2 characters. */

import {
  BUILDER_MESSAGES,
  type SpotifyArtistResult,
  spotifySearchSchema,
} from '@tunedrop/shared/schemas/builder';
import { Search, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { Input, Label } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatNumber } from '../../../lib/format';
import { useZodForm } from '../../../lib/use-zod-form';
import { searchSpotifyArtists } from '../api/spotify';

export const NOT_CONFIGURED_TEXT =
  'Artist search is not configured on this server. You can still type the artist name and paste their Spotify link.';

export function ArtistSearchDialog({
  open,
  onOpenChange,
  isConfigured,
  onSelect,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isConfigured: boolean;
  onSelect: (artist: SpotifyArtistResult) => void;
}) {
  const { register, handleSubmit, reset } = useZodForm(spotifySearchSchema, {
    defaultValues: { query: '' },
    reValidateMode: 'onSubmit',
  });
  const [results, setResults] = useState<SpotifyArtistResult[] | null>(null);
  const [isSearching, setIsSearching] = useState(false);

  const search = async (text: string) => {
    setIsSearching(true);
    try {
      const { artists } = await searchSpotifyArtists(text);
      setResults(artists);
      if (artists.length === 0) notify.error('No artists found matching your search', 'No results');
    } catch (error) {
      notify.error(errorMessage(error, 'Failed to search artists'), 'Search failed');
    } finally {
      setIsSearching(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setResults(null);
          reset();
        }
        onOpenChange(next);
      }}
      title="Search for Artist"
      description={isConfigured ? 'Find the artist on Spotify to link their profile.' : undefined}
    >
      {!isConfigured ? (
        <p role="status" className="rounded-lg bg-amber-500/10 p-3 text-sm text-amber-200">
          {NOT_CONFIGURED_TEXT}
        </p>
      ) : (
        <form
          className="space-y-4"
          onSubmit={handleSubmit(
            ({ query }) => search(query),
            () => notify.error(BUILDER_MESSAGES.searchTooShort, BUILDER_MESSAGES.invalidSearchTitle),
          )}
        >
          <div>
            <Label htmlFor="artist-search-query">Artist name</Label>
            <div className="flex gap-2">
              <Input
                id="artist-search-query"
                {...register('query')}
                placeholder="Search Spotify artists"
                autoComplete="off"
              />
              <Button type="submit" disabled={isSearching}>
                {isSearching ? (
                  <Spinner className="size-4" label="Searching" />
                ) : (
                  <Search aria-hidden className="size-4" />
                )}
                Search
              </Button>
            </div>
          </div>
          {results && results.length === 0 ? (
            <p className="text-sm text-zinc-400">No artists found matching your search</p>
          ) : null}
          {results && results.length > 0 ? (
            <ul className="max-h-80 space-y-2 overflow-y-auto" aria-label="Search results">
              {results.map((artist) => (
                <li key={artist.spotifyUrl}>
                  <button
                    type="button"
                    className="flex w-full items-center gap-3 rounded-lg border border-ink-700 p-2 text-left hover:bg-ink-800"
                    onClick={() => {
                      onSelect(artist);
                      setResults(null);
                      reset();
                      onOpenChange(false);
                    }}
                  >
                    {artist.image ? (
                      <img src={artist.image} alt="" className="size-12 rounded-full object-cover" />
                    ) : (
                      <UserRound aria-hidden className="size-12 rounded-full bg-ink-800 p-2 text-zinc-500" />
                    )}
                    <span className="min-w-0">
                      <span className="block truncate font-medium text-white">{artist.name}</span>
                      <span className="block truncate text-xs text-zinc-400">
                        {formatNumber(artist.followers)} followers
                        {artist.genres.length > 0 ? ` · ${artist.genres.slice(0, 3).join(', ')}` : ''}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </form>
      )}
    </Dialog>
  );
}
