/**
 * /dashboard/webhooks, Account → Webhooks (issue 40, record 291): the account's endpoints with their
 * events, a signing secret shown once (at creation and rotation; the old one signs 24 hours more), the
 * test event, and each endpoint's delivery log with Redeliver. The server admits the owner and team admins.
 */
import {
  createWebhookEndpointSchema,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEXTS,
  type WebhookEndpointView,
  type WebhookEventType,
} from '@tunedrop/shared/schemas/webhooks';
import { Webhook } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  useCreateWebhookEndpoint,
  useRemoveWebhookEndpoint,
  useRotateWebhookSecret,
  useSendTestEvent,
  useWebhookEndpoints,
} from '../api/webhooks';
import { DeliveryLog } from '../components/delivery-log';

export default function WebhooksPage() {
  usePageTitle('Webhooks');
  const endpoints = useWebhookEndpoints();
  const create = useCreateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const remove = useRemoveWebhookEndpoint();
  const [url, setUrl] = useState('');
  const [eventTypes, setEventTypes] = useState<WebhookEventType[]>([]);
  const [urlError, setUrlError] = useState<string | undefined>();
  const [secret, setSecret] = useState<string | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpointView | null>(null);

  if (endpoints.isPending) return <PageLoader />;
  if (endpoints.isError)
    return (
      <p role="alert" className="text-zinc-300">
        {endpoints.error.message}
      </p>
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createWebhookEndpointSchema.safeParse({ url, eventTypes });
    if (!parsed.success) {
      setUrlError(parsed.error.issues[0]?.message);
      return;
    }
    setUrlError(undefined);
    create.mutate(parsed.data, {
      onSuccess: (data) => {
        setSecret(data.secret);
        setUrl('');
        setEventTypes([]);
        notify.success('Webhook endpoint added.');
      },
      onError: (error) => {
        const message = errorMessage(error, 'The endpoint could not be added.');
        setUrlError(message);
      },
    });
  };
  const toggle = (type: WebhookEventType) =>
    setEventTypes((current) =>
      current.includes(type) ? current.filter((t) => t !== type) : [...current, type],
    );

  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <Webhook aria-hidden className="size-7 text-brand-400" />
        <h1 className="text-2xl font-bold text-white">Webhooks</h1>
      </div>
      <p className="text-zinc-300">
        Tunedrop posts events to your endpoints, signed per the Standard Webhooks specification (headers
        webhook-id, webhook-timestamp and webhook-signature). An endpoint that does not answer 2xx is retried
        for about three days; one that answers 410 is disabled.
      </p>

      {secret ? (
        <Card className="space-y-2 border-amber-500/40" data-testid="webhook-secret">
          <h2 className="text-lg font-semibold text-white">Signing secret</h2>
          <p className="text-sm text-amber-200">{WEBHOOK_TEXTS.secretShownOnce}</p>
          <Input
            readOnly
            aria-label="Signing secret"
            value={secret}
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button variant="outline" size="sm" onClick={() => setSecret(null)}>
            Done
          </Button>
        </Card>
      ) : null}

      <Card className="space-y-4">
        <h2 className="text-lg font-semibold text-white">Add an endpoint</h2>
        <form className="space-y-4" onSubmit={onSubmit} noValidate>
          <Field id="webhook-url" label="Endpoint URL" error={urlError}>
            <Input
              id="webhook-url"
              value={url}
              placeholder="https://"
              onChange={(e) => setUrl(e.target.value)}
            />
          </Field>
          <fieldset>
            <legend className="mb-1 text-sm font-medium text-zinc-200">Events (none chosen: all)</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-center gap-2 text-sm text-zinc-200">
                  <input type="checkbox" checked={eventTypes.includes(type)} onChange={() => toggle(type)} />
                  <code>{type}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding...' : 'Add endpoint'}
          </Button>
        </form>
      </Card>

      {endpoints.data.endpoints.length === 0 ? (
        <p className="text-zinc-400">No webhook endpoints yet.</p>
      ) : (
        endpoints.data.endpoints.map((endpoint) => (
          <EndpointCard
            key={endpoint.id}
            endpoint={endpoint}
            onRotate={() =>
              rotate.mutate(endpoint.id, {
                onSuccess: (data) => {
                  setSecret(data.secret);
                  notify.success('New signing secret made. The previous one signs for 24 hours more.');
                },
                onError: (error) => notify.error(errorMessage(error, 'The secret could not be rotated.')),
              })
            }
            onRemove={() => setRemoving(endpoint)}
          />
        ))
      )}

      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title="Remove endpoint"
        description={removing ? `Remove ${removing.url}? It receives no more events.` : ''}
        confirmLabel="Remove endpoint"
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(null);
              notify.success('Webhook endpoint removed.');
            },
            onError: (error) => {
              setRemoving(null);
              notify.error(errorMessage(error, 'The endpoint could not be removed.'));
            },
          });
        }}
        isDestructive
        isPending={remove.isPending}
      />
    </div>
  );
}

function EndpointCard({
  endpoint,
  onRotate,
  onRemove,
}: {
  endpoint: WebhookEndpointView;
  onRotate: () => void;
  onRemove: () => void;
}) {
  const test = useSendTestEvent(endpoint.id);
  const isDisabled = endpoint.disabledAt !== null;
  return (
    <Card className="space-y-3" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="break-all text-lg font-semibold text-white">{endpoint.url}</h2>
          <p className="text-sm text-zinc-400">
            {endpoint.eventTypes.length ? endpoint.eventTypes.join(', ') : 'All events'}
          </p>
          {isDisabled ? (
            <p className="text-sm text-amber-200">
              Disabled {formatDateTime(endpoint.disabledAt ?? '')}: {endpoint.disabledReason}
            </p>
          ) : null}
          {endpoint.previousSecretUntil ? (
            <p className="text-xs text-zinc-400">
              The previous secret also signs until {formatDateTime(endpoint.previousSecretUntil)}.
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={isDisabled || test.isPending}
            onClick={() =>
              test.mutate(undefined, {
                onSuccess: () => notify.success('Test event sent.'),
                onError: (error) => notify.error(errorMessage(error, 'The test event could not be sent.')),
              })
            }
          >
            Send test event
          </Button>
          <Button variant="outline" size="sm" onClick={onRotate}>
            Rotate secret
          </Button>
          <Button variant="outline" size="sm" aria-label={`Remove ${endpoint.url}`} onClick={onRemove}>
            Remove
          </Button>
        </div>
      </div>
      <DeliveryLog endpointId={endpoint.id} isDisabled={isDisabled} />
    </Card>
  );
}
