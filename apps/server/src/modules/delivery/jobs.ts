/**
 * Delivery's background work as jobs (issue 24, record 156), defined here; what each does is in
 * job-handlers.ts, loaded when a job first runs (record 258):
 * - `delivery.send`: one job per delivery row (release × target, carrying its current message: new,
 *   update or takedown), singleton key = the row's id on a `stately` queue, so a double approval, a
 *   retry or a sweep never makes a second waiting job. The row stays the truth (state, attempts,
 *   backoff, lease): the job claims it with the fenced lease of record 154 and, on a transport failure,
 *   enqueues its own next attempt at the backoff time in the transaction that records the failure.
 * - `delivery.sweep` (every minute, once across instances): re-enqueues due rows whose job is gone (a
 *   worker killed past pg-boss's retries, rows queued before the engine existed). A job it adds while
 *   the row's old run is still active waits: the engine's fetch skips a key that runs (record 217).
 * - `delivery.acks` (every minute, once across instances): reads acknowledgements, then promotes.
 * - `delivery.promote` (every 15 minutes): approved releases go live on their release date once every
 *   store acknowledged.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { deliveries } from '../../db/schema';
import { defineJob, enqueue } from '../../lib/jobs';

export const sendDeliveryJob = defineJob({
  name: 'delivery.send',
  payload: z.object({ deliveryId: z.uuid() }),
  policy: 'stately',
  // Failures of the target are the row's retries (backoff, max_attempts, admins mailed); these are
  // for the unexpected (the database went away mid-run).
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  // A run whose worker died is taken over by its missing heartbeat (record 217), not by this. This is
  // how long an honest run may take: an album at 10 MB/s takes about 2 minutes. A run still writing
  // after 15 minutes is failed but goes on; the retry finds the row's lease held (renewed every third of
  // its 5 minutes while the package is written), changes nothing and comes back when the lease would end
  // (test in jobs.test.ts; record 163).
  expireInSeconds: 15 * 60,
  concurrency: 2,
});

export const sweepDeliveriesJob = defineJob({
  name: 'delivery.sweep',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 0 },
  schedule: { cron: '* * * * *', payload: {} },
});

export const pollAcksJob = defineJob({
  name: 'delivery.acks',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 0 },
  expireInSeconds: 15 * 60,
  schedule: { cron: '* * * * *', payload: {} },
});

export const promoteDueReleasesJob = defineJob({
  name: 'delivery.promote',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 60 },
  schedule: { cron: '*/15 * * * *', payload: {} },
});

/**
 * Enqueues the delivery row's job inside `tx`. The singleton key is the row (one per release and
 * target, carrying its current message), on a `stately` queue: a second waiting job is refused.
 */
export async function enqueueDelivery(tx: DbOrTx, deliveryId: string, startAfter?: Date): Promise<void> {
  await enqueue(
    tx,
    sendDeliveryJob,
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
