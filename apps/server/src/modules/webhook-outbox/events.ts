/**
 * The webhook outbox (record 291): `emitWebhookEvent` runs in the transaction of the change it reports,
 * writing the message (thin: type, timestamp, ids), one delivery per subscribed endpoint and its job.
 */
import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from '@tunedrop/shared/schemas/webhooks';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { userRoles, webhookDeliveries, webhookEndpoints, webhookMessages } from '../../db/schema';
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

/**
 * An event about the operator's own books (a sales report), not one account's: written to each admin's
 * account that has an endpoint (issue 40), found in one query, so an operator without one writes nothing.
 */
export async function emitStaffWebhookEvent(
  tx: DbOrTx,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const staff = await tx
    .selectDistinct({ accountId: webhookEndpoints.accountId })
    .from(webhookEndpoints)
    .innerJoin(userRoles, eq(userRoles.userId, webhookEndpoints.accountId))
    .where(and(isNull(webhookEndpoints.disabledAt), sql`${userRoles.role} = 'admin'`));
  for (const { accountId } of staff) await emitWebhookEvent(tx, accountId, type, data);
}
