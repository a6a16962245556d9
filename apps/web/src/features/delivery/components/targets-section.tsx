/**
 * Delivery targets: where approved releases are sent. Add, edit, disable or enable, delete (confirmed; a
 * target holding releases is taken down first, record 177), test the connection.
 */
import { PLATFORMS, platformName } from '@tunedrop/shared';
import {
  DELIVERY_MESSAGES,
  DELIVERY_STATE_LABELS,
  type DeliveryState,
  type DeliveryTargetView,
  removalImpactText,
  TARGET_PROFILE_LABELS,
  type TargetTestResult,
  targetHoldsMessage,
  targetTakingDownMessage,
} from '@tunedrop/shared/schemas/delivery';
import { CheckCircle2, Pencil, Plug, Plus, Power, Send, Trash2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, Card, Spinner } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import {
  useDeleteDeliveryTarget,
  useDeliveryTargets,
  useSaveDeliveryTarget,
  useTestDeliveryTarget,
} from '../api/targets';
import { TargetFormDialog } from './target-form-dialog';

function platformsText(platforms: DeliveryTargetView['platforms']): string {
  if (platforms === 'all') return `All ${PLATFORMS.length} platforms`;
  return platforms.map(platformName).join(', ');
}

function countsText(counts: DeliveryTargetView['counts']): string {
  const parts = (Object.entries(counts) as [DeliveryState, number][])
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${count} ${DELIVERY_STATE_LABELS[state].toLowerCase()}`);
  return parts.length > 0 ? parts.join(', ') : 'None yet';
}

export function TargetsSection() {
  const targets = useDeliveryTargets();
  const remove = useDeleteDeliveryTarget();
  const [editing, setEditing] = useState<DeliveryTargetView | null>(null);
  const [isFormOpen, setIsFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<DeliveryTargetView | null>(null);

  const openForm = (target: DeliveryTargetView | null) => {
    setEditing(target);
    setIsFormOpen(true);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(
      { id: deleting.id, takeDownAll: deleting.holds > 0, removal: deleting.removal },
      {
        onSuccess: (result) =>
          result.removed
            ? notify.success(DELIVERY_MESSAGES.targetDeleted, deleting.name)
            : notify.success(targetTakingDownMessage(deleting.name, result.held)),
        onError: (error) => notify.error(errorMessage(error, 'Failed to delete the target')),
        onSettled: () => setDeleting(null),
      },
    );
  };
  const holds = deleting?.holds ?? 0;
  const affected = deleting?.removal ?? { releases: 0, artists: 0 };
  // Who the removal reaches (issue 44): said before the admin confirms; each artist is then mailed.
  const reach =
    affected.releases > 0
      ? ` This affects ${removalImpactText(affected)}: each artist is mailed which release ${holds > 0 ? 'leaves' : 'will not reach'} which store.`
      : '';

  return (
    <section aria-labelledby="targets-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="targets-title" className="text-xl font-semibold text-white">
            Targets
          </h2>
          <p className="text-sm text-zinc-400">
            Approval queues one delivery per target serving any of the release's platforms.
          </p>
        </div>
        <Button onClick={() => openForm(null)}>
          <Plus aria-hidden className="size-4" /> Add target
        </Button>
      </div>

      {targets.isPending ? (
        <Card className="flex justify-center text-brand-400">
          <Spinner />
        </Card>
      ) : targets.isError ? (
        <Card className="space-y-3 text-center">
          <p className="text-zinc-300">{errorMessage(targets.error, 'Failed to load targets')}</p>
          <Button variant="outline" onClick={() => targets.refetch()}>
            Try again
          </Button>
        </Card>
      ) : targets.data.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 py-10 text-center">
          <Send aria-hidden className="size-8 text-brand-400" />
          <h3 className="font-semibold text-white">No delivery targets yet</h3>
          <p className="max-w-md text-sm text-zinc-400">
            Add an aggregator or a store here. Until then, approved releases get their codes but are not sent
            anywhere.
          </p>
        </Card>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Delivery targets">
          {targets.data.map((target) => (
            <TargetCard
              key={target.id}
              target={target}
              onEdit={() => openForm(target)}
              onDelete={() => setDeleting(target)}
            />
          ))}
        </ul>
      )}

      <TargetFormDialog target={editing} open={isFormOpen} onOpenChange={setIsFormOpen} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setDeleting(null);
        }}
        title={holds > 0 ? `${deleting?.name ?? ''} still holds releases` : 'Delete target'}
        description={
          holds > 0
            ? `${targetHoldsMessage(deleting?.name ?? '', holds)} Taking them down sends a takedown for each to this target and disables it; you can delete it once the store has acknowledged them. Other targets are not affected.${reach}`
            : `Remove "${deleting?.name ?? ''}"? Nothing was delivered there that is still live. Jobs not yet sent there are closed as failed; the history is kept.${reach}`
        }
        confirmLabel={
          remove.isPending
            ? holds > 0
              ? 'Queueing takedowns...'
              : 'Deleting...'
            : holds > 0
              ? `Take ${holds === 1 ? 'it' : `all ${holds}`} down from this target`
              : 'Delete'
        }
        isDestructive
        isPending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </section>
  );
}

function TargetCard({
  target,
  onEdit,
  onDelete,
}: {
  target: DeliveryTargetView;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const test = useTestDeliveryTarget();
  const toggle = useSaveDeliveryTarget();
  const [result, setResult] = useState<TargetTestResult | null>(null);
  const headingId = `target-${target.id}-name`;

  const runTest = () => {
    setResult(null);
    test.mutate(target.id, {
      onSuccess: setResult,
      onError: (error) =>
        setResult({ ok: false, message: errorMessage(error, 'The test could not run.'), elapsedMs: 0 }),
    });
  };

  return (
    <li aria-labelledby={headingId}>
      <Card className="flex h-full flex-col gap-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={headingId} className="text-lg font-semibold text-white">
            {target.name}
          </h3>
          <div className="flex flex-wrap gap-2">
            {target.enabled ? null : <Badge tone="neutral">Disabled</Badge>}
            <Badge tone="brand">{TARGET_PROFILE_LABELS[target.profile]}</Badge>
          </div>
        </div>
        <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
          <dt className="text-zinc-400">URL</dt>
          <dd className="break-all font-mono text-zinc-200" data-testid="target-url">
            {target.urlMasked}
          </dd>
          {target.scheme === 'sftp' ? (
            <>
              <dt className="text-zinc-400">Host key</dt>
              <dd className="break-all text-zinc-200" data-testid="target-host-key">
                {target.hostKeyFingerprint ? (
                  <span className="font-mono">{target.hostKeyFingerprint}</span>
                ) : (
                  <span className="text-zinc-400">{DELIVERY_MESSAGES.hostKeyNotKnown}</span>
                )}
              </dd>
            </>
          ) : null}
          <dt className="text-zinc-400">DPID</dt>
          <dd className="break-all font-mono text-zinc-200">{target.dpid}</dd>
          <dt className="text-zinc-400">Platforms</dt>
          <dd className="text-zinc-200">{platformsText(target.platforms)}</dd>
          <dt className="text-zinc-400">Deliveries</dt>
          <dd className="text-zinc-200">{countsText(target.counts)}</dd>
          <dt className="text-zinc-400">Holds</dt>
          <dd className="text-zinc-200" data-testid="target-holds">
            {target.holds === 1 ? '1 release' : `${target.holds} releases`} (delivered, not taken down)
          </dd>
        </dl>
        <div aria-live="polite">
          {test.isPending ? (
            <p className="flex items-center gap-2 text-sm text-zinc-300">
              <Spinner className="size-4" label="Testing" /> Testing the connection…
            </p>
          ) : result ? (
            <p
              data-testid="connection-result"
              className={
                result.ok
                  ? 'flex items-start gap-2 text-sm text-emerald-300'
                  : 'flex items-start gap-2 text-sm text-red-300'
              }
            >
              {result.ok ? (
                <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0" />
              ) : (
                <XCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
              )}
              <span>
                <span className="font-medium">{result.ok ? 'Connected. ' : 'Connection failed. '}</span>
                {result.message}
              </span>
            </p>
          ) : null}
        </div>
        <div className="mt-auto flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={runTest} disabled={test.isPending}>
            <Plug aria-hidden className="size-4" /> Test connection
          </Button>
          <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${target.name}`}>
            <Pencil aria-hidden className="size-4" /> Edit
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={toggle.isPending}
            onClick={() =>
              toggle.mutate(
                { id: target.id, body: { enabled: !target.enabled } },
                {
                  onSuccess: (saved) =>
                    notify.success(
                      saved.enabled ? DELIVERY_MESSAGES.targetEnabled : DELIVERY_MESSAGES.targetDisabled,
                      saved.name,
                    ),
                  onError: (error) => notify.error(errorMessage(error, 'Failed to save the target')),
                },
              )
            }
            aria-label={`${target.enabled ? 'Disable' : 'Enable'} ${target.name}`}
          >
            <Power aria-hidden className="size-4" /> {target.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${target.name}`}>
            <Trash2 aria-hidden className="size-4" /> Delete
          </Button>
        </div>
      </Card>
    </li>
  );
}
