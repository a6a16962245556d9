/**
 * The answers of the v1 webhook routes (record 291), for the OpenAPI document (record 293). Each equals the
 * JSON its app route answers: openapi.test.ts fails the typecheck when a route's answer and its schema differ.
 */
import { WEBHOOK_EVENT_TYPES } from '@tunedrop/shared/schemas/webhooks';
import { z } from 'zod';

const webhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
  previousSecretUntil: z.string().nullable(),
});
const webhookDelivery = z.object({
  id: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  state: z.enum(['failed', 'pending', 'succeeded']),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});

/** GET /webhooks/endpoints and DELETE /webhooks/endpoints/:id. */
export const webhookEndpointsAnswer = z.object({ endpoints: z.array(webhookEndpoint) });
/** POST /webhooks/endpoints and /webhooks/endpoints/:id/rotate: the secret is in this answer only. */
export const createdWebhookEndpointAnswer = z.object({
  endpoints: z.array(webhookEndpoint),
  endpoint: webhookEndpoint,
  secret: z.string(),
});
/** The delivery log: GET …/deliveries, POST …/test and POST /webhooks/deliveries/:id/redeliver. */
export const webhookDeliveriesAnswer = z.object({ deliveries: z.array(webhookDelivery) });
