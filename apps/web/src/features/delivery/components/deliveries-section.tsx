/**
 * The delivery dashboard: one row per release and target, searched by title, artist or UPC and filtered
 * by state, target and store (all kept in the URL; issue 26 finding 9, record 195), with retry, the detail of each attempt, and the takedowns artists asked for per store.
 */

import { PLATFORMS, type PlatformId } from '@tunedrop/shared';
import {
  DELIVERY_STATE_LABELS,
  DELIVERY_STATES,
  type DeliveryListItem,
  type DeliveryState,
  type DeliveryTargetView,
} from '@tunedrop/shared/schemas/delivery';
import { FileSearch, Inbox, RotateCcw, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Label, Select } from '../../../components/ui/input';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { useListParams } from '../../../components/ui/use-list-params';
import { errorMessage } from '../../../lib/api';
import { useAdminTakedown, useDeliveries, useRetryDelivery } from '../api/deliveries';
import { formatDateTime, platformName } from '../lib/format';
import { DeliveryDetailDialog } from './delivery-detail-dialog';
import { DeliveryStateBadge } from './delivery-state-badge';

const RETRYABLE: readonly DeliveryState[] = ['rejected', 'failed'];
const TAKE_DOWN_FROM_TARGET: readonly DeliveryState[] = [
  'queued',
  'delivered',
  'acknowledged',
  'rejected',
  'failed',
];

type PendingTakedown =
  | { kind: 'target'; delivery: DeliveryListItem }
  | { kind: 'store'; delivery: DeliveryListItem; platformId: PlatformId };

