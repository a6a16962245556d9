/**
 * The artist's own releases (spec 02 §2 My Songs and Edit Release, §4, §8): the edit rules and
 * messages, the list and detail shapes, and which status allows which action. Used by both sides.
 */
import { z } from 'zod';
import { GENRES, LIMITS, RELEASE_STATUSES, type ReleaseStatus } from '../constants';
import { safeText } from '../text';
import { aiDisclosureSchema } from './ai-disclosure';
import { BUILDER_MESSAGES, isValidYear, trackSubmissionSchema, yearMessage } from './builder';
import type { StoreRejection } from './delivery/release-detail';
import { type ReleaseAvailabilityView, releaseAvailabilitySchema } from './release-availability';

export const RELEASE_MESSAGES = {
  noSongs: 'No Songs Yet',
  noMatches: 'No releases match',
  takedownPending: 'Takedown Pending',
  fetchFailed: 'Failed to fetch releases',
  loadFailed: 'Failed to load release',
  cannotEditTitle: 'Cannot edit',
  cannotEdit: 'This release cannot be edited in its current status.',
  updateFailed: 'Failed to update release',
  deleteFailed: 'Failed to delete release',
  updated: 'Release updated successfully',
  deleted: 'Release deleted successfully',
  takedownFailed: 'Failed to request takedown',
  takedownRequested: 'Takedown requested',
  deleteConfirm: 'Are you sure you want to delete this release? This action cannot be undone.',
  titleRequired: 'Release title is required',
  titleTooLong: `Release title must be at most 200 characters.`,
  genreRequired: 'Please select a genre',
  primaryArtistRequired: 'At least one primary artist is required',
  copyrightHolderRequired: 'Copyright holder is required',
  publishingHolderRequired: 'Publishing holder is required',
  copyrightYearInvalid: BUILDER_MESSAGES.copyrightYearInvalid,
  resubmitted: 'Release resubmitted for review',
  resubmitFailed: 'Failed to resubmit release',
  cannotResubmit: 'Only a rejected release can be resubmitted.',
  resubmitConfirm:
    'Resubmit this release for review? It goes back to Pending and a moderator reviews it again.',
  basicOnePrimaryArtist: BUILDER_MESSAGES.basicOnePrimaryArtist,
  tooManyPrimaryArtists: `A release can have at most ${LIMITS.primaryArtistsPerReleasePro} primary artists.`,
  proFeature: 'Pro feature — upgrade to unlock',
  notFound: 'Release not found.',
} as const;

export const RELEASE_FIELD_LIMITS = {
  titleMaxLength: 200,
  artistNameMaxLength: 100,
  labelNameMaxLength: 200,
  holderMaxLength: 200,
  featuredArtistsMax: 50,
} as const;

export const RELEASE_STATUS_LABELS: Record<ReleaseStatus, string> = {
  pending: 'Pending',
  processing: 'Processing',
  approved: 'Approved',
  live: 'Live',
  rejected: 'Rejected',
  taken_down: 'Taken Down',
  deleted: 'Deleted',
};

/** Statuses in which the owner may still edit or delete a release (spec 02 §4). */
export const EDITABLE_STATUSES = ['pending', 'processing'] as const satisfies readonly ReleaseStatus[];
/** Statuses from which the owner may ask for a takedown (spec 02 §4). */
export const TAKEDOWN_STATUSES = ['approved', 'live'] as const satisfies readonly ReleaseStatus[];

/**
 * Statuses in which the owner may change or delete a release: in review (spec 02 §4) and, beyond the
 * spec, rejected so it can be fixed and resubmitted (issue 18, decision 121).
 */
export const OWNER_CHANGEABLE_STATUSES = [
  ...EDITABLE_STATUSES,
  'rejected',
] as const satisfies readonly ReleaseStatus[];

export function isReleaseEditable(status: string): boolean {
  return (OWNER_CHANGEABLE_STATUSES as readonly string[]).includes(status);
}

/** A rejected release goes back to review (rejected → pending) through POST /api/releases/:id/resubmit. */
export function canResubmit(status: string): boolean {
  return status === 'rejected';
}

export function canRequestTakedown(status: string, isTakedownRequested: boolean): boolean {
  return (TAKEDOWN_STATUSES as readonly string[]).includes(status) && !isTakedownRequested;
}

