/**
 * A job run by the process that enqueued it (record 276): the CLI waiting for its royalty import, tests
 * and benches. The job is still created in the queue, so the queue stays the one way in; this process
 * then takes it by its singleton key (`fetchKeyed`) before a worker does, runs the same function the
 * handler runs and completes or fails it like the worker loop (job-runner.ts), with a heartbeat row so
 * a worker elsewhere does not take the run over as lost. When a worker took the job first, the caller
 * waits for it instead.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobClient, jobDb } from './job-client';
import { HEARTBEAT_MS, splitRequestId } from './job-runner';
import { fetchKeyed, lockRun } from './job-tables';
import type { JobDefinition } from './jobs';
import { run as runSql } from './sql';

/**
 * Runs the waiting job of `key` in this process: true once it ran and was completed; false when there was
 * none to take (a worker runs it, or it already ran). A run that throws fails the job with the queue's
 * retry rules (a worker may retry it) and rethrows.
 */
export async function runJobInline<P>(
  db: Db,
  job: Pick<JobDefinition<P>, 'name' | 'payload'>,
  key: string,
  run: (payload: P) => Promise<void>,
): Promise<boolean> {
  const entry = await fetchKeyed(db, job.name, key);
  if (!entry) return false;
  const startedOn = entry.startedOnText;
  const worker = `inline/${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  await runSql(
    db,
    sql`insert into job_runs (job_id, started_on, queue, worker)
        values (${entry.id}::uuid, ${startedOn}::timestamptz, ${job.name}, ${worker}) on conflict do nothing`,
  );
  const beat = setInterval(() => {
    void runSql(db, sql`update job_runs set beat_at = now() where worker = ${worker}`).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  const end = (outcome: { failed: object } | 'completed') =>
    db.transaction(async (tx) => {
      if (!(await lockRun(tx, job.name, entry.id, startedOn))) return;
      if (outcome === 'completed') await jobClient.complete(job.name, entry.id, {}, { db: jobDb(tx) });
      else await jobClient.fail(job.name, entry.id, outcome.failed, { db: jobDb(tx) });
    });
  try {
    await run(job.payload.parse(splitRequestId(entry.data).data));
  } catch (error) {
    await end({ failed: { value: { message: error instanceof Error ? error.message : String(error) } } });
    throw error;
  } finally {
    clearInterval(beat);
    await runSql(
      db,
      sql`delete from job_runs where job_id = ${entry.id}::uuid and started_on = ${startedOn}::timestamptz`,
    ).catch(() => undefined);
  }
  await end('completed');
  return true;
}
