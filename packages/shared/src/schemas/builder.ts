/**
 * The release builder's rules (spec 02 §5, §9): every validation message, the draft the wizard
 * saves, and the submission the server re-checks. One copy for the browser and the server.
 */
import { z } from 'zod';
import {
  GENRES,
  LIMITS,
  PLATFORM_IDS,
  type PlatformId,
  type ReleaseStatus,
  SONGWRITER_ROLES,
} from '../constants';
import { safeText } from '../text';

export const BUILDER_MESSAGES = {
  // Release details (§5)
  titleRequired: 'Release title is required',
  genreRequired: 'Please select a genre',
  releaseDateRequired: 'Release date is required',
  coverArtRequired: 'Cover artwork is required',
  copyrightHolderRequired: 'Copyright holder is required',
  publishingHolderRequired: 'Publishing holder is required',
  copyrightYearInvalid: 'Valid copyright year is required (1900 or later)',
  publishingYearInvalid: 'Valid publishing year is required (1900 or later)',
  coverArtFormat: 'Only JPG and PNG formats are accepted',
  coverArtSize: 'File size must be less than 10MB',
  coverArtDimensions: 'Cover art must be exactly 3000x3000 pixels',
  // Tracks (§5)
  trackTitleRequired: 'Track title is required',
  trackTitlesUnique: 'Track titles must be unique',
  audioFileRequired: 'Audio file is required',
  audioFileFormat: 'Only WAV format is accepted',
  songwriterRequired: 'At least one songwriter is required',
  producerRequired: 'At least one producer is required',
  primaryArtistRequired: 'At least one primary artist is required',
  maxPrimaryArtistsPerTrack: 'Maximum 4 primary artists per track (Spotify limit).',
  invalidUrlTitle: 'Invalid URL',
  spotifyLinkInvalid: 'Please enter a valid Spotify artist link',
  invalidSearchTitle: 'Invalid search',
  searchTooShort: 'Please enter at least 2 characters',
  platformRequired: 'Please select at least one platform to continue',
  proFeature: 'Pro feature — upgrade to unlock',
  isrcPlaceholder: 'Upgrade to Pro to add ISRC',
  // Ours: the spec leaves these texts open.
  releaseDateInvalid: 'Release date must be a valid date',
  originalReleaseDateInvalid: 'Original release date must be a valid date',
  isrcInvalid: 'ISRC must look like CC-XXX-YY-NNNNN (country, registrant, year, number)',
  isrcDuplicate: 'Each track needs its own ISRC',
  isrcTaken: 'This ISRC is already used by another track',
  upcTaken: 'This UPC is already used by another release',
  upcInvalid: 'UPC must be 12 or 13 digits with a valid check digit',
  labelTooLong: 'Label name must be at most 200 characters',
  artistNameRequired: 'Artist name is required',
  appleMusicLinkInvalid: 'Please enter a valid Apple Music artist link',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  tooManyTracks: 'A release has 1 to 20 tracks',
  basicOnePrimaryArtist:
    'The Basic plan allows one primary artist per release. Upgrade to Pro for more primary artists.',
  maxPrimaryArtistsPerRelease: 'Maximum 999 primary artists per release.',
  basicHolderIsArtist: 'On the Basic plan this is your artist name. Upgrade to Pro to change it.',
  basicYearIsCurrent: 'On the Basic plan this is the current year. Upgrade to Pro to change it.',
  platformUnknown: 'Unknown platform',
  coverArtStillUploading: 'Please wait until the cover art has finished uploading',
  audioStillUploading: 'Please wait until the audio file has finished uploading',
  coverArtNotUsable: 'The cover art upload was not found or did not pass its checks. Please upload it again.',
  audioNotUsable: 'The audio upload was not found or did not pass its checks. Please upload it again.',
  audioUsedTwice: 'This audio file is already used by another track',
  fileNameRequired: 'A file name of at most 255 characters is required.',
  fileNameText:
    'The file name cannot contain control characters or line breaks. Rename the file and try again.',
} as const;

