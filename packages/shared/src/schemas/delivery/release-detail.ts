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
  'no_connection',
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
  // Approved, but no enabled delivery target serves the store (issue 44): nothing will go there until one does.
  no_connection: 'No store connection',
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

/**
 * A store the operator chose to offer that no enabled delivery target serves (issue 44): the approved or live
 * releases that chose it wait there (their page says "No store connection") until a target serves it.
 */
export type UnconnectedStore = { platformId: PlatformId; name: string; releases: number };
export type UnconnectedStoresView = {
  stores: UnconnectedStore[];
  /** Approved or live releases waiting on at least one of them. */
  releases: number;
};

/** The admin's warning line, the same on the delivery and review pages. */
export const unconnectedStoresMessage = (view: UnconnectedStoresView): string => {
  const n = view.stores.length;
  const waiting =
    view.releases === 0
      ? `no approved release waits on ${n === 1 ? 'it' : 'them'}`
      : `${view.releases} approved release${view.releases === 1 ? '' : 's'} ${view.releases === 1 ? 'waits' : 'wait'} on ${n === 1 ? 'it' : 'them'}`;
  return `${n} store${n === 1 ? ' has' : 's have'} no store connection (no enabled delivery target serves ${n === 1 ? 'it' : 'them'}): ${waiting}. Artists see "No store connection" for ${n === 1 ? 'it' : 'them'}.`;
};
