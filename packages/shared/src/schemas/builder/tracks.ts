/** Step 2, Tracks (spec 02 §5): credits, the submitted and saved track, the WAV checks, artist search, the step's errors. */
import { z } from 'zod';
import { LIMITS, SONGWRITER_ROLES } from '../../constants';
import { safeText } from '../../text';
import { AI_MESSAGES, aiDisclosureDraftSchema, aiDisclosureSchema } from '../ai-disclosure';
import { contentIdAnswersSchema } from '../content-id';
import { titleStyleError } from '../title-checks';
import {
  draftText,
  type FileState,
  fileRefSchema,
  firstErrors,
  isAppleMusicUrl,
  isSpotifyArtistUrl,
  isWavFileName,
  normalizeIsrc,
  optionalText,
  requiredText,
  titleKey,
  uploadIdSchema,
} from './fields';
import { BUILDER_MESSAGES } from './messages';

export const artistCreditSchema = z.object({
  name: requiredText(BUILDER_MESSAGES.artistNameRequired),
  spotifyLink: safeText()
    .trim()
    .max(300)
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || isSpotifyArtistUrl(value), BUILDER_MESSAGES.spotifyLinkInvalid),
  appleMusicLink: safeText()
    .trim()
    .max(300)
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || isAppleMusicUrl(value), BUILDER_MESSAGES.appleMusicLinkInvalid),
});
export type ArtistCreditInput = z.input<typeof artistCreditSchema>;
export type ArtistCreditValue = z.output<typeof artistCreditSchema>;

const personFields = {
  firstName: requiredText(BUILDER_MESSAGES.firstNameRequired, 100),
  middleName: optionalText(100),
  lastName: requiredText(BUILDER_MESSAGES.lastNameRequired, 100),
};
export const producerSchema = z.object(personFields);
export const songwriterSchema = z.object({
  ...personFields,
  role: z.enum(SONGWRITER_ROLES).default('music_and_lyrics'),
});

export const trackSubmissionSchema = z.object({
  title: requiredText(BUILDER_MESSAGES.trackTitleRequired),
  audioUploadId: uploadIdSchema(BUILDER_MESSAGES.audioFileRequired),
  explicit: z.boolean().default(false),
  isrc: safeText()
    .optional()
    .nullable()
    .transform((value, context) => {
      if (!value?.trim()) return undefined;
      const isrc = normalizeIsrc(value);
      if (!isrc) {
        context.addIssue({ code: 'custom', message: BUILDER_MESSAGES.isrcInvalid });
        return z.NEVER;
      }
      return isrc;
    }),
  primaryArtists: z
    .array(artistCreditSchema)
    .min(1, BUILDER_MESSAGES.primaryArtistRequired)
    .max(LIMITS.primaryArtistsPerTrack, BUILDER_MESSAGES.maxPrimaryArtistsPerTrack),
  featuredArtists: z.array(artistCreditSchema).max(20, 'At most 20 featured artists').default([]),
  songwriters: z.array(songwriterSchema).min(1, BUILDER_MESSAGES.songwriterRequired).max(50),
  producers: z.array(producerSchema).min(1, BUILDER_MESSAGES.producerRequired).max(50),
  /**
   * YouTube Content ID (Pro, record 192): the eligibility answers when the artist opted the track in, all
   * eligible (the schema of record 185); the track is opted in when the release is created.
   */
  contentIdAnswers: contentIdAnswersSchema.optional(),
  /**
   * How AI was used (issue 41, record 295): required for a submission (`builderSubmissionSchema`) and a
   * track added later; a catalogue import, which has no answer to give, leaves it out.
   */
  aiDisclosure: aiDisclosureSchema.optional(),
});
export type TrackSubmission = z.output<typeof trackSubmissionSchema>;

/** A draft's link: empty, or a valid one (a draft never stores text that would render as a link). */
const draftLink = (isValid: (url: string) => boolean, message: string) =>
  draftText(300).refine((value) => value.trim() === '' || isValid(value), message);

export const artistDraftSchema = z.object({
  name: draftText(),
  spotifyLink: draftLink(isSpotifyArtistUrl, BUILDER_MESSAGES.spotifyLinkInvalid),
  appleMusicLink: draftLink(isAppleMusicUrl, BUILDER_MESSAGES.appleMusicLinkInvalid),
});
export type ArtistDraft = z.infer<typeof artistDraftSchema>;

export const personDraftSchema = z.object({
  id: safeText().max(64),
  firstName: draftText(100),
  middleName: draftText(100),
  lastName: draftText(100),
});
export const songwriterDraftSchema = personDraftSchema.extend({
  role: z.enum(SONGWRITER_ROLES).catch('music_and_lyrics'),
});
export type PersonDraft = z.infer<typeof personDraftSchema>;
export type SongwriterDraft = z.infer<typeof songwriterDraftSchema>;

