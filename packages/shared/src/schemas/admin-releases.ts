/**
 * Release review for moderators and admins (spec 02 §2 Admin panel, §4, §5 Admin rules, §8): the five
 * tabs and their filters, the decision and ban inputs, the card and audit shapes, and every message.
 */

import { z } from 'zod';
import type { PlatformId, ReleaseStatus, SongwriterRole } from '../constants';
import type { PageInfo } from '../paging';
import { multilineText, safeText } from '../text';
import type { UploaderSubscription } from './admin-releases/uploader-standing';
import { AI_REVIEW_FILTERS, type AiArea, type AiUsage } from './ai-disclosure';
import type { AudioAnalysis } from './audio-checks';
import type { StoreRejection } from './delivery/release-detail';
import type { ReleaseAvailabilityView } from './release-availability';

export * from './admin-releases/uploader-standing';

/** An artist credit as stored: name plus optional Spotify and Apple Music links. */
export type ArtistCreditView = { name: string; spotifyLink?: string; appleMusicLink?: string };

export const ADMIN_RELEASE_TABS = ['pending', 'approved', 'takedown', 'rejected', 'takendown'] as const;
export type AdminReleaseTab = (typeof ADMIN_RELEASE_TABS)[number];

export const ADMIN_RELEASE_TAB_LABELS: Record<AdminReleaseTab, string> = {
  pending: 'Pending Releases',
  approved: 'Approved Releases',
  takedown: 'Takedown Requests',
  rejected: 'Rejected Releases',
  takendown: 'Takendown Releases',
};

/** Which statuses each tab shows (spec 02 §4); the takedown tab is the flag, whatever the status. */
export const ADMIN_TAB_STATUSES: Record<Exclude<AdminReleaseTab, 'takedown'>, readonly ReleaseStatus[]> = {
  pending: ['pending', 'processing'],
  approved: ['approved', 'live'],
  rejected: ['rejected'],
  takendown: ['taken_down', 'deleted'],
};

/** Statuses from which each decision may start (checked again in the UPDATE's WHERE). */
export const DECISION_FROM = {
  approve: ['pending', 'processing'],
  reject: ['pending', 'processing'],
  unapprove: ['approved', 'live'],
  unreject: ['rejected'],
  delete: ['approved', 'live', 'rejected', 'taken_down', 'deleted'],
} as const satisfies Record<string, readonly ReleaseStatus[]>;

export const ADMIN_RELEASE_MESSAGES = {
  accessDeniedTitle: 'Access denied',
  accessDenied: "You don't have admin or moderator privileges.",
  adminOnly: 'You need admin privileges to access this page.',
  fetchFailed: 'Failed to fetch releases',
  approveFailed: 'Failed to approve release',
  rejectFailed: 'Failed to reject release',
  takedownApproveFailed: 'Failed to approve takedown',
  takedownRejectFailed: 'Failed to reject takedown',
  unapproveFailed: 'Failed to unapprove release',
  deleteFailed: 'Failed to delete release',
  unrejectFailed: 'Failed to unreject release',
  banFailed: 'Failed to ban user',
  unbanFailed: 'Failed to unban user',
  rejectionReasonRequiredTitle: 'Rejection reason required',
  rejectionReasonRequired: 'Please provide a reason for rejection.',
  banReasonRequiredTitle: 'Ban reason required',
  banReasonRequired: 'Please provide a reason for banning this user.',
  exportFailedTitle: 'Export failed',
  exportFailed: 'Failed to export release files',
  downloadErrorTitle: 'Download error',
  downloadFailed: (trackTitle: string) => `Failed to download ${trackTitle}`,
  staleTitle: 'Release changed',
  labelDefault: 'Independent',
  noStores: 'None selected',
  approved: 'Release approved',
  rejected: 'Release rejected',
  unapproved: 'Release moved back to pending',
  unrejected: 'Release moved back to pending',
  takedownApproved: 'Takedown approved',
  takedownRejected: 'Takedown request rejected',
  deleted: 'Release deleted permanently',
  banned: 'User banned',
  unbanned: 'User unbanned',
} as const;

export const REASON_MAX_LENGTH = 1000;

export const adminReleasesQuerySchema = z.object({
  tab: z.enum(ADMIN_RELEASE_TABS).default('pending'),
  q: safeText().trim().max(200).optional(),
  /** AI use (issue 41, record 295). */
  ai: z.enum(AI_REVIEW_FILTERS).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
});
export type AdminReleasesQuery = z.input<typeof adminReleasesQuerySchema>;

export const rejectReleaseSchema = z.object({
  reason: multilineText({ message: ADMIN_RELEASE_MESSAGES.rejectionReasonRequired })
    .trim()
    .min(1, ADMIN_RELEASE_MESSAGES.rejectionReasonRequired)
    .max(REASON_MAX_LENGTH),
});

