/**
 * Post-release edits (issue 26, record 197): the owner of an approved or live release proposes new details,
 * cover or audio; the change waits in review as an update (the stores keep what they have), and once a
 * moderator approves it the release takes it and an update message goes to every target holding it.
 * The rules reuse the Edit Release schema and the builder's upload id: one schema per rule.
 */
import { z } from 'zod';
import type { ReleaseStatus } from '../constants';
import { rejectReleaseSchema } from './admin-releases';
import { trackSubmissionSchema } from './builder';
import { editReleaseSchema, replaceFileSchema } from './releases';

export const RELEASE_UPDATE_MESSAGES = {
  inReviewLabel: 'Update in review',
  inReview: 'An update to this release is already in review. Wait for its decision before changing it again.',
  notUpdatable:
    'Only an approved or live release can be updated. Edit a release in review from Edit Release.',
  takedownRequested: 'This release has a takedown request: it cannot be updated until that is decided.',
  nothingChanged:
    'Nothing was changed: edit a detail, the cover, a track’s credits or ISRC, or its audio first.',
  submitted: 'Update sent for review: the stores keep the current version until it is approved.',
  submitFailed: 'Failed to send the update',
  approved: 'Update approved: it is being sent to the stores',
  rejected: 'Update rejected',
  decided: 'This update has already been decided. The list has been refreshed.',
  releaseGone: 'This release is no longer approved or live, so the update cannot be applied.',
  approveFailed: 'Failed to approve the update',
  rejectFailed: 'Failed to reject the update',
  noUpdates: 'No updates waiting for review',
  trackNotOnRelease: 'That track is not on this release.',
  /** Issue 44: a track's ISRC is changed after release on Pro only, as custom codes are set in the builder. */
  isrcProOnly: 'Changing an ISRC is a Pro feature — upgrade to unlock.',
} as const;

/** One replaced WAV: the track (it keeps its ISRC) and the checked builder upload. */
const audioReplacementSchema = replaceFileSchema.extend({ trackId: z.uuid('Track not found.') });

/** One track's credits and ISRC in an update: the builder's per-track rules, one schema per rule. */
export const trackCreditsUpdateSchema = trackSubmissionSchema
  .pick({ isrc: true, primaryArtists: true, featuredArtists: true, songwriters: true, producers: true })
  .extend({ trackId: z.uuid('Track not found.') });
export type TrackCreditsUpdate = z.output<typeof trackCreditsUpdateSchema>;

/**
 * POST /api/releases/:id/update: any of the Edit Release details (all of them, as the form sends them),
 * a new cover, new audio for some tracks. Plan rules (Basic: one artist, label and holders locked) are
 * the server's, as for Edit Release.
 */
export const releaseUpdateSchema = z.object({
  // Release time and territories change the deals themselves: not part of a post-release update.
  details: editReleaseSchema.omit({ availability: true }).optional(),
  coverUploadId: replaceFileSchema.shape.uploadId.optional(),
  audio: z.array(audioReplacementSchema).max(20).default([]),
  /**
   * A track's credits (performers, songwriters, producers) and ISRC fixed after release (issue 44, record
   * 236): the whole lists, as the builder checks them; an ISRC left out stays as it is.
   */
  tracks: z.array(trackCreditsUpdateSchema).max(20).default([]),
});
export type ReleaseUpdateInput = z.input<typeof releaseUpdateSchema>;
export type ReleaseUpdateRequest = z.output<typeof releaseUpdateSchema>;

/** POST /api/admin/release-updates/:id/reject: a reason is required, as for a release. */
export const rejectReleaseUpdateSchema = rejectReleaseSchema;

export const RELEASE_UPDATE_STATES = ['in_review', 'approved', 'rejected'] as const;
export type ReleaseUpdateState = (typeof RELEASE_UPDATE_STATES)[number];

/**
 * What an update delivery carries besides the metadata (`deliveries.update_scope`): the cover and the
 * WAVs of the listed tracks are sent again; null is a metadata-only update (choreography §5: binaries need
 * not be resent).
 */
export type UpdateScope = { cover: boolean; audioTrackIds: string[] };

/** Labels of a track's fields in the diff (record 236). */
export const TRACK_UPDATE_FIELD_LABELS = {
  isrc: 'ISRC',
  primaryArtists: 'Primary artists',
  featuredArtists: 'Featured artists',
  songwriters: 'Songwriters',
  producers: 'Producers',
} as const;

/** One line of the before/after diff the artist and the reviewer see. */
export type ReleaseUpdateChange =
  | { kind: 'detail'; field: string; label: string; before: string; after: string }
  | { kind: 'cover'; label: string; beforeUrl: string | null; afterUrl: string; afterName: string }
  | {
      kind: 'audio';
      label: string;
      trackId: string;
      trackTitle: string;
      before: string;
      after: string;
      afterUrl: string;
    };

export type ReleaseUpdateView = {
  id: string;
  releaseId: string;
  releaseTitle: string;
  releaseStatus: ReleaseStatus;
  artistName: string;
  state: ReleaseUpdateState;
  changes: ReleaseUpdateChange[];
  rejectionReason: string | null;
  createdAt: string;
  decidedAt: string | null;
};

/** Field labels of the diff, as Edit Release names them. */
export const RELEASE_UPDATE_FIELD_LABELS: Record<string, string> = {
  title: 'Release title',
  primaryArtists: 'Primary artists',
  featuredArtists: 'Featured artists',
  genre: 'Genre',
  labelName: 'Label name',
  copyrightHolder: 'Copyright holder',
  copyrightYear: 'Copyright year',
  publishingHolder: 'Publishing holder',
};
