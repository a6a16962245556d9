/**
 * Artist profiles' texts and id rules without zod (issue 27 record 201; issue 29 record 210): the dashboard's
 * profile switcher is on every signed-in page's first load. `schemas/artist-profiles.ts` re-exports these.
 */
/** A Spotify artist id (22 base-62 characters), typed as is or inside an open.spotify.com artist link. */
const SPOTIFY_ID = /^[A-Za-z0-9]{22}$/;
const SPOTIFY_LINK =
  /^https:\/\/open\.spotify\.com\/(?:intl-[a-z-]+\/)?artist\/([A-Za-z0-9]{22})(?:[/?#].*)?$/;
/** An Apple Music artist id (digits), typed as is or at the end of a music.apple.com artist link. */
const APPLE_ID = /^[0-9]{1,15}$/;
const APPLE_LINK =
  /^https:\/\/music\.apple\.com\/(?:[a-z]{2}\/)?artist\/(?:[^/?#]+\/)?([0-9]{1,15})(?:[/?#].*)?$/;

/** A Deezer artist id (digits), as is or in a deezer.com artist link (issue 41, record 297). */
const DEEZER_ID = /^[0-9]{1,12}$/;
const DEEZER_LINK = /^https:\/\/(?:www\.)?deezer\.com\/(?:[a-z]{2}\/)?artist\/([0-9]{1,12})(?:[/?#].*)?$/;
/** An Amazon Music artist id (an ASIN: B0 and eight letters or digits), as is or in a music.amazon link. */
const AMAZON_ID = /^B0[0-9A-Z]{8}$/;
const AMAZON_LINK = /^https:\/\/music\.amazon\.[a-z.]+\/artists\/(B0[0-9A-Z]{8})(?:[/?#].*)?$/;
/** A YouTube channel id (UC and 22 characters), as is or in a youtube.com/channel link. */
const YOUTUBE_ID = /^UC[A-Za-z0-9_-]{22}$/;
const YOUTUBE_LINK = /^https:\/\/(?:www\.)?youtube\.com\/channel\/(UC[A-Za-z0-9_-]{22})(?:[/?#].*)?$/;
/** Spotify's artist key for Artist Profile Protection: one opaque token (letters, digits, - and _). */
const SPOTIFY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

/** Stores where a profile may be explicitly new (no artist page yet): the id fields it stands for. */
export const NEW_ON_STORES = ['spotify', 'apple_music'] as const;
export type NewOnStore = (typeof NEW_ON_STORES)[number];

/** The profile image's largest upload (JPEG or PNG, any shape; the server stores a 512 px square). */
export const ARTIST_PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const ARTIST_PROFILE_MESSAGES = {
  nameRequired: 'Artist name is required',
  nameTooLong: 'Artist name must be at most 100 characters',
  spotifyInvalid: 'Enter a Spotify artist id (22 letters and digits) or an open.spotify.com artist link',
  appleInvalid: 'Enter an Apple Music artist id (digits) or a music.apple.com artist link',
  deezerInvalid: 'Enter a Deezer artist id (digits) or a deezer.com artist link',
  amazonInvalid: 'Enter an Amazon Music artist id (B0 and 8 letters or digits) or a music.amazon artist link',
  youtubeInvalid: 'Enter a YouTube channel id (UC and 22 characters) or a youtube.com/channel link',
  spotifyKeyInvalid:
    'Enter the artist key exactly as Spotify for Artists shows it (letters, digits, - and _)',
  newAndIdBoth: (store: string) =>
    `Choose one for ${store}: the existing artist id, or a new artist profile on ${store}.`,
  /** The spec's own words for a Pro-only thing (02 §1), after what the plan table promises. */
  proFeature: 'Pro feature — upgrade to unlock',
  limitBasic: 'Basic includes 1 artist profile. More artist profiles are a Pro feature — upgrade to unlock.',
  /** A profile beyond the first after a downgrade or a lapse: its releases stay, new ones are refused. */
  readOnly: (first: string) =>
    `New releases can only be created under your first profile (${first}) on your current plan. This profile's releases stay as they are; more artist profiles are a Pro feature — upgrade to unlock.`,
  notFound: 'Artist profile not found',
  imageFormat: 'The profile image must be a JPEG or PNG image.',
  imageTooLarge: 'The profile image must be at most 5 MB.',
  imageDamaged: 'The profile image is damaged or incomplete.',
  imageSaved: 'Profile image saved',
  imageRemoved: 'Profile image removed',
  created: 'Artist profile created',
  saved: 'Artist profile saved',
  allProfiles: 'All profiles',
} as const;

/** The Spotify artist id in an id or a link; undefined when empty, null when it is neither. */
export function spotifyArtistIdOf(value: string): string | null | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (SPOTIFY_ID.test(text)) return text;
  return SPOTIFY_LINK.exec(text)?.[1] ?? null;
}

/** The Apple Music artist id in an id or a link; undefined when empty, null when it is neither. */
export function appleArtistIdOf(value: string): string | null | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (APPLE_ID.test(text)) return text;
  return APPLE_LINK.exec(text)?.[1] ?? null;
}

export const spotifyArtistLink = (id: string) => `https://open.spotify.com/artist/${id}`;
export const appleArtistLink = (id: string) => `https://music.apple.com/artist/${id}`;

const idOf =
  (exact: RegExp, link: RegExp) =>
  (value: string): string | null | undefined => {
    const text = value.trim();
    if (!text) return undefined;
    if (exact.test(text)) return text;
    return link.exec(text)?.[1] ?? null;
  };
export const deezerArtistIdOf = idOf(DEEZER_ID, DEEZER_LINK);
export const amazonArtistIdOf = idOf(AMAZON_ID, AMAZON_LINK);
export const youtubeChannelIdOf = idOf(YOUTUBE_ID, YOUTUBE_LINK);
export const spotifyArtistKeyOf = idOf(SPOTIFY_KEY, /$^/);
