/**
 * Artist profiles (issue 27, record 201): the artists an account releases as. The plan table's
 * "Artist profiles: 1 (Basic), unlimited (Pro)"; the form's rules and the texts both sides show.
 */
import { z } from 'zod';
import { safeText } from '../text';
import {
  ARTIST_PROFILE_MESSAGES,
  amazonArtistIdOf,
  appleArtistIdOf,
  deezerArtistIdOf,
  NEW_ON_STORES,
  type NewOnStore,
  spotifyArtistIdOf,
  spotifyArtistKeyOf,
  youtubeChannelIdOf,
} from './artist-profile-rules';

export * from './artist-profile-rules';

const optionalId = (parse: (value: string) => string | null | undefined, message: string) =>
  safeText()
    .max(300)
    .optional()
    .nullable()
    .transform((value, context) => {
      const id = value ? parse(value) : undefined;
      if (id === null) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return id ?? null;
    });

/**
 * The create and edit form (the image is uploaded on its own). The store ids, Spotify's artist key and the
 * explicit "new artist profile on the store" choice are issue 41's (record 297); a store is either an id or
 * new, never both.
 */
export const artistProfileInputSchema = z
  .object({
    name: safeText()
      .trim()
      .min(1, ARTIST_PROFILE_MESSAGES.nameRequired)
      .max(100, ARTIST_PROFILE_MESSAGES.nameTooLong),
    spotifyArtistId: optionalId(spotifyArtistIdOf, ARTIST_PROFILE_MESSAGES.spotifyInvalid),
    appleArtistId: optionalId(appleArtistIdOf, ARTIST_PROFILE_MESSAGES.appleInvalid),
    deezerArtistId: optionalId(deezerArtistIdOf, ARTIST_PROFILE_MESSAGES.deezerInvalid),
    amazonArtistId: optionalId(amazonArtistIdOf, ARTIST_PROFILE_MESSAGES.amazonInvalid),
    youtubeChannelId: optionalId(youtubeChannelIdOf, ARTIST_PROFILE_MESSAGES.youtubeInvalid),
    spotifyArtistKey: optionalId(spotifyArtistKeyOf, ARTIST_PROFILE_MESSAGES.spotifyKeyInvalid),
    newOnStores: z
      .array(z.enum(NEW_ON_STORES))
      .max(NEW_ON_STORES.length)
      .default([])
      .transform((stores) => NEW_ON_STORES.filter((store) => stores.includes(store))),
  })
  .superRefine((value, context) => {
    if (value.newOnStores.includes('spotify') && value.spotifyArtistId)
      context.addIssue({
        code: 'custom',
        message: ARTIST_PROFILE_MESSAGES.newAndIdBoth('Spotify'),
        path: ['newOnStores'],
      });
    if (value.newOnStores.includes('apple_music') && value.appleArtistId)
      context.addIssue({
        code: 'custom',
        message: ARTIST_PROFILE_MESSAGES.newAndIdBoth('Apple Music'),
        path: ['newOnStores'],
      });
  });
export type ArtistProfileInput = z.input<typeof artistProfileInputSchema>;
export type ArtistProfileValues = z.output<typeof artistProfileInputSchema>;

export type ArtistProfile = {
  id: string;
  name: string;
  position: number;
  isFirst: boolean;
  spotifyArtistId: string | null;
  appleArtistId: string | null;
  deezerArtistId: string | null;
  amazonArtistId: string | null;
  youtubeChannelId: string | null;
  /** Spotify's artist key (Artist Profile Protection), shown to the account that holds it. */
  spotifyArtistKey: string | null;
  /** Stores where the artist explicitly has no artist page yet: releases create a new one. */
  newOnStores: NewOnStore[];
  /** Where the image is served (with a version so a new image is fetched), or null without one. */
  imageUrl: string | null;
  /** New releases may be created under it: the first profile always, the others on a running Pro plan. */
  canRelease: boolean;
  releaseCount: number;
};

export type ArtistProfileList = {
  profiles: ArtistProfile[];
  /** Another profile may be added now (Pro with a running subscription, or free access). */
  canAdd: boolean;
  /** The plan's limit: 1, or null for unlimited. */
  limit: number | null;
};

/** `?artistProfileId=` on My Songs, analytics and statements: one profile, or all when left out. */
export const artistProfileFilterSchema = z.object({
  artistProfileId: z.uuid().optional(),
});
