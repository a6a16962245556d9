/**
 * The job engine's worker side (record 217): fetches, runs, completes and fails jobs. Completing and failing
 * are pg-boss's public `complete` and `fail` (record 257); what pg-boss 10 lacks is in lib/job-tables.ts:
 * - a fetch that skips a `singleton`/`stately` job whose key has a run in progress. pg-boss's fetch takes
 *   the oldest waiting job and fails on the unique index when its key is running, at every poll and for
 *   the whole queue, swallowing the error (issue 43: a killed worker stopped every delivery for 12.5 min);
 * - heartbeats: each run has a `job_runs` row its worker refreshes every HEARTBEAT_MS; every working
 *   instance fails a run with no heartbeat for STALE_MS (its worker crashed, was killed or froze) and
 *   retries it at once, with the job's `takeOver` hook, in one transaction;
 * - a run past its definition's expiry is failed the same way (retried with the queue's backoff) and
 *   counted; pg-boss's own expiry is set BACKSTOP_SECONDS later and only acts when no worker runs;
 * - drain: stop fetching, give the runs in flight a time to finish, then hand them over at once.
 * A run completes or fails only its own start (`started_on`), never a later retry of the same job.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { errorCode } from './error-fields';
import { jobClient, jobDb } from './job-client';
import { dueNow, type FetchedJob, fetchNext, giveBack, lockRun, staleRuns } from './job-tables';
import type { Logger } from './logger';
import { runWithRequestContext } from './request-context';
import { run as runSql } from './sql';

export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 30_000;
/** pg-boss's own expiry is the definition's plus this: a backstop for when no worker checks. */
export const BACKSTOP_SECONDS = 300;
/** Where a job's data carries the id of the request that enqueued it (removed before the payload check). */
export const REQUEST_ID_KEY = '__requestId';

/** Why a run was failed other than by its handler, or handed over (`tunedrop_job_failures_total`). */
export type FailureReason = 'error' | 'expired' | 'worker_lost';

/** A job's stored data and the id of the request that enqueued it, apart. */
export function splitRequestId(stored: unknown): { data: unknown; requestId: string | undefined } {
  if (!stored || typeof stored !== 'object' || !(REQUEST_ID_KEY in stored))
    return { data: stored, requestId: undefined };
  const { [REQUEST_ID_KEY]: given, ...data } = stored as Record<string, unknown>;
  return { data, requestId: typeof given === 'string' ? given : undefined };
}

export type RunnerJob = {
  name: string;
  concurrency: number;
  /** Runs the handler with the job's raw data (the engine checks the payload). */
  run(data: unknown, entry: { id: string; retryCount: number }, logger: Logger): Promise<void>;
  /** In the takeover's transaction, for a run whose worker stopped or was handed over (record 217). */
  takeOver?(data: unknown, context: { db: DbOrTx; jobId: string }): Promise<void>;
};

type Run = { queue: string; id: string; startedOn: string; done: Promise<void>; isHandedOver: boolean };

export type JobRunner = {
  start(): void;
  /** Stops fetching; runs in flight get `drainMs`, then are handed over; resolves when done. */
  drain(drainMs: number): Promise<void>;
  /** One pass of the takeover (tests call it instead of waiting for the timer). */
  takeOverStale(): Promise<number>;
  readonly workerId: string;
};

