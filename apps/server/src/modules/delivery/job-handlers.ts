/** What delivery's jobs (jobs.ts) do, loaded when a job first runs (record 258). */
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { deliveries } from '../../db/schema';
import type { Deps } from '../../deps';
import { handleJob } from '../../lib/jobs';
import { rows } from '../../lib/sql';
import { pollAcknowledgements, promoteReleases } from './acknowledgements';
import {
  enqueueDelivery,
  pollAcksJob,
  promoteDueReleasesJob,
  sendDeliveryJob,
  sweepDeliveriesJob,
} from './jobs';
import { claimJobs, resolveOptions, type WorkerOptions } from './state';
import { processJobs } from './worker';

type DeliveryJobDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger' | 'wakeMail'>;

/** Worker settings of the running system (tests of the jobs pass shorter ones through deps). */
export type DeliveryJobOptions = { deliveryOptions?: WorkerOptions };

export const sendDelivery = handleJob(sendDeliveryJob, {
  async run({ deliveryId }, { deps, jobId }: { deps: DeliveryJobDeps & DeliveryJobOptions; jobId: string }) {
    // The run's rows are leased under its job's id, so a takeover knows which lease the dead run held.
    const options = resolveOptions({ workerId: jobId, ...deps.deliveryOptions });
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
  // Its worker died (no heartbeat for 30 s) or handed the run over at shutdown (record 217): the rows it
  // leased are free at once, so the retry claims them now rather than when the 5-minute lease runs out.
  // Should the old worker still be alive (frozen), the fenced lease stops it at its next write.
  async takeOver(_payload, { db, jobId }) {
    await db
      .update(deliveries)
      .set({ leaseUntil: sql`now()` })
      .where(and(eq(deliveries.leaseOwner, jobId), eq(deliveries.state, 'uploading')));
  },
});

export const sweepDeliveries = handleJob(sweepDeliveriesJob, {
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

export const pollAcks = handleJob(pollAcksJob, {
  async run(_payload, { deps }: { deps: DeliveryJobDeps }) {
    await pollAcknowledgements(deps);
    await promoteReleases(deps.db, deps.config.appUrl);
  },
});

export const promoteDueReleases = handleJob(promoteDueReleasesJob, {
  async run(_payload, { deps }: { deps: Pick<Deps, 'db' | 'config'> }) {
    await promoteReleases(deps.db, deps.config.appUrl);
  },
});
