/**
 * The one job engine (issue 24, records 155 and 156): every background task is a named job with a zod
 * payload, defined in its module's `jobs.ts` with `defineJob`, registered in `job-registry.ts` and run
 * by pg-boss. Jobs are created with `enqueue(tx, job, payload)` inside the caller's own transaction, so
 * a rolled-back transaction leaves no job behind and a committed one always has its job.
 *
 * On PostgreSQL pg-boss keeps its own small pool; on the embedded PGlite it runs over the app's single
 * connection (record 155 says how that is kept safe). pg-boss creates and migrates its own schema
 * `pgboss` at start, under its advisory lock.
 */

import { createRequire } from 'node:module';
import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../db/client';
import { errorCode } from './error-fields';
import type { Logger } from './logger';
import { rows } from './sql';

/** pg-boss's schema; it creates and migrates it itself at start. */
const SCHEMA = 'pgboss';
/**
 * pg-boss's own INSERT of one job (its `send` runs this very statement). Used directly so a job can be
 * created through the caller's Drizzle transaction without a pg-boss instance at hand; pg-boss is
 * pinned to an exact version and jobs.test.ts checks the statement against it.
 */
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as { insertJob(schema: string): string };
const INSERT_JOB = plans.insertJob(SCHEMA);

/** Which parts of the system a process runs: `web` serves HTTP (and enqueues), `worker` runs jobs. */
export type Role = 'all' | 'web' | 'worker';

/**
 * What happens after a failed run (the handler threw): up to `limit` more runs, `delaySeconds` apart,
 * doubled each time when `backoff` is set.
 */
export type RetryPolicy = { limit: number; delaySeconds: number; backoff?: boolean };

/**
 * How duplicates of one singleton key are refused (pg-boss queue policies): `standard` none (unless the
 * key and `startAfter` repeat), `short` one waiting job per key, `singleton` one running job per key,
 * `stately` one waiting and one running per key.
 */
export type QueuePolicy = 'standard' | 'short' | 'singleton' | 'stately';

export type JobContext<D> = {
  /** The running system's dependencies (db, config, storage, logger...), as the job declares it needs. */
  deps: D;
  jobId: string;
  /** 0 on the first run, 1 on the first retry... */
  retryCount: number;
  logger: Logger;
};

export type JobDefinition<P, D = unknown> = {
  /** The queue's name: `<module>.<task>`, e.g. `delivery.send`. */
  readonly name: string;
  readonly payload: z.ZodType<P>;
  readonly retry?: RetryPolicy;
  readonly policy?: QueuePolicy;
  /** A run still active after this long is failed (and retried): longer than the slowest honest run. */
  readonly expireInSeconds?: number;
  /** Runs at once per worker process (default 1); `JOBS_CONCURRENCY_<QUEUE>` overrides it. */
  readonly concurrency?: number;
  /**
   * Enqueued by the engine on a cron (UTC, minute granularity), once across all instances. The payload
   * must be valid for `payload`.
   */
  readonly schedule?: { cron: string; payload: P };
  // Method syntax on purpose: a definition needing a subset of the deps is accepted where the engine
  // passes all of them (method parameters are checked bivariantly).
  run(payload: P, context: JobContext<D>): Promise<void>;
};

/** A definition of any payload, for lists of jobs (the registry, the engine). */
// biome-ignore lint/suspicious/noExplicitAny: payload types differ per job; each is checked by its own schema
export type AnyJob<D = any> = JobDefinition<any, D>;

export function defineJob<P, D = unknown>(definition: JobDefinition<P, D>): JobDefinition<P, D> {
  if (!/^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/.test(definition.name)) {
    throw new Error(`job name "${definition.name}" must be <module>.<task> in lower case`);
  }
  return definition;
}

/**
 * What enqueueing needs of a job: its name and payload schema. A module whose handler imports the
 * code that enqueues it declares this part apart (no import cycle).
 */
export type JobQueue<P> = Pick<JobDefinition<P>, 'name' | 'payload'>;

