/**
 * The webhook outbox (record 291): other modules report an event with `emitWebhookEvent` in the transaction
 * of the change. Apart from `webhooks` (endpoints, sending), which uses delivery's address rules, so that
 * delivery can report its own events without a module cycle.
 */
export { emitStaffWebhookEvent, emitWebhookEvent } from './events';
export { deliverWebhookJob } from './jobs';