/** Bulk approve or reject from the Pending tab (issue 26): each id gets the single decision's rules. */
export const BULK_REVIEW_MAX = 100;
export const BULK_REVIEW_ACTIONS = ['approve', 'reject'] as const;
export type BulkReviewAction = (typeof BULK_REVIEW_ACTIONS)[number];

export const bulkReviewSchema = z
  .object({
    ids: z
      .array(safeText().uuid('Release not found.'))
      .min(1, 'Select at least one release.')
      .max(BULK_REVIEW_MAX, `Select at most ${BULK_REVIEW_MAX} releases at once.`),
    action: z.enum(BULK_REVIEW_ACTIONS),
    reason: multilineText({ message: ADMIN_RELEASE_MESSAGES.rejectionReasonRequired })
      .trim()
      .max(REASON_MAX_LENGTH)
      .optional(),
  })
  .superRefine((value, ctx) => {
    // The same rule as a single reject: a reason the artist will see, once for the whole batch.
    if (value.action === 'reject' && !value.reason) {
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: ADMIN_RELEASE_MESSAGES.rejectionReasonRequired,
      });
    }
  });
export type BulkReviewInput = z.infer<typeof bulkReviewSchema>;

/** One release of a bulk decision: done, or refused with the single route's message. */
export type BulkReviewOutcome =
  | { id: string; title: string | null; ok: true; status: ReleaseStatus }
  | { id: string; title: string | null; ok: false; code: string; message: string };

export type BulkReviewResult = { done: number; refused: number; results: BulkReviewOutcome[] };

export const banUploaderSchema = z.object({
  reason: multilineText({ message: ADMIN_RELEASE_MESSAGES.banReasonRequired })
    .trim()
    .min(1, ADMIN_RELEASE_MESSAGES.banReasonRequired)
    .max(REASON_MAX_LENGTH),
});

export const signedUrlQuerySchema = z.object({
  bucket: z.enum(['audio-files', 'cover-art']),
  path: safeText().min(1).max(1000),
});

export type CreditPerson = {
  firstName: string;
  middleName: string | null;
  lastName: string;
};

export type AdminTrack = {
  id: string;
  position: number;
  title: string;
  isrc: string | null;
  explicit: boolean;
  durationMs: number | null;
  originalFileName: string;
  fileKey: string;
  fileSizeBytes: number;
  sampleRate: number | null;
  bitDepth: number | null;
  channels: number | null;
  primaryArtists: ArtistCreditView[];
  featuredArtists: ArtistCreditView[];
  songwriters: (CreditPerson & { role: SongwriterRole })[];
  producers: CreditPerson[];
  /** How AI was used (record 295); null on a track submitted before the question was asked. */
  aiUsage: AiUsage | null;
  aiAreas: AiArea[];
  /** The audio pre-flight analysis (record 298); null on a track stored before it. */
  audioAnalysis: AudioAnalysis | null;
  /** Streams the WAV for the review player (staff session, HTTP Range). */
  audioUrl: string;
};

export type AdminReleaseCard = {
  id: string;
  title: string;
  status: ReleaseStatus;
  primaryArtists: ArtistCreditView[];
  featuredArtists: ArtistCreditView[];
  genre: string;
  releaseDate: string;
  /** Release time and territories (record 199). */
  availability: ReleaseAvailabilityView;
  originalReleaseDate: string | null;
  labelName: string | null;
  upc: string | null;
  copyrightHolder: string;
  copyrightYear: number;
  publishingHolder: string;
  publishingYear: number;
  distributionStores: PlatformId[];
  rejectionReason: string | null;
  isTakedownRequested: boolean;
  takedownRequestedAt: string | null;
  /** Stores the artist asked to leave (per-store takedown requests waiting for a decision, issue 26). */
  storeTakedownRequests: { platformId: PlatformId; requestedAt: string }[];
  /** Standing store rejections of its deliveries: "Needs action" (record 194). */
  storeRejections: StoreRejection[];
  createdAt: string;
  coverUrl: string | null;
  coverArtKey: string | null;
  uploader: {
    id: string;
    email: string;
    artistName: string;
    isBanned: boolean;
    banReason: string | null;
    /** Whether the account may still distribute: a lapse is shown on the card (issue 26). */
    subscription: UploaderSubscription;
  };
  tracks: AdminTrack[];
};

export type AdminReleaseCounts = Record<AdminReleaseTab, number>;

export type AdminReleasesPage = PageInfo & {
  items: AdminReleaseCard[];
  counts: AdminReleaseCounts;
  totalPages: number;
};

export type ExportManifest = {
  fileName: string;
  downloadUrl: string;
  entries: { name: string; sizeBytes: number | null }[];
};
