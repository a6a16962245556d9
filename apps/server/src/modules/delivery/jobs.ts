/**
 * Delivery's background work as jobs (issue 24, record 156):
 * - `delivery.send`: one job per delivery row (release × target, carrying its current message: new,
 *   update or takedown), singleton key = the row's id on a `stately` queue, so a double approval, a
 *   retry or a sweep never makes a second waiting job. The row stays the truth (state, attempts,
 *   backoff, lease): the job claims it with the fenced lease of record 154 and, on a transport failure,
 *   enqueues its own next attempt at the backoff time in the transaction that records the failure.
 * - `delivery.sweep` (every minute, once across instances): re-enqueues due rows whose job is gone (a
 *   worker killed past pg-boss's retries, rows queued before the engine existed).
 * - `delivery.acks` (every minute, once across instances): reads acknowledgements, then promotes.
 * - `delivery.promote` (every 15 minutes): approved releases go live on their release date once every
 *   store acknowledged.
 */
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { deliveries } from '../../db/schema';
import type { Deps } from '../../deps';
import { defineJob } from '../../lib/jobs';
import { rows } from '../../lib/sql';
import { pollAcknowledgements, promoteReleases } from './acknowledgements';
import { DELIVERY_SEND, enqueueDelivery } from './queues';
import { claimJobs, resolveOptions, type WorkerOptions } from './state';
import { processJobs } from './worker';

type DeliveryJobDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger' | 'wakeMail'>;

/** Worker settings of the running system (tests of the jobs pass shorter ones through deps). */
export type DeliveryJobOptions = { deliveryOptions?: WorkerOptions };

export const sendDelivery = defineJob({
  ...DELIVERY_SEND,
  policy: 'stately',
  // Failures of the target are the row's retries (backoff, max_attempts, admins mailed); these are
  // for the unexpected (the database went away mid-run).
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  // How long pg-boss waits before failing a run whose worker died (then its retry takes the upload
  // over once the row's lease ran out). Longer than an ordinary package takes (an album at 10 MB/s:
  // about 2 minutes), but safe for any upload: the row's fenced lease (lease.ts), renewed every third
  // of its 5 minutes while the package is written, is what keeps a second run off a live upload. A
  // run still writing after 15 minutes is failed by pg-boss but goes on; the retry finds the lease
  // held, changes nothing and comes back when the lease would end (test in jobs.test.ts). It was 4 h,
  // which left a crashed worker's delivery waiting that long (record 163).
  expireInSeconds: 15 * 60,
  concurrency: 2,
  async run({ deliveryId }, { deps }: { deps: DeliveryJobDeps & DeliveryJobOptions }) {
    const options = resolveOptions(deps.deliveryOptions ?? {});
    const claimed = await claimJobs(deps.db, options, deliveryId);
    if (claimed.length > 0) {
      await processJobs(deps, claimed, options);
      return;
    }
    // Not claimable now: not due yet, or another run holds its lease. Come back then (a row that is
    // delivered, failed or gone needs nothing more).
    const [row] = await rows<{ at: Date | string | null }>(
      deps.db,
      sql`select case
            when state in ('queued', 'takedown_queued') then next_attempt_at
            when state = 'uploading' then lease_until
          end as at
          from deliveries where id = ${deliveryId}`,
    );
    if (row?.at) await enqueueDelivery(deps.db, deliveryId, new Date(row.at));
  },
});

export const sweepDeliveries = defineJob({
  name: 'delivery.sweep',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 0 },
  schedule: { cron: '* * * * *', payload: {} },
  async run(_payload, { deps }: { deps: Pick<Deps, 'db'> }) {
    const due = await deps.db
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(
        or(
          and(
            inArray(deliveries.state, ['queued', 'takedown_queued']),
            lte(deliveries.nextAttemptAt, sql`now()`),
          ),
          and(eq(deliveries.state, 'uploading'), lte(deliveries.leaseUntil, sql`now()`)),
        ),
      )
      .limit(1000);
    for (const row of due) await enqueueDelivery(deps.db, row.id);
  },
});

export const pollAcks = defineJob({
  name: 'delivery.acks',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 0 },
  expireInSeconds: 15 * 60,
  schedule: { cron: '* * * * *', payload: {} },
  async run(_payload, { deps }: { deps: DeliveryJobDeps }) {
    await pollAcknowledgements(deps);
    await promoteReleases(deps.db, deps.config.appUrl);
  },
});

export const promoteDueReleases = defineJob({
  name: 'delivery.promote',
  payload: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 60 },
  schedule: { cron: '*/15 * * * *', payload: {} },
  async run(_payload, { deps }: { deps: Pick<Deps, 'db' | 'config'> }) {
    await promoteReleases(deps.db, deps.config.appUrl);
  },
});

export const deliveryJobs = [sendDelivery, sweepDeliveries, pollAcks, promoteDueReleases];
