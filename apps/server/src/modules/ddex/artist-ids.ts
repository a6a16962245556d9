/** An artist's ids on the stores, as the ERN's PartyIds (record 198). */
import { parseSpotifyArtistUrl } from '@tunedrop/shared/schemas/builder';
import type { ArtistCredit } from '../../db/schema';

/**
 * The artist's ids on Spotify and Apple Music, from the links the builder collects, as proprietary
 * PartyIds. DDEX asks for the DPID of the organisation that runs the id system as the Namespace: Spotify's
 * is PADPIDA2011072101T and its value the artist URI (`spotify:artist:…`, as Spotify's artist-id guide
 * names it). No DPID of Apple's is published, so its ids carry the documented namespace `music.apple.com`
 * (record 198).
 */
export const ARTIST_ID_NAMESPACES = {
  spotify: 'PADPIDA2011072101T',
  appleMusic: 'music.apple.com',
} as const;

/** The numeric artist id of an Apple Music artist link (…/artist/name/123 or …/artist/123), else null. */
export function parseAppleMusicArtistId(url: string): string | null {
  const match =
    /^https:\/\/music\.apple\.com\/(?:[a-z]{2}\/)?artist\/(?:[^/?#]+\/)?(?:id)?(\d+)(?:[/?#]|$)/i.exec(
      url.trim(),
    );
  return match?.[1] ?? null;
}

export function artistPartyIds(artist: ArtistCredit): { namespace: string; value: string }[] {
  const spotify = artist.spotifyLink ? parseSpotifyArtistUrl(artist.spotifyLink) : null;
  const apple = artist.appleMusicLink ? parseAppleMusicArtistId(artist.appleMusicLink) : null;
  return [
    ...(spotify ? [{ namespace: ARTIST_ID_NAMESPACES.spotify, value: `spotify:artist:${spotify}` }] : []),
    ...(apple ? [{ namespace: ARTIST_ID_NAMESPACES.appleMusic, value: apple }] : []),
  ];
}
