/**
 * A delivery's webhook events (issue 40, record 291), written in the transaction of the state change they
 * report: thin, the delivery's ids with the release's UPC and the target (the store connection).
 */
import type { WebhookEventType } from '@tunedrop/shared/schemas/webhooks';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deliveries, releases } from '../../db/schema';
import { emitWebhookEvent } from '../webhook-outbox';

export async function emitDeliveryEvent(
  tx: DbOrTx,
  deliveryId: string,
  type: Extract<WebhookEventType, `delivery.${string}`>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const [row] = await tx
    .select({
      accountId: releases.userId,
      upc: releases.upc,
      releaseId: deliveries.releaseId,
      targetId: deliveries.targetId,
      action: deliveries.action,
    })
    .from(deliveries)
    .innerJoin(releases, eq(releases.id, deliveries.releaseId))
    .where(eq(deliveries.id, deliveryId));
  if (!row) return;
  const { accountId, ...ids } = row;
  await emitWebhookEvent(tx, accountId, type, { deliveryId, ...ids, ...extra });
}
