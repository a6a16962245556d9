/**
 * The one job engine (issue 24, records 155 and 156): every background task is a named job with a zod
 * payload, defined in its module's `jobs.ts` with `defineJob` (name, payload, retries), its handler in
 * the module's `job-handlers.ts`; `job-registry.ts` pairs each definition with its handler, imported at
 * the job's first run (record 258). Jobs are created with `enqueue(tx, job, payload)` inside the caller's
 * own transaction (pg-boss's `send` with `{ db }`, record 257), so a rolled-back transaction leaves no job
 * behind and a committed one always has its job.
 *
 * On PostgreSQL pg-boss keeps its own small pool; on the embedded PGlite it runs over the app's single
 * connection (record 155 says how that is kept safe). pg-boss creates and migrates its own schema
 * `pgboss` at start, under its advisory lock.
 */

import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../db/client';
import { errorCode } from './error-fields';
import { jobClient, jobDb, SCHEMA } from './job-client';
import {
  BACKSTOP_SECONDS,
  createJobRunner,
  type FailureReason,
  type JobRunner,
  REQUEST_ID_KEY,
} from './job-runner';
import { queueAges, queueCounts } from './job-tables';
import type { Logger } from './logger';
import { currentRequestContext } from './request-context';
import { splitTraceContext, traceJob, withTraceContext } from './telemetry';

export type { FailureReason } from './job-runner';

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

/**
 * What a job is, apart from what it does (record 258): the module's `jobs.ts` defines it, the code that
 * enqueues it imports only this, and its handler (`job-handlers.ts`) is loaded when it first runs.
 */
export type JobDefinition<P> = {
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
};

/** What a job does: its run, and what to release when a run's worker is gone. */
export type JobHandler<P, D = unknown> = {
  /**
   * Called in the takeover's transaction when a run's worker stopped (no heartbeat) or handed the run
   * over at shutdown, before the run is retried (record 217): release what the dead run held.
   */
  takeOver?(payload: P, context: { db: DbOrTx; jobId: string }): Promise<void>;
  // Method syntax on purpose: a handler needing a subset of the deps is accepted where the engine
  // passes all of them (method parameters are checked bivariantly).
  run(payload: P, context: JobContext<D>): Promise<void>;
};

/** A definition with its handler, loaded at its first run: what the engine runs (job-registry.ts). */
export type RegisteredJob<P, D = unknown> = JobDefinition<P> & {
  readonly handler: () => Promise<JobHandler<P, D>>;
};

/** A job of any payload, for lists of jobs (the registry, the engine). */
// biome-ignore lint/suspicious/noExplicitAny: payload types differ per job; each is checked by its own schema
export type AnyJob<D = any> = RegisteredJob<any, D>;

export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  if (!/^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/.test(definition.name)) {
    throw new Error(`job name "${definition.name}" must be <module>.<task> in lower case`);
  }
  return definition;
}

/** A handler for `job` (its payload type checked against the definition's). */
export function handleJob<P, D>(_job: JobDefinition<P>, handler: JobHandler<P, D>): JobHandler<P, D> {
  return handler;
}

/**
 * `job` with its handler: `load` imports the handler's module when the job first runs (the web role
 * never loads it), or the handler itself.
 */
export function withHandler<P, D>(
  job: JobDefinition<P>,
  load: (() => Promise<JobHandler<P, D>>) | JobHandler<P, D>,
): RegisteredJob<P, D> {
  let loaded: Promise<JobHandler<P, D>> | undefined;
  const handler = () => {
    loaded ??= typeof load === 'function' ? load() : Promise.resolve(load);
    // A failed import is tried again at the next run.
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  };
  return { ...job, handler };
}

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
  job: Pick<JobDefinition<P>, 'name' | 'payload'>,
  payload: P,
  options: EnqueueOptions = {},
): Promise<string | null> {
  const data = job.payload.parse(payload) as unknown;
  // The request that enqueues it (if any): the run's log lines carry its id (record 217).
  const requestId = currentRequestContext()?.requestId;
  const stored =
    requestId && data && typeof data === 'object' && !Array.isArray(data)
      ? { ...data, [REQUEST_ID_KEY]: requestId }
      : data;
  const startAfter =
    options.startAfter instanceof Date
      ? options.startAfter
      : options.startAfter && options.startAfter > 0
        ? Math.ceil(options.startAfter)
        : undefined;
  // pg-boss's public send, through the caller's transaction (record 257). Retries, expiry and retention
  // are the queue's, set from the definition at every start. The enqueuing span's trace context rides
  // along when traces are on (record 225).
  return jobClient.send(job.name, withTraceContext(stored) as object, {
    db: jobDb(tx),
    ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    ...(startAfter !== undefined ? { startAfter } : {}),
  });
}

