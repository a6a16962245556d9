/** Deliveries (release × target), their attempts and acknowledgements, and the admin's takedowns. */
import { z } from 'zod';
import { PLATFORM_IDS, type PlatformId, type ReleaseStatus } from '../../constants';
import { safeText } from '../../text';
import { DELIVERY_MESSAGES } from './messages';

export const DELIVERY_STATES = [
  'queued',
  'uploading',
  'delivered',
  'acknowledged',
  'rejected',
  'failed',
  'takedown_queued',
  'takedown_sent',
  'taken_down',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  delivered: 'Delivered',
  acknowledged: 'Acknowledged',
  rejected: 'Rejected',
  failed: 'Failed',
  takedown_queued: 'Takedown queued',
  takedown_sent: 'Takedown sent',
  taken_down: 'Taken down',
};
/** What the current (or last) message of a delivery says. */
export const DELIVERY_ACTIONS = ['new', 'update', 'takedown'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

export const deliveriesQuerySchema = z.object({
  state: z
    .enum(DELIVERY_STATES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  targetId: safeText()
    .uuid()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  releaseId: safeText()
    .uuid()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Release title, artist or UPC (issue 26 finding 9, record 195); empty is no filter. */
  q: safeText()
    .max(200)
    .transform((value) => value.trim() || undefined)
    .optional(),
  /** One store: the deliveries whose message carries it. */
  platform: z
    .enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  cursor: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type DeliveriesQuery = z.input<typeof deliveriesQuerySchema>;

export type DeliveryListItem = {
  id: string;
  releaseId: string;
  releaseTitle: string;
  artistName: string;
  upc: string | null;
  releaseStatus: ReleaseStatus;
  targetId: string;
  targetName: string;
  action: DeliveryAction;
  state: DeliveryState;
  /** Platforms this delivery carries deals for (target ∩ release stores − per-store takedowns). */
  platforms: PlatformId[];
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  /** Last upload/connection error, or the store's rejection text. */
  lastError: string | null;
  deliveredAt: string | null;
  acknowledgedAt: string | null;
  updatedAt: string;
  /** Stores the artist asked to take down that an admin has not yet acted on. */
  pendingStoreTakedowns: PlatformId[];
};
export type DeliveryListResponse = { items: DeliveryListItem[]; nextCursor: string | null };

export type AckView = {
  id: string;
  targetId: string;
  targetName: string;
  fileName: string;
  receivedAt: string;
  /** `accepted`, `rejected`, `unknown_message` (no delivery has this MessageId), `malformed`. */
  outcome: 'accepted' | 'rejected' | 'unknown_message' | 'malformed';
  messageId: string | null;
  status: string | null;
  errorText: string | null;
  /** The file's text as received (truncated to 64 KB). */
  text: string;
};

export type DeliveryAttemptView = {
  id: string;
  number: number;
  action: DeliveryAction;
  messageId: string;
  startedAt: string;
  finishedAt: string | null;
  outcome: 'running' | 'uploaded' | 'failed';
  error: string | null;
  /** Folder written on the target, e.g. `N_0614141000012_20261123101500123`. */
  remotePath: string | null;
  bytes: number;
  messageXml: string;
  packageAvailable: boolean;
  acks: AckView[];
};

export type DeliveryDetail = DeliveryListItem & { attemptsList: DeliveryAttemptView[] };

export const adminTakedownSchema = z
  .object({
    targetId: safeText().uuid().optional(),
    platformId: z
      .enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]], { message: DELIVERY_MESSAGES.platformUnknown })
      .optional(),
  })
  .default({});
export type AdminTakedownInput = z.input<typeof adminTakedownSchema>;