/**
 * An uploaded file's name as the browser reports it (issue 22): the same one-line text rule as every
 * other field, 1 to 255 characters. It is stored and shown; storage keys and ZIP entries use safe forms.
 */
export const uploadFileNameSchema = safeText(undefined, BUILDER_MESSAGES.fileNameText)
  .trim()
  .min(1, BUILDER_MESSAGES.fileNameRequired)
  .max(255, BUILDER_MESSAGES.fileNameRequired);

export const SPOTIFY_ARTIST_URL_PREFIX = 'https://open.spotify.com/artist/';
export const APPLE_MUSIC_URL_PREFIX = 'https://music.apple.com/';

/** The Spotify artist id in an artist link, or null when the link is not one. */
export function parseSpotifyArtistUrl(url: string): string | null {
  const value = url.trim();
  if (!value.startsWith(SPOTIFY_ARTIST_URL_PREFIX)) return null;
  const match = /^([A-Za-z0-9]{10,40})(?:[/?#].*)?$/.exec(value.slice(SPOTIFY_ARTIST_URL_PREFIX.length));
  return match?.[1] ?? null;
}

export function isSpotifyArtistUrl(url: string): boolean {
  return parseSpotifyArtistUrl(url) !== null;
}

export function isAppleMusicUrl(url: string): boolean {
  const value = url.trim();
  return value.startsWith(APPLE_MUSIC_URL_PREFIX) && value.length > APPLE_MUSIC_URL_PREFIX.length;
}

/**
 * Uploaded file names (§5): accents stripped, anything but letters, digits, dot, underscore and
 * hyphen becomes an underscore, repeated underscores collapse. Only the last path segment counts.
 */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return base
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/_+/g, '_');
}

export function isWavFileName(name: string): boolean {
  return /\.wav$/i.test(name.trim());
}

const ISRC_PATTERN = /^[A-Z]{2}-?[A-Z0-9]{3}-?[0-9]{2}-?[0-9]{5}$/;

/** CC-XXX-YY-NNNNN with the hyphens optional, upper-cased and without hyphens; null when invalid. */
export function normalizeIsrc(value: string): string | null {
  const upper = value.trim().toUpperCase();
  if (!ISRC_PATTERN.test(upper)) return null;
  return upper.replace(/-/g, '');
}

