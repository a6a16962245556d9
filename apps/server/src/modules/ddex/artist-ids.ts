/** An artist's ids on the stores, as the ERN's PartyIds (record 321). */
import { parseSpotifyArtistUrl } from '@tunedrop/shared/schemas/builder';
import type { ArtistCredit } from '../../db/schema';

/**
 * The artist's ids on Spotify and Apple Music, from the links the builder collects, as proprietary
 * PartyIds. DDEX asks for the DPID of the organisation that runs the id system as the Namespace: Spotify's
 * is PADPIDA2011072101T and its value the artist URI (`spotify:artist:…`, as Spotify's artist-id guide
 * names it). No DPID of Apple's is published, so its ids carry the documented namespace `music.apple.com`
 * (record 321).
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

/**
 * The artist profile's other store ids and Spotify's artist key (issue 41, record 297), as PartyIds of the
 * party with the profile's name. No DPID of these id systems is published, so each carries the store's
 * domain as its namespace, as Apple's does; the artist key (Spotify's Artist Profile Protection) has its
 * own namespace so it never clashes with the artist URI under Spotify's DPID.
 */
export const PROFILE_ID_NAMESPACES = {
  deezer: 'deezer.com',
  amazon: 'music.amazon.com',
  youtube: 'youtube.com',
  spotifyArtistKey: 'SpotifyArtistKey',
} as const;

export type ProfileStoreIds = {
  spotifyArtistId?: string | null;
  appleArtistId?: string | null;
  deezerArtistId?: string | null;
  amazonArtistId?: string | null;
  youtubeChannelId?: string | null;
  spotifyArtistKey?: string | null;
};

export function profilePartyIds(profile: ProfileStoreIds): { namespace: string; value: string }[] {
  const ids: { namespace: string; value: string }[] = [];
  if (profile.spotifyArtistId)
    ids.push({ namespace: ARTIST_ID_NAMESPACES.spotify, value: `spotify:artist:${profile.spotifyArtistId}` });
  if (profile.appleArtistId)
    ids.push({ namespace: ARTIST_ID_NAMESPACES.appleMusic, value: profile.appleArtistId });
  if (profile.deezerArtistId)
    ids.push({ namespace: PROFILE_ID_NAMESPACES.deezer, value: profile.deezerArtistId });
  if (profile.amazonArtistId)
    ids.push({ namespace: PROFILE_ID_NAMESPACES.amazon, value: profile.amazonArtistId });
  if (profile.youtubeChannelId)
    ids.push({ namespace: PROFILE_ID_NAMESPACES.youtube, value: profile.youtubeChannelId });
  if (profile.spotifyArtistKey)
    ids.push({ namespace: PROFILE_ID_NAMESPACES.spotifyArtistKey, value: profile.spotifyArtistKey });
  return ids;
}
