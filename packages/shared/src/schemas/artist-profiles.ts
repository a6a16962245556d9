/**
 * Artist profiles (issue 27, record 201): the artists an account releases as. The plan table's
 * "Artist profiles: 1 (Basic), unlimited (Pro)"; the form's rules and the texts both sides show.
 */
import { z } from 'zod';
import { safeText } from '../text';
import { ARTIST_PROFILE_MESSAGES, appleArtistIdOf, spotifyArtistIdOf } from './artist-profile-rules';

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

/** The create and edit form (the image is uploaded on its own). */
export const artistProfileInputSchema = z.object({
  name: safeText()
    .trim()
    .min(1, ARTIST_PROFILE_MESSAGES.nameRequired)
    .max(100, ARTIST_PROFILE_MESSAGES.nameTooLong),
  spotifyArtistId: optionalId(spotifyArtistIdOf, ARTIST_PROFILE_MESSAGES.spotifyInvalid),
  appleArtistId: optionalId(appleArtistIdOf, ARTIST_PROFILE_MESSAGES.appleInvalid),
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
