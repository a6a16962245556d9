/**
 * One row per store the release goes to: its state and date, a rejection reason, and a takedown request.
 * A target that sends the release to many stores (an aggregator) is one row, "Sent to X for N stores",
 * that opens to its stores (issue 26 finding 9, record 195).
 */
import {
  DELIVERY_MESSAGES,
  type ReleaseDetail,
  type ReleaseDetailStore,
  STORE_STATE_LABELS,
  type StoreState,
} from '@tunedrop/shared/schemas/delivery';
import { ChevronDown, ChevronRight, Send, Store, XCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useAccountCan } from '../../../lib/viewer';
import { useRequestStoreTakedown } from '../api/request-store-takedown';
import { formatDate } from '../lib/format';
import { StoreStateBadge } from './store-state-badge';

function storesIntro(status: ReleaseDetail['status']): string {
  if (status === 'pending' || status === 'processing')
    return 'These stores receive your release once it is approved; each row then shows how far the store has got.';
  if (status === 'rejected') return 'Nothing is sent to the stores while the release is rejected.';
  return 'Where your release is sent, and how far each store has got. A store goes live on the release date once it has accepted the release.';
}

/** A target's stores become one row from this many on (fewer read fine one by one). */
export const GROUP_MIN_STORES = 3;

type StoreEntry =
  | { kind: 'store'; store: ReleaseDetailStore }
  | { kind: 'group'; target: { id: string; name: string }; stores: ReleaseDetailStore[] };

/** The rows of the list, in the stores' order: a large enough target's stores in one entry at its first. */
export function groupStores(stores: ReleaseDetailStore[]): StoreEntry[] {
  const byTarget = new Map<string, ReleaseDetailStore[]>();
  for (const store of stores)
    if (store.target) byTarget.set(store.target.id, [...(byTarget.get(store.target.id) ?? []), store]);
  const entries: StoreEntry[] = [];
  const placed = new Set<string>();
  for (const store of stores) {
    const group = store.target ? byTarget.get(store.target.id) : undefined;
    if (!store.target || !group || group.length < GROUP_MIN_STORES) {
      entries.push({ kind: 'store', store });
    } else if (!placed.has(store.target.id)) {
      placed.add(store.target.id);
      entries.push({ kind: 'group', target: store.target, stores: group });
    }
  }
  return entries;
}

/** "Live · 24, Takedown requested · 1": how many of a group's stores are in each state. */
function stateCounts(stores: ReleaseDetailStore[]): [StoreState, number][] {
  const counts = new Map<StoreState, number>();
  for (const store of stores) counts.set(store.state, (counts.get(store.state) ?? 0) + 1);
  return [...counts];
}

