/** Artist search and link lookup on Spotify, through our server (it holds the credentials). */
import { client, unwrap } from '../../../lib/api';

export function searchSpotifyArtists(query: string) {
  return unwrap(client.builder['search-spotify-artists'].$post({ json: { query } }));
}

export function fetchSpotifyArtist(artistUrl: string) {
  return unwrap(client.builder['fetch-spotify-artist'].$post({ json: { artistUrl } }));
}
