/**
 * Webhooks (issue 40, decision record 291): an account's endpoints, signed per the Standard Webhooks
 * specification, with a delivery log. Shapes shared by the server (apps/server/src/modules/webhooks) and
 * the web (apps/web/src/features/webhooks).
 *
 * Routes served (user, personal; the account's owner or a team admin), also under /api/v1 (webhooks:manage):
 *   GET    /api/webhooks/endpoints                 → WebhookEndpointsResponse
 *   POST   /api/webhooks/endpoints                 createWebhookEndpointSchema → CreatedWebhookEndpoint (201)
 *   DELETE /api/webhooks/endpoints/:id             → WebhookEndpointsResponse
 *   POST   /api/webhooks/endpoints/:id/rotate      → CreatedWebhookEndpoint (the new secret; the old one signs 24 h)
 *   POST   /api/webhooks/endpoints/:id/test        → WebhookDeliveriesResponse
 *   GET    /api/webhooks/endpoints/:id/deliveries  → WebhookDeliveriesResponse
 *   POST   /api/webhooks/deliveries/:id/redeliver  → WebhookDeliveriesResponse
 */
import { z } from 'zod';
import { safeText } from '../text';

export const WEBHOOK_EVENT_TYPES = [
  'release.submitted',
  'release.approved',
  'release.rejected',
  'release.metadata_changed',
  'delivery.queued',
  'delivery.sent',
  'delivery.acknowledged',
  'delivery.rejected',
  'delivery.failed',
  'takedown.completed',
  'report.imported',
  'royalty_run.published',
  'statement.ready',
  'payout.paid',
  'payout.failed',
  'payout.returned',
  'payee.tax_form.expiring',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_TEXTS = {
  urlInvalid: 'Enter the endpoint’s full URL, starting with https://.',
  httpsRequired: 'Use an https:// URL.',
  notFound: 'Webhook endpoint not found.',
  deliveryNotFound: 'Webhook delivery not found.',
  disabled: 'This endpoint is disabled.',
  secretShownOnce: 'Copy this signing secret now. It is shown only once.',
  goneSubject: 'A webhook endpoint was disabled',
} as const;

export const createWebhookEndpointSchema = z.object({
  url: safeText()
    .trim()
    .max(2000, WEBHOOK_TEXTS.urlInvalid)
    .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), WEBHOOK_TEXTS.urlInvalid),
  description: safeText().trim().max(200, 'Use at most 200 characters.').default(''),
  /** None: every event. */
  eventTypes: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { message: 'Choose a known event.' }))
    .max(50)
    .default([]),
});
export type CreateWebhookEndpointInput = z.input<typeof createWebhookEndpointSchema>;

export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  createdAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
  /** While the previous secret still signs (24 hours after a rotation). */
  previousSecretUntil: string | null;
};
export type WebhookEndpointsResponse = { endpoints: WebhookEndpointView[] };
export type CreatedWebhookEndpoint = WebhookEndpointsResponse & {
  endpoint: WebhookEndpointView;
  secret: string;
};

export type WebhookDeliveryView = {
  id: string;
  messageId: string;
  eventType: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
};
export type WebhookDeliveriesResponse = { deliveries: WebhookDeliveryView[] };