export function DeliveriesSection({ targets }: { targets: DeliveryTargetView[] | undefined }) {
  const [params] = useSearchParams();
  const stateParam = params.get('state') ?? '';
  const state = DELIVERY_STATES.find((item) => item === stateParam) ?? '';
  const targetId = params.get('target') ?? '';
  const storeParam = params.get('store') ?? '';
  const platform = PLATFORMS.find((item) => item.id === storeParam)?.id ?? '';
  const list = useListParams({ tabs: ['all'] as const, defaultTab: 'all' });
  const deliveries = useDeliveries({ state, targetId, q: list.q, platform });
  const retry = useRetryDelivery();
  const takedown = useAdminTakedown();
  const [openId, setOpenId] = useState<string | null>(null);
  const [pendingTakedown, setPendingTakedown] = useState<PendingTakedown | null>(null);

  const setFilter = (name: 'state' | 'target' | 'store', value: string) => list.setFilter(name, value);

  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];
  const isFiltered = Boolean(state || targetId || platform || list.q);

  const onRetry = (delivery: DeliveryListItem) =>
    retry.mutate(delivery.id, {
      onSuccess: () =>
        notify.success('Delivery queued again', `${delivery.releaseTitle} → ${delivery.targetName}`),
      onError: (error) => notify.error(errorMessage(error, 'Failed to retry the delivery')),
    });

  const confirmTakedown = () => {
    if (!pendingTakedown) return;
    const { delivery } = pendingTakedown;
    const body =
      pendingTakedown.kind === 'store'
        ? { platformId: pendingTakedown.platformId }
        : { targetId: delivery.targetId };
    takedown.mutate(
      { releaseId: delivery.releaseId, body },
      {
        onSuccess: () => notify.success('Takedown queued', delivery.releaseTitle),
        onError: (error) => notify.error(errorMessage(error, 'Failed to queue the takedown')),
        onSettled: () => setPendingTakedown(null),
      },
    );
  };

  return (
    <section aria-labelledby="deliveries-title" className="space-y-4">
      <div>
        <h2 id="deliveries-title" className="text-xl font-semibold text-white">
          Deliveries
        </h2>
        <p className="text-sm text-zinc-400">
          One row per release and target. States move as the worker uploads and stores acknowledge.
        </p>
      </div>
      <SearchInput
        label="Search deliveries by release title, artist or UPC"
        placeholder="Search by title, artist or UPC"
        value={list.searchText}
        onChange={list.setSearchText}
        onSubmit={list.submitSearch}
      />
      <div className="grid gap-3 sm:grid-cols-3 lg:max-w-3xl">
        <div>
          <Label htmlFor="delivery-filter-state">State</Label>
          <Select
            id="delivery-filter-state"
            value={state}
            onChange={(event) => setFilter('state', event.target.value)}
          >
            <option value="">All states</option>
            {DELIVERY_STATES.map((item) => (
              <option key={item} value={item}>
                {DELIVERY_STATE_LABELS[item]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="delivery-filter-target">Target</Label>
          <Select
            id="delivery-filter-target"
            value={targetId}
            onChange={(event) => setFilter('target', event.target.value)}
          >
            <option value="">All targets</option>
            {(targets ?? []).map((target) => (
              <option key={target.id} value={target.id}>
                {target.name}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="delivery-filter-store">Store</Label>
          <Select
            id="delivery-filter-store"
            value={platform}
            onChange={(event) => setFilter('store', event.target.value)}
          >
            <option value="">All stores</option>
            {PLATFORMS.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </Select>
        </div>
      </div>

      {deliveries.isPending ? (
        <Card className="flex justify-center text-brand-400">
          <Spinner />
        </Card>
      ) : deliveries.isError && !deliveries.data ? (
        <Card className="space-y-3 text-center">
          <p className="text-zinc-300">{errorMessage(deliveries.error, 'Failed to load deliveries')}</p>
          <Button variant="outline" onClick={() => deliveries.refetch()}>
            Try again
          </Button>
        </Card>
      ) : items.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 py-10 text-center">
          <Inbox aria-hidden className="size-8 text-brand-400" />
          <h3 className="font-semibold text-white">
            {isFiltered ? 'No deliveries match these filters' : 'No deliveries yet'}
          </h3>
          <p className="max-w-md text-sm text-zinc-400">
            {isFiltered
              ? 'Try another search, state, target or store, or show all.'
              : 'When a release is approved, one delivery per target serving its stores appears here, queued, and moves on as it is sent and acknowledged.'}
          </p>
          {isFiltered ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => list.clearFilters(['state', 'target', 'store'])}
            >
              Show all deliveries
            </Button>
          ) : null}
        </Card>
      ) : (
        <>
          <ul className="space-y-3" aria-label="Deliveries">
            {items.map((delivery) => (
              <DeliveryRow
                key={delivery.id}
                delivery={delivery}
                onOpen={() => setOpenId(delivery.id)}
                onRetry={() => onRetry(delivery)}
                isRetrying={retry.isPending && retry.variables === delivery.id}
                onTakedownTarget={() => setPendingTakedown({ kind: 'target', delivery })}
                onTakedownStore={(platformId) => setPendingTakedown({ kind: 'store', delivery, platformId })}
              />
            ))}
          </ul>
          {deliveries.hasNextPage ? (
            <div className="flex justify-center">
              <Button
                variant="outline"
                onClick={() => deliveries.fetchNextPage()}
                disabled={deliveries.isFetchingNextPage}
              >
                {deliveries.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}

      <DeliveryDetailDialog deliveryId={openId} onClose={() => setOpenId(null)} />
      <ConfirmDialog
        open={pendingTakedown !== null}
        onOpenChange={(open) => {
          if (!open && !takedown.isPending) setPendingTakedown(null);
        }}
        title="Take down"
        description={
          pendingTakedown?.kind === 'store'
            ? `Take "${pendingTakedown.delivery.releaseTitle}" down from ${platformName(pendingTakedown.platformId)}? A takedown message is sent to ${pendingTakedown.delivery.targetName}; the other stores keep the release.`
            : `Take "${pendingTakedown?.delivery.releaseTitle ?? ''}" down from every store ${pendingTakedown?.delivery.targetName ?? ''} serves? The other targets keep the release.`
        }
        confirmLabel={takedown.isPending ? 'Queuing...' : 'Take down'}
        isDestructive
        isPending={takedown.isPending}
        onConfirm={confirmTakedown}
      />
    </section>
  );
}

function DeliveryRow({
  delivery,
  onOpen,
  onRetry,
  isRetrying,
  onTakedownTarget,
  onTakedownStore,
}: {
  delivery: DeliveryListItem;
  onOpen: () => void;
  onRetry: () => void;
  isRetrying: boolean;
  onTakedownTarget: () => void;
  onTakedownStore: (platformId: PlatformId) => void;
}) {
  const headingId = `delivery-${delivery.id}-title`;
  const canTakeDown =
    delivery.action !== 'takedown' &&
    TAKE_DOWN_FROM_TARGET.includes(delivery.state) &&
    (delivery.releaseStatus === 'approved' || delivery.releaseStatus === 'live');
  return (
    <li aria-labelledby={headingId}>
      <Card className="space-y-3" data-testid="delivery-row">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-1">
            <h3 id={headingId} className="font-semibold text-white">
              <span className="break-words">{delivery.releaseTitle}</span>
              <span className="text-zinc-400"> → {delivery.targetName}</span>
            </h3>
            <p className="text-sm text-zinc-400">
              {delivery.artistName}
              {delivery.upc ? (
                <>
                  {' · UPC '}
                  <span className="font-mono">{delivery.upc}</span>
                </>
              ) : null}
            </p>
            <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-400">
              <DeliveryStateBadge state={delivery.state} />
              <span>
                Attempt {delivery.attempts} of {delivery.maxAttempts}
              </span>
              <span>· updated {formatDateTime(delivery.updatedAt)}</span>
              {delivery.nextAttemptAt ? (
                <span>· next try {formatDateTime(delivery.nextAttemptAt)}</span>
              ) : null}
            </div>
          </div>
          <div className="flex shrink-0 flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={onOpen}
              aria-label={`Details of ${delivery.releaseTitle} to ${delivery.targetName}`}
            >
              <FileSearch aria-hidden className="size-4" /> Details
            </Button>
            {RETRYABLE.includes(delivery.state) ? (
              <Button size="sm" onClick={onRetry} disabled={isRetrying}>
                <RotateCcw aria-hidden className="size-4" /> {isRetrying ? 'Retrying...' : 'Retry'}
              </Button>
            ) : null}
            {canTakeDown ? (
              <Button variant="ghost" size="sm" onClick={onTakedownTarget}>
                <XCircle aria-hidden className="size-4" /> Take down here
              </Button>
            ) : null}
          </div>
        </div>
        {delivery.lastError ? (
          <p
            className="rounded-md border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-200"
            data-testid="delivery-error"
          >
            {delivery.lastError}
          </p>
        ) : null}
        {delivery.pendingStoreTakedowns.length > 0 ? (
          <div className="flex flex-wrap items-center gap-2 rounded-md border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-100">
            <span>The artist asked for a takedown from:</span>
            {delivery.pendingStoreTakedowns.map((platformId) => (
              <Button
                key={platformId}
                variant="outline"
                size="sm"
                onClick={() => onTakedownStore(platformId)}
              >
                Take down from {platformName(platformId)}
              </Button>
            ))}
          </div>
        ) : null}
      </Card>
    </li>
  );
}