export const trackDraftSchema = z.object({
  id: safeText().max(64),
  title: draftText(),
  file: fileRefSchema.nullable().catch(null),
  explicit: z.boolean().catch(false),
  isrc: draftText(20),
  primaryArtists: z.array(artistDraftSchema).max(LIMITS.primaryArtistsPerTrack),
  featuredArtists: z.array(artistDraftSchema).max(20),
  songwriters: z.array(songwriterDraftSchema).max(50),
  producers: z.array(personDraftSchema).max(50),
  /** The Content ID opt-in chosen in the builder (answers all eligible); null when not opted in. */
  contentId: z.object({ answers: contentIdAnswersSchema }).nullish().catch(null),
  /** The AI use answer (record 295); a draft saved before the question loads unanswered. */
  aiDisclosure: aiDisclosureDraftSchema,
});
export type TrackDraft = z.infer<typeof trackDraftSchema>;

/**
 * A stored draft with its artists' links blanked where they are not valid ones (saved before links were
 * checked in drafts): loading it keeps the rest of the draft instead of refusing it whole.
 */
export function withoutInvalidDraftLinks<T>(data: T): T {
  if (typeof data !== 'object' || data === null || !Array.isArray(Reflect.get(data, 'tracks'))) return data;
  const clean = (artist: unknown) => {
    if (typeof artist !== 'object' || artist === null) return artist;
    const link = (key: string, isValid: (url: string) => boolean) => {
      const value = Reflect.get(artist, key);
      return typeof value === 'string' && value.trim() !== '' && !isValid(value) ? '' : value;
    };
    return {
      ...artist,
      spotifyLink: link('spotifyLink', isSpotifyArtistUrl),
      appleMusicLink: link('appleMusicLink', isAppleMusicUrl),
    };
  };
  const tracks = (Reflect.get(data, 'tracks') as unknown[]).map((track) => {
    if (typeof track !== 'object' || track === null) return track;
    const list = (key: string) => {
      const value = Reflect.get(track, key);
      return Array.isArray(value) ? value.map(clean) : value;
    };
    return { ...track, primaryArtists: list('primaryArtists'), featuredArtists: list('featuredArtists') };
  });
  return { ...data, tracks };
}

export function audioFileError(file: { name: string; size: number }, maxBytes: number): string | null {
  if (!isWavFileName(file.name)) return BUILDER_MESSAGES.audioFileFormat;
  if (file.size > maxBytes) return wavTooLargeMessage(maxBytes);
  return null;
}

/** Size in MB with two decimals, as the WAV box shows it. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/** 'WAV files must be at most 2 GB' for the configured limit. */
export function wavTooLargeMessage(maxBytes: number): string {
  const [value, unit] =
    maxBytes >= 1024 ** 3
      ? [maxBytes / 1024 ** 3, 'GB']
      : maxBytes >= 1024 ** 2
        ? [maxBytes / 1024 ** 2, 'MB']
        : [maxBytes / 1024, 'KB'];
  return `WAV files must be at most ${Number(value.toFixed(2))} ${unit}`;
}

export type SpotifyArtistResult = {
  name: string;
  spotifyUrl: string;
  image: string | null;
  followers: number;
  genres: string[];
};

export const spotifySearchSchema = z.object({
  query: safeText({ message: BUILDER_MESSAGES.searchTooShort })
    .trim()
    .min(LIMITS.artistSearchMinChars, BUILDER_MESSAGES.searchTooShort)
    .max(100),
});
export const spotifyArtistSchema = z.object({
  artistUrl: safeText({ message: BUILDER_MESSAGES.spotifyLinkInvalid })
    .trim()
    .refine(isSpotifyArtistUrl, BUILDER_MESSAGES.spotifyLinkInvalid),
});

/**
 * Step 2 ('Continue to Summary'): one map of errors per track, keyed like `title`, `file`,
 * `primaryArtists`, `songwriters.0.lastName`. Empty maps when every track is fine.
 */
export function tracksStepErrors(
  tracks: readonly TrackDraft[],
  context: { isPro: boolean; fileState: (track: TrackDraft) => FileState },
): Record<string, string>[] {
  const seenTitles = new Set<string>();
  const seenIsrcs = new Set<string>();
  return tracks.map((track) => {
    const state = context.fileState(track);
    const input = {
      ...track,
      isrc: context.isPro ? track.isrc : undefined,
      audioUploadId: state === 'checked' ? (track.file?.uploadId ?? '') : '',
      aiDisclosure: track.aiDisclosure.usage ? track.aiDisclosure : undefined,
    };
    const result = trackSubmissionSchema.safeParse(input);
    const errors = result.success ? {} : firstErrors(result.error);
    if (!track.aiDisclosure.usage) errors.aiDisclosure = AI_MESSAGES.usageRequired;
    const styleError = titleStyleError(track.title);
    if (styleError && !errors.title) errors.title = styleError;
    const fileError = errors.audioUploadId;
    delete errors.audioUploadId;
    if (state === 'uploading') errors.file = BUILDER_MESSAGES.audioStillUploading;
    else if (fileError) errors.file = fileError;
    const key = titleKey(track.title);
    if (key && seenTitles.has(key) && !errors.title) errors.title = BUILDER_MESSAGES.trackTitlesUnique;
    if (key) seenTitles.add(key);
    const isrc = context.isPro ? normalizeIsrc(track.isrc) : null;
    if (isrc && seenIsrcs.has(isrc) && !errors.isrc) errors.isrc = BUILDER_MESSAGES.isrcDuplicate;
    if (isrc) seenIsrcs.add(isrc);
    return errors;
  });
}
