/** One endpoint's delivery log (record 291): each message sent, its tries and last answer, and Redeliver. */
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useRedeliver, useWebhookDeliveries } from '../api/webhooks';

const STATE_LABELS = { pending: 'Retrying', succeeded: 'Delivered', failed: 'Failed' } as const;

export function DeliveryLog({ endpointId, isDisabled }: { endpointId: string; isDisabled: boolean }) {
  const deliveries = useWebhookDeliveries(endpointId);
  const redeliver = useRedeliver(endpointId);
  if (deliveries.isPending) return <p className="text-sm text-zinc-400">Loading deliveries...</p>;
  if (deliveries.isError)
    return (
      <p role="alert" className="text-sm text-zinc-300">
        {deliveries.error.message}
      </p>
    );
  if (deliveries.data.deliveries.length === 0)
    return <p className="text-sm text-zinc-400">No events sent to this endpoint yet.</p>;
  return (
    <table className="w-full text-left text-sm" aria-label="Deliveries">
      <thead className="text-zinc-400">
        <tr>
          <th className="py-1 font-medium">Event</th>
          <th className="py-1 font-medium">State</th>
          <th className="py-1 font-medium">Tries</th>
          <th className="py-1 font-medium">Last answer</th>
          <th className="py-1 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-ink-800 text-zinc-200">
        {deliveries.data.deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td className="py-2">
              <code>{delivery.eventType}</code>
              <span className="block text-xs text-zinc-400">{formatDateTime(delivery.createdAt)}</span>
            </td>
            <td className="py-2">{STATE_LABELS[delivery.state]}</td>
            <td className="py-2">{delivery.attempts}</td>
            <td className="py-2 break-all">
              {delivery.lastStatus !== null ? `HTTP ${delivery.lastStatus}` : (delivery.lastError ?? '—')}
            </td>
            <td className="py-2 text-right">
              <Button
                variant="outline"
                size="sm"
                disabled={isDisabled || redeliver.isPending}
                aria-label={`Redeliver ${delivery.eventType} of ${formatDateTime(delivery.createdAt)}`}
                onClick={() =>
                  redeliver.mutate(delivery.id, {
                    onSuccess: () => notify.success('The event is sent again.'),
                    onError: (error) =>
                      notify.error(errorMessage(error, 'The event could not be sent again.')),
                  })
                }
              >
                Redeliver
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
