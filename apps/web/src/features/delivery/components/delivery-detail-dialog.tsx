/** One delivery: every attempt with its message, error and acknowledgements, and the package it sent. */
import {
  type AckView,
  DELIVERY_STATE_LABELS,
  type DeliveryAttemptView,
  type DeliveryDetail,
} from '@tunedrop/shared/schemas/delivery';
import { Download } from 'lucide-react';
import { buttonClass } from '../../../components/ui/button';
import { Badge, Spinner } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api';
import { attemptPackageUrl, useDelivery } from '../api/deliveries';
import { formatBytes, formatDateTime, platformName } from '../lib/format';
import { DeliveryStateBadge } from './delivery-state-badge';

const ACTION_LABELS = { new: 'New release', update: 'Update', takedown: 'Takedown' } as const;

export function DeliveryDetailDialog({
  deliveryId,
  onClose,
}: {
  deliveryId: string | null;
  onClose: () => void;
}) {
  const delivery = useDelivery(deliveryId);
  const data = delivery.data;
  return (
    <Dialog
      open={deliveryId !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={data ? `${data.releaseTitle} → ${data.targetName}` : 'Delivery'}
      className="max-w-3xl"
    >
      {delivery.isPending ? (
        <div className="flex justify-center py-8 text-brand-400">
          <Spinner />
        </div>
      ) : delivery.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {errorMessage(delivery.error, 'Failed to load the delivery')}
        </p>
      ) : (
        <DeliveryBody data={delivery.data} />
      )}
    </Dialog>
  );
}

function DeliveryBody({ data }: { data: DeliveryDetail }) {
  return (
    <div className="space-y-5">
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-zinc-400">State</dt>
        <dd>
          <DeliveryStateBadge state={data.state} />
        </dd>
        <dt className="text-zinc-400">Artist</dt>
        <dd className="text-zinc-200">{data.artistName}</dd>
        <dt className="text-zinc-400">UPC</dt>
        <dd className="font-mono text-zinc-200">{data.upc ?? 'Not assigned yet'}</dd>
        <dt className="text-zinc-400">Stores</dt>
        <dd className="text-zinc-200">{data.platforms.map(platformName).join(', ') || '—'}</dd>
        <dt className="text-zinc-400">Attempts</dt>
        <dd className="text-zinc-200">
          {data.attempts} of {data.maxAttempts}
          {data.nextAttemptAt ? ` · next try ${formatDateTime(data.nextAttemptAt)}` : ''}
        </dd>
        {data.lastError ? (
          <>
            <dt className="text-zinc-400">Last error</dt>
            <dd className="text-red-300" data-testid="delivery-last-error">
              {data.lastError}
            </dd>
          </>
        ) : null}
      </dl>

      <section aria-labelledby="attempts-title" className="space-y-3">
        <h3 id="attempts-title" className="font-semibold text-white">
          Attempts
        </h3>
        {data.attemptsList.length === 0 ? (
          <p className="text-sm text-zinc-400">
            No attempt yet: the worker picks queued deliveries up within a few seconds.
          </p>
        ) : (
          <ol className="space-y-3" aria-label="Attempts">
            {data.attemptsList.map((attempt) => (
              <AttemptItem key={attempt.id} deliveryId={data.id} attempt={attempt} />
            ))}
          </ol>
        )}
      </section>
      <p className="sr-only" aria-live="polite">
        {DELIVERY_STATE_LABELS[data.state]}
      </p>
    </div>
  );
}

function AttemptItem({ deliveryId, attempt }: { deliveryId: string; attempt: DeliveryAttemptView }) {
  const tone = attempt.outcome === 'failed' ? 'red' : attempt.outcome === 'uploaded' ? 'green' : 'blue';
  return (
    <li className="space-y-2 rounded-lg border border-ink-700 p-3" data-testid="delivery-attempt">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-white">
          Attempt {attempt.number} · {ACTION_LABELS[attempt.action]}
        </p>
        <Badge tone={tone}>
          {attempt.outcome === 'running' ? 'Running' : attempt.outcome === 'uploaded' ? 'Uploaded' : 'Failed'}
        </Badge>
      </div>
      <p className="text-xs text-zinc-400">
        {formatDateTime(attempt.startedAt)}
        {attempt.finishedAt ? ` – ${formatDateTime(attempt.finishedAt)}` : ''} · {formatBytes(attempt.bytes)}
      </p>
      <p className="break-all text-xs text-zinc-400">
        Message <span className="font-mono text-zinc-300">{attempt.messageId}</span>
        {attempt.remotePath ? (
          <>
            {' '}
            in <span className="font-mono text-zinc-300">{attempt.remotePath}</span>
          </>
        ) : null}
      </p>
      {attempt.error ? (
        <p className="text-sm text-red-300" data-testid="attempt-error">
          {attempt.error}
        </p>
      ) : null}
      {attempt.acks.length > 0 ? (
        <ul className="space-y-2" aria-label={`Acknowledgements of attempt ${attempt.number}`}>
          {attempt.acks.map((ack) => (
            <AckItem key={ack.id} ack={ack} />
          ))}
        </ul>
      ) : attempt.outcome === 'uploaded' ? (
        <p className="text-sm text-zinc-400">No acknowledgement from the store yet.</p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <details className="min-w-0 flex-1 text-sm">
          <summary className="cursor-pointer text-brand-300 hover:text-brand-200">Message XML</summary>
          <pre className="mt-2 max-h-64 overflow-auto rounded bg-ink-950 p-2 text-xs text-zinc-300">
            {attempt.messageXml}
          </pre>
        </details>
        {attempt.packageAvailable ? (
          <a
            href={attemptPackageUrl(deliveryId, attempt.id)}
            download
            className={buttonClass('outline', 'sm')}
          >
            <Download aria-hidden className="size-4" /> Download package
          </a>
        ) : (
          <p className="text-xs text-zinc-400">Package no longer kept</p>
        )}
      </div>
    </li>
  );
}

const ACK_OUTCOME_LABELS = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  unknown_message: 'Unknown message',
  malformed: 'Unreadable',
} as const;

export function AckItem({ ack }: { ack: AckView }) {
  const tone = ack.outcome === 'accepted' ? 'green' : ack.outcome === 'rejected' ? 'red' : 'yellow';
  return (
    <li className="space-y-1 rounded-md bg-ink-800/60 p-2 text-sm" data-testid="delivery-ack">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={tone}>{ACK_OUTCOME_LABELS[ack.outcome]}</Badge>
        <span className="break-all font-mono text-xs text-zinc-400">{ack.fileName}</span>
        <span className="text-xs text-zinc-400">{formatDateTime(ack.receivedAt)}</span>
      </div>
      {ack.status ? <p className="text-zinc-300">Status: {ack.status}</p> : null}
      {ack.errorText ? <p className="text-red-300">{ack.errorText}</p> : null}
      <details>
        <summary className="cursor-pointer text-xs text-brand-300 hover:text-brand-200">
          Acknowledgement file
        </summary>
        <pre className="mt-1 max-h-48 overflow-auto rounded bg-ink-950 p-2 text-xs text-zinc-300">
          {ack.text}
        </pre>
      </details>
    </li>
  );
}