/** "A, B, , C" → ["A", "B", "C"]: trimmed, empty entries dropped, repeated names (any case) once. */
export function splitArtistNames(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of text.split(',')) {
    const name = part.trim();
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

const artistNameSchema = safeText().trim().min(1).max(RELEASE_FIELD_LIMITS.artistNameMaxLength);

const primaryArtistsSchema = z
  .array(artistNameSchema)
  .min(1, RELEASE_MESSAGES.primaryArtistRequired)
  .max(LIMITS.primaryArtistsPerReleasePro, RELEASE_MESSAGES.tooManyPrimaryArtists);

const featuredArtistsSchema = z.array(artistNameSchema).max(RELEASE_FIELD_LIMITS.featuredArtistsMax);

/**
 * The builder's year rule and message (yearMessage): a year after this one names the real allowed range
 * (issue 18: 2031 must not be told "1900 or later"); a missing, malformed or too early year keeps the
 * spec's message, which is true for it.
 */
const copyrightYearSchema = z
  .number({ message: RELEASE_MESSAGES.copyrightYearInvalid })
  .refine((year) => isValidYear(year), { error: (issue) => yearMessage('copyright', issue.input) });

const editFields = {
  title: safeText()
    .trim()
    .min(1, RELEASE_MESSAGES.titleRequired)
    .max(RELEASE_FIELD_LIMITS.titleMaxLength, RELEASE_MESSAGES.titleTooLong),
  genre: z.enum(GENRES, { message: RELEASE_MESSAGES.genreRequired }),
  labelName: safeText()
    .trim()
    .max(RELEASE_FIELD_LIMITS.labelNameMaxLength)
    .nullish()
    .transform((value) => (value ? value : null)),
  copyrightHolder: safeText()
    .trim()
    .min(1, RELEASE_MESSAGES.copyrightHolderRequired)
    .max(RELEASE_FIELD_LIMITS.holderMaxLength),
  publishingHolder: safeText()
    .trim()
    .min(1, RELEASE_MESSAGES.publishingHolderRequired)
    .max(RELEASE_FIELD_LIMITS.holderMaxLength),
};

/** PATCH /api/releases/:id body. Plan rules (Basic: one artist, label and holders locked) are the server's. */
export const editReleaseSchema = z.object({
  ...editFields,
  primaryArtists: z
    .array(safeText())
    .transform((names) => splitArtistNames(names.join(',')))
    .pipe(primaryArtistsSchema),
  featuredArtists: z
    .array(safeText())
    .default([])
    .transform((names) => splitArtistNames(names.join(',')))
    .pipe(featuredArtistsSchema),
  copyrightYear: copyrightYearSchema,
  /** Release time and territories (record 199); left out: unchanged. */
  availability: releaseAvailabilitySchema.optional(),
});
export type EditReleaseInput = z.input<typeof editReleaseSchema>;
export type EditRelease = z.output<typeof editReleaseSchema>;

/** The Edit Release form: artists typed comma-separated, the year typed as text; parses to EditRelease. */
export const editReleaseFormSchema = z.object({
  ...editFields,
  labelName: safeText().trim().max(RELEASE_FIELD_LIMITS.labelNameMaxLength),
  primaryArtists: safeText().transform(splitArtistNames).pipe(primaryArtistsSchema),
  featuredArtists: safeText().transform(splitArtistNames).pipe(featuredArtistsSchema),
  copyrightYear: safeText()
    .trim()
    .regex(/^\d{4}$/, RELEASE_MESSAGES.copyrightYearInvalid)
    .transform(Number)
    .pipe(copyrightYearSchema),
});
export type EditReleaseFormValues = z.input<typeof editReleaseFormSchema>;

/**
 * POST /api/releases/:id/tracks (issue 18, record 121): one more track at the end, with the builder's own
 * per-track rules and its checked WAV upload (no ISRC: codes are assigned at approval or on the builder).
 */
/** A track added after submission goes to review like a new one: its AI use is required (record 295). */
export const addTrackSchema = trackSubmissionSchema
  .omit({ isrc: true })
  .extend({ aiDisclosure: aiDisclosureSchema });
export type AddTrackInput = z.input<typeof addTrackSchema>;
export type AddTrack = z.output<typeof addTrackSchema>;

/** PUT /api/releases/:id/cover and /api/releases/:id/tracks/:trackId/audio: a checked builder upload. */
export const replaceFileSchema = z.object({
  uploadId: safeText().regex(/^[a-f0-9]{32}$/, 'Not an upload id'),
});
export type ReplaceFile = z.infer<typeof replaceFileSchema>;

/**
 * My Songs' search and state filter (issue 26 finding 9, record 195): `q` finds a release by its title,
 * an artist, its UPC or one of its tracks' ISRCs (hyphens and case ignored); an empty value is no filter.
 */
export const mySongsQuerySchema = z.object({
  cursor: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  q: safeText()
    .max(200)
    .transform((value) => value.trim() || undefined)
    .optional(),
  status: z
    .enum(RELEASE_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** One artist profile's releases (record 201); all the account's when left out. */
  artistProfileId: z.uuid().optional(),
});
export type MySongsQuery = z.input<typeof mySongsQuerySchema>;

/** One row of My Songs: exactly what the list shows, nothing more. */
export type MySongItem = {
  id: string;
  title: string;
  primaryArtists: string[];
  trackCount: number;
  status: ReleaseStatus;
  isTakedownPending: boolean;
  rejectionReason: string | null;
  /** A small thumbnail served by GET /api/releases/:id/cover/small; null shows a placeholder. */
  coverUrl: string | null;
  /** Standing store rejections: non-empty shows "Needs action" beside the status (record 194). */
  storeRejections: StoreRejection[];
  /** A post-release update of it waits in review: "Update in review" beside the status (record 197). */
  updateInReview: boolean;
};

export type MySongsPage = { items: MySongItem[]; nextCursor: string | null };

/** What the Edit Release page loads. */
export type ReleaseForEdit = {
  id: string;
  title: string;
  primaryArtists: string[];
  featuredArtists: string[];
  genre: string;
  labelName: string | null;
  copyrightHolder: string;
  copyrightYear: number;
  publishingHolder: string;
  /** YYYY-MM-DD, not edited here; the page warns when it is less than 14 days away (issue 26). */
  releaseDate: string;
  /** Release time and territories (record 199), edited here. */
  availability: ReleaseAvailabilityView;
  status: ReleaseStatus;
  isEditable: boolean;
  /** The current cover's medium thumbnail (a new URL after a replacement), or null. */
  coverUrl: string | null;
  /** The tracks in order with their full credits (GET only; the PATCH answer leaves it empty). */
  tracks: EditableTrack[];
};

export type EditableTrack = {
  id: string;
  title: string;
  explicit: boolean;
  /** The current WAV's original name and length (shown beside "Replace audio"; not edited here). */
  fileName: string;
  durationMs: number | null;
  primaryArtists: { name: string; spotifyLink?: string | undefined; appleMusicLink?: string | undefined }[];
  featuredArtists: { name: string; spotifyLink?: string | undefined; appleMusicLink?: string | undefined }[];
  songwriters: { firstName: string; middleName: string | null; lastName: string; role: string }[];
  producers: { firstName: string; middleName: string | null; lastName: string }[];
};

export const COVER_SIZES = ['small', 'medium'] as const;
export type CoverSize = (typeof COVER_SIZES)[number];

/**
 * PUT /api/releases/:id/tracks (issue 18): the tracks of a release still changeable by its owner, in their
 * new order, with the builder's own per-track rules (title, explicit, artists, songwriters, producers).
 * Every existing track appears exactly once; files and ISRCs are not changed here.
 */
export const editTracksSchema = z
  .object({
    tracks: z
      .array(
        trackSubmissionSchema.omit({ audioUploadId: true, isrc: true, aiDisclosure: true }).extend({
          id: safeText().regex(/^[0-9a-f-]{36}$/i, 'Not a track id'),
          /** Optional here (record 295): an edit that leaves it out keeps the stored answer. */
          aiDisclosure: aiDisclosureSchema.optional(),
        }),
      )
      .min(LIMITS.tracksMin, BUILDER_MESSAGES.tooManyTracks)
      .max(LIMITS.tracksMax, BUILDER_MESSAGES.tooManyTracks),
  })
  .superRefine((value, context) => {
    const titles = new Set<string>();
    value.tracks.forEach((track, index) => {
      const key = track.title.trim().toLowerCase();
      if (titles.has(key))
        context.addIssue({
          code: 'custom',
          message: BUILDER_MESSAGES.trackTitlesUnique,
          path: ['tracks', index, 'title'],
        });
      titles.add(key);
    });
  });
export type EditTracksInput = z.input<typeof editTracksSchema>;
export type EditTracks = z.output<typeof editTracksSchema>;
