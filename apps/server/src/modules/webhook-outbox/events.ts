/**
 * The webhook outbox (record 291): `emitWebhookEvent` runs in the transaction of the change it reports,
 * writing the message (thin: type, timestamp, ids), one delivery per subscribed endpoint and its job.
 */
import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from '@tunedrop/shared/schemas/webhooks';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { webhookDeliveries, webhookEndpoints, webhookMessages } from '../../db/schema';
import { enqueue } from '../../lib/jobs';
import { deliverWebhookJob } from './jobs';

export const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`;

export async function emitWebhookEvent(
  tx: DbOrTx,
  accountId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  options: { endpointId?: string } = {},
): Promise<string[]> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.accountId, accountId),
        isNull(webhookEndpoints.disabledAt),
        ...(options.endpointId ? [eq(webhookEndpoints.id, options.endpointId)] : []),
      ),
    );
  const subscribed = endpoints.filter(
    (endpoint) =>
      options.endpointId || endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(type),
  );
  if (subscribed.length === 0) return [];
  const id = newMessageId();
  const timestamp = new Date();
  await tx.insert(webhookMessages).values({
    id,
    accountId,
    eventType: type,
    payload: { type, timestamp: timestamp.toISOString(), data },
    createdAt: timestamp,
  });
  const rows = await tx
    .insert(webhookDeliveries)
    .values(
      subscribed.map((endpoint) => ({ messageId: id, endpointId: endpoint.id, nextAttemptAt: timestamp })),
    )
    .returning({ id: webhookDeliveries.id });
  for (const row of rows)
    await enqueue(tx, deliverWebhookJob, { deliveryId: row.id }, { singletonKey: row.id });
  return rows.map((row) => row.id);
}
