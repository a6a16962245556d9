/**
 * The `delivery.send` queue's name and payload, apart from its handler (jobs.ts), so the worker and
 * the service that enqueue it do not import the handler that imports them.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { deliveries } from '../../db/schema';
import { enqueue, type JobQueue } from '../../lib/jobs';

export const DELIVERY_SEND: JobQueue<{ deliveryId: string }> = {
  name: 'delivery.send',
  payload: z.object({ deliveryId: z.uuid() }),
};

/**
 * Enqueues the delivery row's job inside `tx`. The singleton key is the row (one per release and
 * target, carrying its current message), on a `stately` queue: a second waiting job is refused.
 */
export async function enqueueDelivery(tx: DbOrTx, deliveryId: string, startAfter?: Date): Promise<void> {
  await enqueue(
    tx,
    DELIVERY_SEND,
    { deliveryId },
    { singletonKey: deliveryId, ...(startAfter ? { startAfter } : {}) },
  );
}

/** Enqueues `delivery.send` for the release's rows that wait to be sent (inside the caller's transaction). */
export async function enqueueReleaseDeliveries(tx: DbOrTx, releaseId: string): Promise<void> {
  const waiting = await tx
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(
      and(eq(deliveries.releaseId, releaseId), inArray(deliveries.state, ['queued', 'takedown_queued'])),
    );
  for (const row of waiting) await enqueueDelivery(tx, row.id);
}