/** 12 (UPC-A) or 13 (EAN-13) digits whose last digit is the GTIN check digit. */
export function isValidUpc(value: string): boolean {
  if (!/^[0-9]{12,13}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = digits.pop() as number;
  let sum = 0;
  // Weights 3,1,3,… from the digit next to the check digit leftwards.
  for (let index = 0; index < digits.length; index += 1) {
    const fromRight = digits.length - 1 - index;
    sum += (digits[index] as number) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10 === check;
}

/** The latest year anyone on Earth can be in right now (UTC+14), so a year picked on 1 January is valid. */
export function currentYear(now: Date = new Date()): number {
  return new Date(now.getTime() + 14 * 3600 * 1000).getUTCFullYear();
}

/** The years a basic user's locked year fields may hold at this moment (usually one). */
export function currentYears(now: Date = new Date()): number[] {
  const years = new Set([
    now.getUTCFullYear(),
    currentYear(now),
    new Date(now.getTime() - 12 * 3600 * 1000).getUTCFullYear(),
  ]);
  return [...years];
}

function isValidDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export type YearField = 'copyright' | 'publishing';

/**
 * The one message of a copyright or publishing year, for the builder and Edit Release alike (issue 18):
 * a year after the current one names the real range ('Valid copyright year is required (1900 to 2026)'),
 * since "1900 or later" would be false for it; a missing, malformed or pre-1900 year keeps the spec's
 * message ('… (1900 or later)'). `year` is what the field holds, as typed or as a number.
 */
export function yearMessage(field: YearField, year: unknown, now: Date = new Date()): string {
  const text = typeof year === 'number' || typeof year === 'string' ? String(year).trim() : '';
  if (/^\d{4}$/.test(text) && Number(text) > currentYear(now)) {
    return `Valid ${field} year is required (${LIMITS.minYear} to ${currentYear(now)})`;
  }
  return field === 'copyright'
    ? BUILDER_MESSAGES.copyrightYearInvalid
    : BUILDER_MESSAGES.publishingYearInvalid;
}

/** A year from 1900 to the current one (UTC+14, see currentYear), typed or as a number. */
export function isValidYear(year: number, now: Date = new Date()): boolean {
  return Number.isInteger(year) && year >= LIMITS.minYear && year <= currentYear(now);
}

const yearSchema = (field: YearField) =>
  z.union([z.number(), safeText()], { message: yearMessage(field, null) }).transform((value, context) => {
    const text = String(value).trim();
    const year = /^\d{4}$/.test(text) ? Number(text) : Number.NaN;
    if (!isValidYear(year)) {
      context.addIssue({ code: 'custom', message: yearMessage(field, value) });
      return z.NEVER;
    }
    return year;
  });

const requiredText = (message: string, max = 200) =>
  safeText({ message }).trim().min(1, message).max(max, `At most ${max} characters`);
const optionalText = (max = 200) =>
  safeText()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

export const genreSchema = z.enum(GENRES, { message: BUILDER_MESSAGES.genreRequired });

// ---------------------------------------------------------------- submission (what the server takes)

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

const uploadIdSchema = (message: string) =>
  safeText({ message })
    .trim()
    .regex(/^[a-f0-9]{32}$/, message);

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
});
export type TrackSubmission = z.output<typeof trackSubmissionSchema>;

export const releaseDetailsSubmissionSchema = z.object({
  title: requiredText(BUILDER_MESSAGES.titleRequired),
  genre: genreSchema,
  releaseDate: safeText({ message: BUILDER_MESSAGES.releaseDateRequired })
    .trim()
    .min(1, BUILDER_MESSAGES.releaseDateRequired)
    .refine(isValidDate, BUILDER_MESSAGES.releaseDateInvalid),
  coverUploadId: uploadIdSchema(BUILDER_MESSAGES.coverArtRequired),
  copyrightHolder: requiredText(BUILDER_MESSAGES.copyrightHolderRequired),
  publishingHolder: requiredText(BUILDER_MESSAGES.publishingHolderRequired),
  copyrightYear: yearSchema('copyright'),
  publishingYear: yearSchema('publishing'),
  upc: safeText()
    .optional()
    .nullable()
    .transform((value, context) => {
      const digits = value?.trim() ?? '';
      if (!digits) return undefined;
      if (!isValidUpc(digits)) {
        context.addIssue({ code: 'custom', message: BUILDER_MESSAGES.upcInvalid });
        return z.NEVER;
      }
      return digits;
    }),
  labelName: optionalText(200),
  originalReleaseDate: safeText()
    .optional()
    .nullable()
    .transform((value, context) => {
      const text = value?.trim() ?? '';
      if (!text) return undefined;
      if (!isValidDate(text)) {
        context.addIssue({ code: 'custom', message: BUILDER_MESSAGES.originalReleaseDateInvalid });
        return z.NEVER;
      }
      return text;
    }),
});
export type ReleaseDetailsSubmission = z.output<typeof releaseDetailsSubmissionSchema>;

const titleKey = (title: string) => title.trim().toLowerCase();