export type EnqueueOptions = {
  /** With the queue's policy, refuses a second job of the same key (see QueuePolicy). */
  singletonKey?: string;
  /** Not before this time (a Date) or this many seconds from now (database time). */
  startAfter?: Date | number;
};

/**
 * Creates a job inside `tx` (the caller's transaction, or the database for a job of its own). The
 * payload is checked against the job's schema. Returns the job's id, or null when the singleton key
 * refused a duplicate.
 */
export async function enqueue<P>(
  tx: DbOrTx,
  job: JobQueue<P>,
  payload: P,
  options: EnqueueOptions = {},
): Promise<string | null> {
  const data = job.payload.parse(payload);
  const startAfter =
    options.startAfter instanceof Date
      ? options.startAfter.toISOString()
      : options.startAfter && options.startAfter > 0
        ? String(Math.ceil(options.startAfter))
        : null;
  // pg-boss's createJob values, in its order: id, name, data, priority, startAfter, singletonKey,
  // singletonSeconds, singletonOffset, deadLetter, then expiry, retention and retry with their
  // defaults (null: the queue's own settings, made from the definition at start, apply).
  const values = [null, job.name, JSON.stringify(data), 0, startAfter, options.singletonKey ?? null, null, 0];
  const inserted = await rows<{ id: string }>(tx, withParams(INSERT_JOB, values));
  return inserted[0]?.id ?? null;
}

/** pg-boss's `$n` placeholders as Drizzle parameters (missing ones are null). */
function withParams(text: string, values: readonly unknown[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    chunks.push(sql`${values[Number(match[1]) - 1] ?? null}`);
    last = (match.index ?? 0) + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks, sql.raw(''));
}

export type JobEngineOptions<D> = {
  role: Role;
  jobs: readonly AnyJob<D>[];
  deps: D;
  logger: Logger;
  /** Runs at once per queue, from JOBS_CONCURRENCY_<QUEUE> (overrides each definition's own). */
  concurrency?: Readonly<Record<string, number>>;
  /** Called for each failed run (metrics count them). */
  onJobFailed?: (queue: string, error: unknown) => void;
  /** How often an idle worker looks for jobs (default 2 s; tests use less). */
  pollingIntervalSeconds?: number;
};

export type JobEngine = {
  /** Migrates pg-boss's schema, creates the queues and schedules; role `all`/`worker` start working. */
  start(): Promise<void>;
  /** Stops taking jobs and waits (up to `timeoutMs`) for the runs in flight. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Whether this process runs jobs (role `all` or `worker`). */
  readonly isWorking: boolean;
  /** For readiness and metrics: the engine started and its last query succeeded. */
  isReady(): boolean;
  /** Jobs per queue and state (created, retry, active, completed, failed...), for metrics. */
  counts(): Promise<{ queue: string; state: string; count: number }[]>;
};

const DEFAULT_RETRY: RetryPolicy = { limit: 3, delaySeconds: 10, backoff: true };

/**
 * pg-boss over the embedded PGlite's one connection (record 155). Its multi-statement commands
 * (`BEGIN; …advisory lock…; COMMIT;` for migrations and maintenance) run inside PGlite's own
 * transaction, which holds the connection's mutex until COMMIT and rolls back on error: no request's
 * query can land between them, and a failure never leaves the connection inside an open transaction.
 */
type PgliteClient = {
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  transaction: <T>(run: (tx: { exec: (text: string) => Promise<unknown> }) => Promise<T>) => Promise<T>;
};

function pgliteAdapter(client: PgliteClient): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const wrapped = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/.exec(text);
      if (wrapped && !values?.length) {
        await client.transaction((tx) => tx.exec(wrapped[1] ?? ''));
        return { rows: [] };
      }
      const result = await client.query(text, values ?? []);
      return { rows: result.rows };
    },
  };
}