export type JobEngineOptions<D> = {
  role: Role;
  jobs: readonly AnyJob<D>[];
  deps: D;
  logger: Logger;
  /** Runs at once per queue, from JOBS_CONCURRENCY_<QUEUE> (overrides each definition's own). */
  concurrency?: Readonly<Record<string, number>>;
  /** Called for each failed run, whatever failed it (metrics count them). */
  onJobFailed?: (queue: string, reason: FailureReason) => void;
  /** How often an idle worker looks for jobs (default 2 s; tests use less). */
  pollingIntervalSeconds?: number;
  /** Tests shorten the heartbeat and the staleness that counts a run's worker as gone (record 217). */
  heartbeat?: { heartbeatMs: number; staleMs: number };
};

export type JobEngine = {
  /** Migrates pg-boss's schema, creates the queues and schedules; role `all`/`worker` start working. */
  start(): Promise<void>;
  /**
   * Stops taking jobs and waits (up to `timeoutMs`) for the runs in flight, then hands the rest over
   * (failed with an immediate retry, their `takeOver` hook run) and stops pg-boss.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Whether this process runs jobs (role `all` or `worker`). */
  readonly isWorking: boolean;
  /** For readiness and metrics: the engine started and its last query succeeded. */
  isReady(): boolean;
  /** Jobs per queue and state (created, retry, active, completed, failed...), for metrics. */
  counts(): Promise<{ queue: string; state: string; count: number }[]>;
  /**
   * Per queue: seconds since the oldest due job that does not run became due, and since the oldest
   * running job started (0 when none), and the queue's expiry.
   */
  ages(): Promise<{ queue: string; waitingSeconds: number; activeSeconds: number; expirySeconds: number }[]>;
  /** The worker loop (role all/worker, once started): tests run its takeover directly. */
  readonly runner: JobRunner | null;
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
  /** PostgreSQL: timeouts of that pool (record 223), as pg.Pool options. */
  poolOptions?: object;
  /**
   * false: pg-boss only checks that its schema is current and fails the start otherwise (production
   * instances; the migrate role creates and upgrades it, record 224). Default true.
   */
  migrate?: boolean;
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
      : {
          connectionString: options.databaseUrl,
          max: 4,
          application_name: 'tunedrop-jobs',
          ...options.poolOptions,
        };
  const boss = new PgBoss({
    ...connection,
    schema: SCHEMA,
    migrate: options.migrate ?? true,
    // Maintenance (expiring stalled runs, archiving) and cron only where jobs run; both take pg-boss's
    // advisory lock, so any number of workers do each once.
    supervise: isWorking,
    schedule: isWorking,
    pollingIntervalSeconds: Math.max(0.5, options.pollingIntervalSeconds ?? 2),
    ...(options.pollingIntervalSeconds !== undefined && options.pollingIntervalSeconds < 2
      ? { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 }
      : {}),
  });
  let isStarted = false;
  boss.on('error', (error: unknown) => {
    logger.error({ err: error }, 'job engine error');
  });
  const expiryOf = (job: AnyJob<D>) => job.expireInSeconds ?? 15 * 60;
  let runner: JobRunner | null = null;
  let stopping: Promise<void> | null = null;

  return {
    isWorking,
    isReady: () => isStarted,
    get runner() {
      return runner;
    },
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
          // Our takeover fails a run at the definition's expiry (record 217); pg-boss's own expiry, later,
          // only acts when no worker is up to check.
          expireInSeconds: expiryOf(job) + BACKSTOP_SECONDS,
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
        runner = createJobRunner({
          db: options.database.db,
          logger,
          pollingMs: (options.pollingIntervalSeconds ?? 2) * 1000,
          ...(options.onJobFailed ? { onFailed: options.onJobFailed } : {}),
          ...(options.heartbeat ?? {}),
          jobs: options.jobs.map((job) => ({
            name: job.name,
            concurrency: options.concurrency?.[job.name] ?? job.concurrency ?? 1,
            run: (stored, entry, jobLogger) => {
              // A consumer span continuing the enqueuing request's trace, when traces are on (record 225).
              const { data, carrier } = splitTraceContext(stored);
              return traceJob(job.name, carrier, async () =>
                (await job.handler()).run(job.payload.parse(data), {
                  deps: options.deps,
                  jobId: entry.id,
                  retryCount: entry.retryCount,
                  logger: jobLogger,
                }),
              );
            },
            takeOver: async (data: unknown, context: { db: DbOrTx; jobId: string }) => {
              const payload = job.payload.safeParse(data);
              if (payload.success) await (await job.handler()).takeOver?.(payload.data, context);
            },
          })),
        });
        runner.start();
      }
      isStarted = true;
    },
    stop({ timeoutMs = 10_000 } = {}) {
      isStarted = false;
      // Once: main drains on SIGTERM and the system's stop then waits for the same drain.
      stopping ??= (async () => {
        await runner?.drain(timeoutMs);
        await boss.stop({ graceful: true, wait: true, timeout: 1000, close: true });
      })();
      return stopping;
    },
    counts: () => queueCounts(boss.getDb()),
    async ages() {
      const found = await queueAges(boss.getDb());
      return options.jobs.map((job) => ({
        queue: job.name,
        waitingSeconds: Math.max(0, found.get(job.name)?.waiting ?? 0),
        activeSeconds: Math.max(0, found.get(job.name)?.active ?? 0),
        expirySeconds: expiryOf(job),
      }));
    },
  };
}