export const releaseSubmissionSchema = z
  .object({
    idempotencyKey: safeText().regex(
      /^[A-Za-z0-9-]{16,100}$/,
      'A submission key of 16 to 100 letters, digits or hyphens is required',
    ),
    release: releaseDetailsSubmissionSchema,
    tracks: z
      .array(trackSubmissionSchema)
      .min(LIMITS.tracksMin, BUILDER_MESSAGES.tooManyTracks)
      .max(LIMITS.tracksMax, BUILDER_MESSAGES.tooManyTracks),
    platforms: z
      .array(safeText())
      .min(1, BUILDER_MESSAGES.platformRequired)
      .max(PLATFORM_IDS.length)
      .superRefine((ids, context) => {
        ids.forEach((id, index) => {
          if (!(PLATFORM_IDS as string[]).includes(id))
            context.addIssue({ code: 'custom', message: BUILDER_MESSAGES.platformUnknown, path: [index] });
        });
      })
      .transform((ids) => [...new Set(ids)] as PlatformId[]),
  })
  .superRefine((value, context) => {
    const titles = new Set<string>();
    const isrcs = new Set<string>();
    const audio = new Set<string>();
    value.tracks.forEach((track, index) => {
      const key = titleKey(track.title);
      if (titles.has(key))
        context.addIssue({
          code: 'custom',
          message: BUILDER_MESSAGES.trackTitlesUnique,
          path: ['tracks', index, 'title'],
        });
      titles.add(key);
      if (track.isrc) {
        if (isrcs.has(track.isrc))
          context.addIssue({
            code: 'custom',
            message: BUILDER_MESSAGES.isrcDuplicate,
            path: ['tracks', index, 'isrc'],
          });
        isrcs.add(track.isrc);
      }
      if (audio.has(track.audioUploadId))
        context.addIssue({
          code: 'custom',
          message: BUILDER_MESSAGES.audioUsedTwice,
          path: ['tracks', index, 'audioUploadId'],
        });
      audio.add(track.audioUploadId);
    });
  });
export type ReleaseSubmissionInput = z.input<typeof releaseSubmissionSchema>;
export type ReleaseSubmission = z.output<typeof releaseSubmissionSchema>;

/** Distinct artists by name (case-insensitive), first occurrence kept: the summary and the release row. */
export function uniqueArtistsByName<T extends { name: string }>(artists: readonly T[]): T[] {
  const seen = new Set<string>();
  const result: T[] = [];
  for (const artist of artists) {
    const key = artist.name.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    result.push(artist);
  }
  return result;
}

/**
 * The plan rules (§1, §5) on top of the schema: returns field errors keyed like the submission
 * (`release.upc`, `tracks.0.isrc`, `tracks` for release-wide rules). Empty when the plan allows it.
 */
export function planRuleErrors(
  submission: ReleaseSubmission,
  context: { isPro: boolean; artistName: string; now?: Date },
): Record<string, string> {
  const errors: Record<string, string> = {};
  const { release, tracks } = submission;
  const distinctPrimary = uniqueArtistsByName(tracks.flatMap((track) => track.primaryArtists));
  if (context.isPro) {
    if (distinctPrimary.length > LIMITS.primaryArtistsPerReleasePro)
      errors.tracks = BUILDER_MESSAGES.maxPrimaryArtistsPerRelease;
    return errors;
  }
  if (release.upc) errors['release.upc'] = BUILDER_MESSAGES.proFeature;
  if (release.labelName) errors['release.labelName'] = BUILDER_MESSAGES.proFeature;
  if (release.originalReleaseDate) errors['release.originalReleaseDate'] = BUILDER_MESSAGES.proFeature;
  const artistName = context.artistName.trim();
  if (release.copyrightHolder !== artistName)
    errors['release.copyrightHolder'] = BUILDER_MESSAGES.basicHolderIsArtist;
  if (release.publishingHolder !== artistName)
    errors['release.publishingHolder'] = BUILDER_MESSAGES.basicHolderIsArtist;
  const years = currentYears(context.now);
  if (!years.includes(release.copyrightYear))
    errors['release.copyrightYear'] = BUILDER_MESSAGES.basicYearIsCurrent;
  if (!years.includes(release.publishingYear))
    errors['release.publishingYear'] = BUILDER_MESSAGES.basicYearIsCurrent;
  tracks.forEach((track, index) => {
    if (track.isrc) errors[`tracks.${index}.isrc`] = BUILDER_MESSAGES.proFeature;
    if (track.primaryArtists.length > LIMITS.primaryArtistsPerReleaseBasic)
      errors[`tracks.${index}.primaryArtists`] = BUILDER_MESSAGES.basicOnePrimaryArtist;
  });
  if (distinctPrimary.length > LIMITS.primaryArtistsPerReleaseBasic)
    errors.tracks = BUILDER_MESSAGES.basicOnePrimaryArtist;
  return errors;
}

