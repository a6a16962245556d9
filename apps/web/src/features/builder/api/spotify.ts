/** Artist search and link lookup on Spotify, through our server (it holds the credentials). */
import type { SpotifyArtistResult } from '@tunedrop/shared/schemas/builder';
import { api } from '../../../lib/api';

export function searchSpotifyArtists(query: string) {
  return api<{ artists: SpotifyArtistResult[] }>('/api/builder/search-spotify-artists', {
    method: 'POST',
    body: { query },
  });
}

export function fetchSpotifyArtist(artistUrl: string) {
  return api<{ name: string; artist: SpotifyArtistResult }>('/api/builder/fetch-spotify-artist', {
    method: 'POST',
    body: { artistUrl },
  });
}