function StoreRow({
  store,
  onTakedown,
}: {
  store: ReleaseDetailStore;
  onTakedown: (store: ReleaseDetailStore) => void;
}) {
  // Store takedowns are Catalog's (record 205).
  const isCatalog = useAccountCan()('catalog');
  return (
    <li
      className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4"
      data-testid="store-row"
      aria-label={store.name}
    >
      <div className="min-w-0 flex-1">
        <p className="font-medium text-white">{store.name}</p>
        {store.message ? (
          <p className="text-sm [overflow-wrap:anywhere] text-red-300" data-testid="store-message">
            {store.message}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <StoreStateBadge state={store.state} />
        <span className="text-xs text-zinc-400 tabular-nums sm:w-24 sm:text-right">
          {store.date ? <time dateTime={store.date}>{formatDate(store.date)}</time> : '—'}
        </span>
        {isCatalog && store.canRequestTakedown ? (
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto sm:ml-0"
            onClick={() => onTakedown(store)}
            aria-label={`Request takedown from ${store.name}`}
          >
            <XCircle aria-hidden className="size-4" /> Takedown
          </Button>
        ) : null}
      </div>
    </li>
  );
}

function StoreGroupRow({
  target,
  stores,
  onTakedown,
}: {
  target: { id: string; name: string };
  stores: ReleaseDetailStore[];
  onTakedown: (store: ReleaseDetailStore) => void;
}) {
  const [isOpen, setOpen] = useState(false);
  const listId = useId();
  const label = `Sent to ${target.name} for ${stores.length} stores`;
  const counts = stateCounts(stores);
  const [only] = counts.length === 1 ? counts : [];
  const dates = stores.map((store) => store.date).filter((date): date is string => date !== null);
  const latest = dates.sort().at(-1) ?? null;
  return (
    <li data-testid="store-group" aria-label={label}>
      <div className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-2 font-medium text-white">
            <Send aria-hidden className="size-4 shrink-0 text-brand-400" />
            <span className="[overflow-wrap:anywhere]">{label}</span>
          </p>
          <Button
            variant="ghost"
            size="sm"
            className="-ml-2 mt-1"
            aria-expanded={isOpen}
            aria-controls={listId}
            onClick={() => setOpen((open) => !open)}
          >
            {isOpen ? (
              <ChevronDown aria-hidden className="size-4" />
            ) : (
              <ChevronRight aria-hidden className="size-4" />
            )}
            {isOpen ? 'Hide stores' : 'Show stores'}
          </Button>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {only ? (
            <StoreStateBadge state={only[0]} />
          ) : (
            <p className="text-sm text-zinc-300" data-testid="store-group-states">
              {counts.map(([state, count]) => `${STORE_STATE_LABELS[state]} · ${count}`).join(', ')}
            </p>
          )}
          <span className="text-xs text-zinc-400 tabular-nums sm:w-24 sm:text-right">
            {latest ? <time dateTime={latest}>{formatDate(latest)}</time> : '—'}
          </span>
        </div>
      </div>
      {isOpen ? (
        <ul
          id={listId}
          aria-label={`Stores sent to ${target.name}`}
          className="divide-y divide-ink-700 border-t border-ink-700 bg-ink-900/40 sm:pl-6"
        >
          {stores.map((store) => (
            <StoreRow key={store.platformId} store={store} onTakedown={onTakedown} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function ReleaseStores({ release }: { release: ReleaseDetail }) {
  const takedown = useRequestStoreTakedown(release.id);
  const [target, setTarget] = useState<ReleaseDetailStore | null>(null);

  const confirm = () => {
    if (!target) return;
    takedown.mutate(
      { platformId: target.platformId },
      {
        onSuccess: () => notify.success(DELIVERY_MESSAGES.storeTakedownRequested, target.name),
        onError: (error) => notify.error(errorMessage(error, 'Failed to request the takedown')),
        onSettled: () => setTarget(null),
      },
    );
  };

  return (
    <section aria-labelledby="stores-title" className="space-y-3">
      <div>
        <h2 id="stores-title" className="text-xl font-semibold text-white">
          Stores
        </h2>
        <p className="text-sm text-zinc-400">{storesIntro(release.status)}</p>
      </div>
      {release.stores.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 py-8 text-center">
          <Store aria-hidden className="size-8 text-brand-400" />
          <p className="text-sm text-zinc-400">
            Stores appear here once the release is approved and queued for delivery.
          </p>
        </Card>
      ) : (
        <Card className="p-0">
          <ul aria-label="Stores" className="divide-y divide-ink-700">
            {groupStores(release.stores).map((entry) =>
              entry.kind === 'group' ? (
                <StoreGroupRow
                  key={`target-${entry.target.id}`}
                  target={entry.target}
                  stores={entry.stores}
                  onTakedown={setTarget}
                />
              ) : (
                <StoreRow key={entry.store.platformId} store={entry.store} onTakedown={setTarget} />
              ),
            )}
          </ul>
        </Card>
      )}
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => {
          if (!open && !takedown.isPending) setTarget(null);
        }}
        title={`Take down from ${target?.name ?? ''}`}
        description={`Ask for "${release.title}" to be removed from ${target?.name ?? 'this store'} only? Every other store keeps it. Our team sends the takedown; the store's row shows its progress.`}
        confirmLabel={takedown.isPending ? 'Requesting...' : 'Request Takedown'}
        isDestructive
        isPending={takedown.isPending}
        onConfirm={confirm}
      />
    </section>
  );
}