// ---------------------------------------------------------------- the draft (what the wizard saves)

const draftText = (max = 200) => safeText().max(max).catch('');

export const fileRefSchema = z.object({
  uploadId: safeText().regex(/^[a-f0-9]{32}$/),
  name: safeText().max(300),
  sizeBytes: z.number().int().nonnegative(),
});
export type FileRef = z.infer<typeof fileRefSchema>;

export const artistDraftSchema = z.object({
  name: draftText(),
  spotifyLink: draftText(300),
  appleMusicLink: draftText(300),
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
});
export type TrackDraft = z.infer<typeof trackDraftSchema>;

export const releaseDraftSchema = z.object({
  title: draftText(),
  genre: draftText(50),
  releaseDate: draftText(10),
  coverArt: fileRefSchema.nullable().catch(null),
  copyrightHolder: draftText(),
  copyrightYear: draftText(4),
  publishingHolder: draftText(),
  publishingYear: draftText(4),
  upc: draftText(13),
  labelName: draftText(),
  originalReleaseDate: draftText(10),
});
export type ReleaseDraft = z.infer<typeof releaseDraftSchema>;

export const builderDraftSchema = z.object({
  version: z.literal(1),
  step: z.number().int().min(1).max(4).catch(1),
  idempotencyKey: safeText().regex(/^[A-Za-z0-9-]{16,100}$/),
  release: releaseDraftSchema,
  tracks: z.array(trackDraftSchema).min(LIMITS.tracksMin).max(LIMITS.tracksMax),
  activeTrackId: safeText().max(64).nullable().catch(null),
  platforms: z.array(safeText().max(40)).max(PLATFORM_IDS.length).catch([]),
});
export type BuilderDraft = z.infer<typeof builderDraftSchema>;

/** The upload ids a draft refers to: the clean-up keeps these while the draft exists. */
export function draftUploadIds(draft: BuilderDraft): string[] {
  const ids = [draft.release.coverArt?.uploadId, ...draft.tracks.map((track) => track.file?.uploadId)];
  return ids.filter((id): id is string => Boolean(id));
}

// ---------------------------------------------------------------- uploads and answers