export function createJobRunner(options: {
  db: DbOrTx;
  jobs: readonly RunnerJob[];
  logger: Logger;
  pollingMs: number;
  onFailed?: (queue: string, reason: FailureReason) => void;
  /** Tests shorten the heartbeat and staleness. */
  heartbeatMs?: number;
  staleMs?: number;
}): JobRunner {
  const { db, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const staleMs = options.staleMs ?? STALE_MS;
  const workerId = `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const runs = new Set<Run>();
  const loops: Promise<void>[] = [];
  const sleepers = new Set<() => void>();
  let isStopping = false;
  let timers: NodeJS.Timeout[] = [];

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  const forgetRun = (id: string, startedOn: string, on: DbOrTx = db) =>
    runSql(
      on,
      sql`delete from job_runs where job_id = ${id}::uuid and started_on = ${startedOn}::timestamptz`,
    );

  /**
   * Ends the run (completed, or failed with pg-boss's retry rules) when the job is still this run, in one
   * transaction with `also`; false when the run had already ended or been retried meanwhile.
   */
  const endRun = (
    queue: string,
    id: string,
    startedOn: string,
    outcome: { failed: object } | 'completed',
    also?: (tx: DbOrTx, data: unknown) => Promise<void>,
  ) =>
    db.transaction(async (tx) => {
      const locked = await lockRun(tx, queue, id, startedOn);
      if (!locked) return false;
      if (outcome === 'completed') await jobClient.complete(queue, id, {}, { db: jobDb(tx) });
      else await jobClient.fail(queue, id, outcome.failed, { db: jobDb(tx) });
      await also?.(tx, locked.data);
      return true;
    });

  async function runOne(job: RunnerJob, entry: FetchedJob): Promise<void> {
    const startedOn = entry.startedOnText;
    const { data, requestId } = splitRequestId(entry.data);
    let finish: () => void = () => undefined;
    const run: Run = {
      queue: job.name,
      id: entry.id,
      startedOn,
      done: new Promise<void>((resolve) => {
        finish = resolve;
      }),
      isHandedOver: false,
    };
    runs.add(run);
    const jobLogger = logger.child({ job: job.name, jobId: entry.id });
    try {
      await runSql(
        db,
        sql`insert into job_runs (job_id, started_on, queue, worker)
            values (${entry.id}::uuid, ${startedOn}::timestamptz, ${job.name}, ${workerId}) on conflict do nothing`,
      ).catch((error: unknown) => jobLogger.warn({ err: error }, 'job heartbeat row not written'));
      const handle = () => job.run(data, { id: entry.id, retryCount: entry.retryCount }, jobLogger);
      let failure: unknown = null;
      let hasFailed = false;
      try {
        await (requestId ? runWithRequestContext({ requestId }, handle) : handle());
      } catch (error) {
        failure = error;
        hasFailed = true;
      }
      if (run.isHandedOver) return;
      if (hasFailed) {
        jobLogger.warn({ err: failure, retryCount: entry.retryCount }, 'job failed');
        options.onFailed?.(job.name, 'error');
        const message = failure instanceof Error ? failure.message : String(failure);
        await endRun(job.name, entry.id, startedOn, { failed: { value: { message } } });
      } else {
        await endRun(job.name, entry.id, startedOn, 'completed');
      }
    } catch (error) {
      // The database went away while recording the outcome: the run stays active, and without its
      // heartbeat row another worker takes it over once it is stale.
      jobLogger.error({ err: error }, 'job outcome not recorded');
    } finally {
      runs.delete(run);
      await forgetRun(entry.id, startedOn).catch(() => undefined);
      finish();
    }
  }

  async function loop(job: RunnerJob): Promise<void> {
    while (!isStopping) {
      let entry: FetchedJob | undefined;
      try {
        entry = await fetchNext(db, job.name);
      } catch (error) {
        if (errorCode(error) === '23505') {
          // Two workers took the two waiting jobs of one key at once; the key now runs, so the next
          // fetch skips it.
          logger.info(
            { queue: job.name },
            'job fetch met a run of the same key started meanwhile; fetching again',
          );
          await sleep(20 + Math.random() * 100);
        } else {
          logger.error({ err: error, queue: job.name }, 'job fetch failed');
          await sleep(options.pollingMs);
        }
        continue;
      }
      if (isStopping && entry) {
        // Fetched while the drain began: give it straight back (no retry used up).
        await giveBack(db, entry.id, entry.startedOnText).catch(() => undefined);
        return;
      }
      if (entry) await runOne(job, entry);
      else await sleep(options.pollingMs);
    }
  }

  /** Fails one run in one transaction: retried at once and taken over, or (expired) with backoff. */
  async function failRun(
    queue: string,
    id: string,
    startedOn: string,
    reason: FailureReason | 'handed_over',
  ): Promise<boolean> {
    const job = options.jobs.find((entry) => entry.name === queue);
    const message =
      reason === 'expired'
        ? 'The run passed its expiry.'
        : reason === 'handed_over'
          ? 'The worker stopped (shutdown) before the run finished; handed over.'
          : `The run's worker stopped sending heartbeats (crashed, killed or frozen) for ${staleMs / 1000} s.`;
    return endRun(queue, id, startedOn, { failed: { value: { message, reason } } }, async (tx, data) => {
      if (reason !== 'expired') {
        await dueNow(tx, id);
        await job?.takeOver?.(splitRequestId(data).data, { db: tx, jobId: id });
      }
      await forgetRun(id, startedOn, tx);
    });
  }

  async function takeOverStale(): Promise<number> {
    const names = options.jobs.map((job) => job.name);
    const stale = await staleRuns(db, names, staleMs / 1000, BACKSTOP_SECONDS);
    let count = 0;
    for (const row of stale) {
      const reason: FailureReason = row.isExpired ? 'expired' : 'worker_lost';
      // A live run of this process past its expiry keeps going (as before); its job is retried.
      if (await failRun(row.name, row.id, row.startedOn, reason)) {
        count += 1;
        options.onFailed?.(row.name, reason);
        logger.warn({ job: row.name, jobId: row.id, reason }, 'job run failed by the takeover; retrying it');
      }
    }
    // Rows a run left behind (its worker died after the job was failed elsewhere).
    await runSql(db, sql`delete from job_runs where beat_at < now() - interval '1 hour'`);
    return count;
  }

  return {
    workerId,
    takeOverStale,
    start() {
      for (const job of options.jobs) {
        for (let i = 0; i < job.concurrency; i++) loops.push(loop(job));
      }
      const beat = setInterval(() => {
        if (runs.size === 0) return;
        void runSql(db, sql`update job_runs set beat_at = now() where worker = ${workerId}`).catch(
          (error: unknown) => logger.warn({ err: error }, 'job heartbeat failed'),
        );
      }, heartbeatMs);
      // Staggered so instances started together do not all check at once.
      const check = setInterval(
        () => {
          void takeOverStale().catch((error: unknown) =>
            logger.warn({ err: error }, 'job takeover check failed'),
          );
        },
        heartbeatMs + Math.floor(Math.random() * 1000),
      );
      beat.unref();
      check.unref();
      timers = [beat, check];
    },
    async drain(drainMs: number) {
      isStopping = true;
      for (const wake of [...sleepers]) wake();
      const pending = [...runs];
      if (pending.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all(pending.map((run) => run.done)),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, drainMs);
          }),
        ]);
        clearTimeout(timer);
      }
      for (const timer of timers) clearInterval(timer);
      const left = [...runs];
      for (const run of left) {
        run.isHandedOver = true;
        await failRun(run.queue, run.id, run.startedOn, 'handed_over').catch((error: unknown) =>
          logger.error({ err: error, job: run.queue, jobId: run.id }, 'job run not handed over'),
        );
      }
      if (left.length > 0)
        logger.warn({ runs: left.length }, 'runs still in flight handed over to other workers');
      await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    },
  };
}
