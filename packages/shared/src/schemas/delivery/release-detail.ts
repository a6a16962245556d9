/** The artist's release page: where the release stands per store, and the per-store takedown request. */
import { z } from 'zod';
import { PLATFORM_IDS, type PlatformId, type ReleaseStatus } from '../../constants';
import { multilineText } from '../../text';
import type { ReleaseAvailabilityView } from '../release-availability';
import { DELIVERY_MESSAGES } from './messages';

export const storeTakedownSchema = z.object({
  platformId: z.enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]], {
    message: DELIVERY_MESSAGES.platformUnknown,
  }),
});
export type StoreTakedownInput = z.input<typeof storeTakedownSchema>;

/** A moderator rejects an artist's per-store takedown request (issue 26): the store stays live; the reason goes to the artist. */
export const rejectStoreTakedownSchema = storeTakedownSchema.extend({
  reason: multilineText({ message: DELIVERY_MESSAGES.storeTakedownReasonRequired })
    .trim()
    .min(1, DELIVERY_MESSAGES.storeTakedownReasonRequired)
    .max(1000),
});
export type RejectStoreTakedownInput = z.input<typeof rejectStoreTakedownSchema>;

/** What the artist sees per store (derived from the delivery of the target serving it). */
export const STORE_STATES = [
  'waiting',
  'queued',
  'uploading',
  'delivered',
  'acknowledged',
  'live',
  'rejected',
  'failed',
  'takedown_requested',
  'takedown_queued',
  'taken_down',
] as const;
export type StoreState = (typeof STORE_STATES)[number];
export const STORE_STATE_LABELS: Record<StoreState, string> = {
  waiting: 'Waiting',
  queued: 'Queued',
  uploading: 'Sending',
  delivered: 'Delivered',
  acknowledged: 'Acknowledged',
  live: 'Live',
  rejected: 'Rejected',
  failed: 'Delivery problem',
  takedown_requested: 'Takedown requested',
  takedown_queued: 'Takedown in progress',
  taken_down: 'Taken down',
};

export type ReleaseDetailCredit = { firstName: string; middleName: string | null; lastName: string };
export type ReleaseDetailTrack = {
  id: string;
  position: number;
  title: string;
  isrc: string | null;
  explicit: boolean;
  durationMs: number | null;
  primaryArtists: string[];
  featuredArtists: string[];
  songwriters: (ReleaseDetailCredit & { role: string })[];
  producers: ReleaseDetailCredit[];
};
export type ReleaseDetailStore = {
  platformId: PlatformId;
  name: string;
  state: StoreState;
  /** When the state was reached (ISO), null while waiting. */
  date: string | null;
  /** The store's rejection reason, when rejected. */
  message: string | null;
  /** The artist may ask for a takedown from this store. */
  canRequestTakedown: boolean;
  /**
   * The delivery target that sends the release to this store, null while none has a delivery for it;
   * the page groups a target's stores into one row (issue 26 finding 9, record 195).
   */
  target: { id: string; name: string } | null;
};
/**
 * A store's (target's) rejection of the release's latest delivery there: while one stands the release
 * "Needs action" (issue 26 finding 4, record 194), an overlay on its Approved or Live status.
 */
export type StoreRejection = { target: string; reason: string; at: string };

/** The words of the overlay, the same on every screen. */
export const NEEDS_ACTION_LABEL = 'Needs action';

export type ReleaseStatusEvent = { status: string; at: string; note: string | null };
export type ReleaseDetail = {
  id: string;
  title: string;
  status: ReleaseStatus;
  coverUrl: string | null;
  primaryArtists: string[];
  featuredArtists: string[];
  genre: string;
  releaseDate: string;
  /** Release time and territories (record 199). */
  availability: ReleaseAvailabilityView;
  originalReleaseDate: string | null;
  labelName: string | null;
  copyrightHolder: string;
  copyrightYear: number;
  publishingHolder: string;
  publishingYear: number;
  upc: string | null;
  /** Approved but codes not yet assigned (operator has not configured prefixes). */
  codesPending: boolean;
  takedownRequested: boolean;
  /** The moderator's reason while the release is rejected (issue 18: fix and resubmit), else null. */
  rejectionReason: string | null;
  /** The owner may still change it: pending, processing, or rejected (then fix and resubmit). */
  isEditable: boolean;
  tracks: ReleaseDetailTrack[];
  stores: ReleaseDetailStore[];
  /** Standing store rejections (oldest first); non-empty means "Needs action". */
  storeRejections: StoreRejection[];
  statusHistory: ReleaseStatusEvent[];
};