export const UPLOAD_KINDS = ['cover', 'audio'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export type UploadInfo = {
  id: string;
  kind: UploadKind;
  /** 'missing' when the server no longer has it (cleaned up or never created). */
  status: 'uploading' | 'checked' | 'rejected' | 'consumed' | 'missing';
  originalName: string;
  sizeBytes: number;
  /** Bytes the server holds so far (equal to sizeBytes once complete). */
  receivedBytes: number;
  error: string | null;
  details: Record<string, number | string> | null;
};

export type DraftAnswer = {
  draft: BuilderDraft | null;
  uploads: Record<string, UploadInfo>;
  /** The server's limits the browser pre-checks against. */
  limits: { maxWavBytes: number; coverMaxBytes: number };
};

export type SubmittedRelease = { id: string; title: string; status: ReleaseStatus; createdAt: string };

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

// ---------------------------------------------------------------- browser pre-checks

/** The cover art checks the browser can make before uploading (type and size; pixels need decoding). */
export function coverFileError(file: { name: string; type: string; size: number }): string | null {
  const isImageType = file.type === 'image/jpeg' || file.type === 'image/png';
  const isImageName = /\.(jpe?g|png)$/i.test(file.name);
  if (!isImageType && !(file.type === '' && isImageName)) return BUILDER_MESSAGES.coverArtFormat;
  if (file.size >= LIMITS.coverArtMaxBytes) return BUILDER_MESSAGES.coverArtSize;
  return null;
}

export function coverDimensionsError(width: number, height: number): string | null {
  return width === LIMITS.coverArtPixels && height === LIMITS.coverArtPixels
    ? null
    : BUILDER_MESSAGES.coverArtDimensions;
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

// ---------------------------------------------------------------- the wizard's step checks

/** Where an upload stands from the wizard's point of view. */
export type FileState = 'none' | 'uploading' | 'checked' | 'failed';

function firstErrors(error: z.ZodError, prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = `${prefix}${issue.path.join('.')}`;
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

/** What a basic user's release details become: holders are the artist name, years the current year. */
export function lockedReleaseFields(artistName: string, now: Date = new Date()) {
  const year = String(now.getFullYear());
  return {
    copyrightHolder: artistName,
    publishingHolder: artistName,
    copyrightYear: year,
    publishingYear: year,
  };
}

/** Step 1 ('Continue to Track Details'): field errors keyed by release draft field. */
export function releaseStepErrors(
  release: ReleaseDraft,
  context: { isPro: boolean; coverState: FileState },
): Record<string, string> {
  const input = {
    ...release,
    coverUploadId: context.coverState === 'checked' ? (release.coverArt?.uploadId ?? '') : '',
    upc: context.isPro ? release.upc : undefined,
    labelName: context.isPro ? release.labelName : undefined,
    originalReleaseDate: context.isPro ? release.originalReleaseDate : undefined,
  };
  const result = releaseDetailsSubmissionSchema.safeParse(input);
  const errors = result.success ? {} : firstErrors(result.error);
  const coverError = errors.coverUploadId;
  delete errors.coverUploadId;
  if (context.coverState === 'uploading') errors.coverArt = BUILDER_MESSAGES.coverArtStillUploading;
  else if (coverError) errors.coverArt = coverError;
  return errors;
}

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
    };
    const result = trackSubmissionSchema.safeParse(input);
    const errors = result.success ? {} : firstErrors(result.error);
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

/** The request the wizard sends: Pro-only fields dropped for everyone else, empty credits removed. */
export function draftToSubmission(draft: BuilderDraft, context: { isPro: boolean }): ReleaseSubmissionInput {
  const { release } = draft;
  const artists = (list: readonly ArtistDraft[]) =>
    uniqueArtistsByName(list.filter((artist) => artist.name.trim())).map((artist) => ({
      name: artist.name,
      spotifyLink: artist.spotifyLink,
      appleMusicLink: artist.appleMusicLink,
    }));
  return {
    idempotencyKey: draft.idempotencyKey,
    release: {
      title: release.title,
      genre: release.genre as ReleaseSubmissionInput['release']['genre'],
      releaseDate: release.releaseDate,
      coverUploadId: release.coverArt?.uploadId ?? '',
      copyrightHolder: release.copyrightHolder,
      publishingHolder: release.publishingHolder,
      copyrightYear: release.copyrightYear,
      publishingYear: release.publishingYear,
      ...(context.isPro
        ? { upc: release.upc, labelName: release.labelName, originalReleaseDate: release.originalReleaseDate }
        : {}),
    },
    tracks: draft.tracks.map((track) => ({
      title: track.title,
      audioUploadId: track.file?.uploadId ?? '',
      explicit: track.explicit,
      ...(context.isPro && track.isrc.trim() ? { isrc: track.isrc } : {}),
      primaryArtists: artists(track.primaryArtists),
      featuredArtists: artists(track.featuredArtists),
      songwriters: track.songwriters.map(({ firstName, middleName, lastName, role }) => ({
        firstName,
        middleName,
        lastName,
        role,
      })),
      producers: track.producers.map(({ firstName, middleName, lastName }) => ({
        firstName,
        middleName,
        lastName,
      })),
    })),
    platforms: draft.platforms,
  };
}
