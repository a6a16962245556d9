/** The one place where a status (release, withdrawal, subscription, delivery, store) gets its label and colour (record 096). */
import type { ReleaseStatus, SubscriptionStatus, WithdrawalStatus } from '@tunedrop/shared';
import {
  DELIVERY_STATE_LABELS,
  type DeliveryState,
  STORE_STATE_LABELS,
  type StoreState,
} from '@tunedrop/shared/schemas/delivery';
import {
  PAYOUT_ITEM_STATE_LABELS,
  PAYOUT_RUN_STATE_LABELS,
  type PayoutItemState,
  type PayoutRunState,
} from '@tunedrop/shared/schemas/payouts';
import { RELEASE_STATUS_LABELS } from '@tunedrop/shared/schemas/releases';
import type { RoyaltyImportStatus } from '@tunedrop/shared/schemas/royalties';
import type { ComponentProps } from 'react';
import { Badge } from './card';

type Tone = NonNullable<ComponentProps<typeof Badge>['tone']>;

const RELEASE_TONES = {
  pending: 'yellow',
  processing: 'blue',
  approved: 'green',
  live: 'green',
  rejected: 'red',
  taken_down: 'neutral',
  deleted: 'neutral',
} as const satisfies Record<ReleaseStatus, Tone>;

const WITHDRAWAL_TONES = {
  pending: 'yellow',
  completed: 'green',
  rejected: 'red',
  cancelled: 'neutral',
} as const satisfies Record<WithdrawalStatus, Tone>;

/** A delivery to one target, as admins see it (issue 15). */
const DELIVERY_TONES = {
  queued: 'neutral',
  uploading: 'blue',
  delivered: 'blue',
  acknowledged: 'green',
  rejected: 'red',
  failed: 'red',
  takedown_queued: 'yellow',
  takedown_sent: 'yellow',
  taken_down: 'neutral',
} as const satisfies Record<DeliveryState, Tone>;

/** A release in one store, as the artist sees it (issue 15). */
const STORE_TONES = {
  waiting: 'neutral',
  no_connection: 'yellow',
  queued: 'neutral',
  uploading: 'blue',
  delivered: 'blue',
  acknowledged: 'brand',
  live: 'green',
  rejected: 'red',
  failed: 'red',
  takedown_requested: 'yellow',
  takedown_queued: 'yellow',
  taken_down: 'neutral',
} as const satisfies Record<StoreState, Tone>;

export const WITHDRAWAL_STATUS_LABELS: Record<WithdrawalStatus, string> = {
  pending: 'Pending',
  completed: 'Completed',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: 'Active',
  canceled: 'Canceled',
  past_due: 'Past due',
  inactive: 'Inactive',
};

const SUBSCRIPTION_TONES = {
  active: 'green',
  canceled: 'yellow',
  past_due: 'red',
  inactive: 'neutral',
} as const satisfies Record<SubscriptionStatus, Tone>;

/** An imported royalty report (issue 16). */
const ROYALTY_IMPORT_LABELS: Record<RoyaltyImportStatus, string> = {
  staging: 'Being read',
  staged: 'Ready to post',
  failed: 'Has errors',
  posted: 'Posted',
};
const ROYALTY_IMPORT_TONES = {
  staging: 'neutral',
  staged: 'yellow',
  failed: 'red',
  posted: 'green',
} as const satisfies Record<RoyaltyImportStatus, Tone>;

/** A payout to one payee, and a payout run (issue 38). */
const PAYOUT_ITEM_TONES = {
  blocked: 'red',
  planned: 'neutral',
  sent: 'blue',
  paid: 'green',
  returned: 'yellow',
} as const satisfies Record<PayoutItemState, Tone>;
const PAYOUT_RUN_TONES = {
  planned: 'neutral',
  sending: 'blue',
  sent: 'blue',
  done: 'green',
} as const satisfies Record<PayoutRunState, Tone>;

type StatusOf = {
  release: ReleaseStatus;
  withdrawal: WithdrawalStatus;
  subscription: SubscriptionStatus;
  delivery: DeliveryState;
  store: StoreState;
  royaltyImport: RoyaltyImportStatus;
  payout: PayoutItemState;
  payoutRun: PayoutRunState;
};
export type StatusKind = keyof StatusOf;

const STATUSES: {
  [K in StatusKind]: { labels: Record<StatusOf[K], string>; tones: Record<StatusOf[K], Tone> };
} = {
  release: { labels: RELEASE_STATUS_LABELS, tones: RELEASE_TONES },
  withdrawal: { labels: WITHDRAWAL_STATUS_LABELS, tones: WITHDRAWAL_TONES },
  subscription: { labels: SUBSCRIPTION_STATUS_LABELS, tones: SUBSCRIPTION_TONES },
  delivery: { labels: DELIVERY_STATE_LABELS, tones: DELIVERY_TONES },
  store: { labels: STORE_STATE_LABELS, tones: STORE_TONES },
  royaltyImport: { labels: ROYALTY_IMPORT_LABELS, tones: ROYALTY_IMPORT_TONES },
  payout: { labels: PAYOUT_ITEM_STATE_LABELS, tones: PAYOUT_ITEM_TONES },
  payoutRun: { labels: PAYOUT_RUN_STATE_LABELS, tones: PAYOUT_RUN_TONES },
};

export function statusLabel<K extends StatusKind>(kind: K, status: StatusOf[K]): string {
  return STATUSES[kind].labels[status] ?? status;
}

export function statusTone<K extends StatusKind>(kind: K, status: StatusOf[K]): Tone {
  return STATUSES[kind].tones[status] ?? 'neutral';
}

/** Bar colours for charts, matching the badge tones. */
export const TONE_FILL: Record<Tone, string> = {
  neutral: 'bg-zinc-500',
  brand: 'bg-brand-400',
  green: 'bg-emerald-400',
  yellow: 'bg-amber-400',
  red: 'bg-red-400',
  blue: 'bg-sky-400',
};

export function StatusBadge<K extends StatusKind>({
  kind,
  status,
  ...props
}: { kind: K; status: StatusOf[K] } & Omit<ComponentProps<typeof Badge>, 'tone' | 'children'>) {
  return (
    <Badge tone={statusTone(kind, status)} {...props}>
      {statusLabel(kind, status)}
    </Badge>
  );
}