async function retryOnDeadlock(run: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = errorCode(error);
      if (attempt >= 5 || (code !== '40P01' && code !== '23505')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

export type CreateJobEngineOptions<D> = JobEngineOptions<D> & {
  database: Database;
  /** PostgreSQL: pg-boss opens its own small pool on this URL. */
  databaseUrl?: string | undefined;
};

export function createJobEngine<D>(options: CreateJobEngineOptions<D>): JobEngine {
  const isWorking = options.role !== 'web';
  const { logger } = options;
  const names = new Set<string>();
  for (const job of options.jobs) {
    if (names.has(job.name)) throw new Error(`job "${job.name}" is defined twice`);
    names.add(job.name);
  }
  const connection: PgBoss.ConstructorOptions =
    options.database.kind === 'pglite'
      ? { db: pgliteAdapter(options.database.client) }
      : { connectionString: options.databaseUrl, max: 4, application_name: 'tunedrop-jobs' };
  const boss = new PgBoss({
    ...connection,
    schema: SCHEMA,
    migrate: true,
    // Maintenance (expiring stalled runs, archiving) and cron only where jobs run; both take pg-boss's
    // advisory lock, so any number of workers do each once.
    supervise: isWorking,
    schedule: isWorking,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
    ...(options.pollingIntervalSeconds !== undefined && options.pollingIntervalSeconds < 2
      ? { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 }
      : {}),
  });
  let isStarted = false;
  boss.on('error', (error: unknown) => {
    logger.error({ err: error }, 'job engine error');
  });

  return {
    isWorking,
    isReady: () => isStarted,
    async start() {
      await boss.start();
      for (const job of options.jobs) {
        const retry = job.retry ?? DEFAULT_RETRY;
        const queue = {
          name: job.name,
          policy: job.policy ?? 'standard',
          retryLimit: retry.limit,
          retryDelay: retry.delaySeconds,
          retryBackoff: retry.backoff ?? false,
          expireInSeconds: job.expireInSeconds ?? 15 * 60,
        };
        await retryOnDeadlock(async () => {
          // pg-boss's create_queue takes no lock: instances starting together can deadlock on it.
          if (!(await boss.getQueue(job.name))) await boss.createQueue(job.name, queue);
          await boss.updateQueue(job.name, queue);
        });
      }
      if (isWorking) {
        for (const job of options.jobs) {
          if (job.schedule) {
            await boss.schedule(job.name, job.schedule.cron, job.payload.parse(job.schedule.payload), {
              tz: 'UTC',
            });
          }
        }
        for (const schedule of await boss.getSchedules()) {
          const job = options.jobs.find((entry) => entry.name === schedule.name);
          if (!job?.schedule) await boss.unschedule(schedule.name);
        }
        for (const job of options.jobs) {
          const concurrency = options.concurrency?.[job.name] ?? job.concurrency ?? 1;
          for (let i = 0; i < concurrency; i++) {
            let workerId = '';
            workerId = await boss.work(
              job.name,
              {
                batchSize: 1,
                includeMetadata: true,
                pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
              },
              async ([entry]: PgBoss.JobWithMetadata<unknown>[]) => {
                if (!entry) return;
                const jobLogger = logger.child({ job: job.name, jobId: entry.id });
                try {
                  await job.run(job.payload.parse(entry.data), {
                    deps: options.deps,
                    jobId: entry.id,
                    retryCount: entry.retryCount,
                    logger: jobLogger,
                  });
                } catch (error) {
                  jobLogger.warn({ err: error, retryCount: entry.retryCount }, 'job failed');
                  options.onJobFailed?.(job.name, error);
                  throw error;
                } finally {
                  // pg-boss 10 waits its polling interval after every fetch, even one that found a job:
                  // a busy worker asks for the next job at once instead.
                  boss.notifyWorker(workerId);
                }
              },
            );
          }
        }
      }
      isStarted = true;
    },
    async stop({ timeoutMs = 10_000 } = {}) {
      isStarted = false;
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: true });
    },
    async counts() {
      const result = await boss
        .getDb()
        .executeSql(
          `select name as queue, state, count(*)::int as count from ${SCHEMA}.job group by name, state order by name, state`,
          [],
        );
      return (result.rows as { queue: string; state: string; count: number }[]).map((row) => ({
        ...row,
        count: Number(row.count),
      }));
    },
  };
}
