/** One row per store the release goes to: its state and date, a rejection reason, and a takedown request. */
import type { ReleaseDetail, ReleaseDetailStore } from '@tunedrop/shared/schemas/delivery';
import { DELIVERY_MESSAGES } from '@tunedrop/shared/schemas/delivery';
import { Store, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useRequestStoreTakedown } from '../api/request-store-takedown';
import { formatDate } from '../lib/format';
import { StoreStateBadge } from './store-state-badge';

function storesIntro(status: ReleaseDetail['status']): string {
  if (status === 'pending' || status === 'processing')
    return 'These stores receive your release once it is approved; each row then shows how far the store has got.';
  if (status === 'rejected') return 'Nothing is sent to the stores while the release is rejected.';
  return 'Where your release is sent, and how far each store has got. A store goes live on the release date once it has accepted the release.';
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
            {release.stores.map((store) => (
              <li
                key={store.platformId}
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
                  {store.canRequestTakedown ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="ml-auto sm:ml-0"
                      onClick={() => setTarget(store)}
                      aria-label={`Request takedown from ${store.name}`}
                    >
                      <XCircle aria-hidden className="size-4" /> Takedown
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
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
