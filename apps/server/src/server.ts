/** Builds the running system from a Config: database (migrated), auth, storage, mail. Used by main and tests. */
import path from 'node:path';
import { type Config, databaseTimeouts } from './config';
import { checkAppSecret } from './db/app-secret-check';
import { openDatabase } from './db/client';
import type { LockRole } from './db/data-dir-lock';
import { pendingMigrations, runMigrations, UnmigratedDatabaseError, unmigratedMessage } from './db/migrate';
import { poolTimeouts } from './db/timed-client';
import type { Deps } from './deps';
import { createProfileEventHub } from './infra/events/profile-events';
import { createOutboxTransport, createSmtpTransport } from './infra/mail/mail';
import { createLocalStorage } from './infra/storage/local-storage';
import { createS3Storage, s3OptionsFrom } from './infra/storage/s3-storage';
import { allJobs } from './job-registry';
import { createJobEngine, type JobEngine } from './lib/jobs';
import type { Logger } from './lib/logger';
import { recordJobFailure } from './lib/metrics';
import { startTelemetry } from './lib/telemetry';
import { createAuth } from './modules/auth';
import { closeUploads } from './modules/builder';

export type System = Deps & { jobs: JobEngine; stop: () => Promise<void> };

export type StartOptions = {
  /**
   * false: this process runs no jobs whatever TUNEDROP_ROLE says (tests and the CLI drive the work
   * themselves; they still enqueue).
   */
  runWorkers?: boolean;
  /** How often idle job workers poll (tests that start the engine use less than the 2 s default). */
  jobPollingSeconds?: number;
  isDatabaseInMemory?: boolean;
  pgliteTemplate?: Blob;
  /** Who holds the DATA_DIR lock on embedded PGlite (default 'server'); see db/data-dir-lock.ts. */
  lockRole?: LockRole;
};

export async function startSystem(config: Config, logger: Logger, options: StartOptions = {}) {
  // Before anything that may open a span (record 225); a no-op without OTEL_EXPORTER_OTLP_ENDPOINT.
  const telemetry = await startTelemetry({
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: config.OTEL_SERVICE_NAME,
    role: config.TUNEDROP_ROLE,
    logger,
  });
  const timeouts = databaseTimeouts(config);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    timeouts,
    dataDir: options.isDatabaseInMemory && !config.DATABASE_URL ? 'memory://' : config.dataDir,
    pgliteTemplate: options.pgliteTemplate,
    lockRole: options.lockRole,
  });
  const mayMigrate = selfMigrates(config);
  try {
    if (mayMigrate) {
      await runMigrations(database);
    } else {
      // Production on PostgreSQL (record 224): the migrate role changes the schema before a rollout.
      const pending = await pendingMigrations(database);
      if (pending.length > 0) throw new UnmigratedDatabaseError(unmigratedMessage(pending));
    }
    await checkAppSecret(database.db, config);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  const mailTransport = config.SMTP_URL
    ? createSmtpTransport(config.SMTP_URL, config.SMTP_TIMEOUT_SECONDS * 1000)
    : createOutboxTransport(path.join(config.dataDir, 'outbox'), logger, {
        logLinks: config.NODE_ENV !== 'production',
      });
  const mailDomain = new URL(config.appUrl).hostname;
  // Mail is a job enqueued with each message (infra/mail/mail.ts): nothing to wake any more.
  const wakeMail = () => undefined;
  const auth = createAuth(config, database.db, { onMailQueued: wakeMail });
  const s3 = s3OptionsFrom(config);
  const storage = s3 ? createS3Storage(s3) : createLocalStorage(path.join(config.dataDir, 'storage'));
  // Every background task is a job (job-registry.ts, records 155 and 156); `web` only enqueues.
  const role =
    options.runWorkers === false || config.TUNEDROP_ROLE === 'migrate' ? 'web' : config.TUNEDROP_ROLE;
  const jobDeps: Record<string, unknown> = {};
  const jobs = createJobEngine({
    role,
    jobs: allJobs,
    deps: jobDeps,
    logger,
    database,
    databaseUrl: config.DATABASE_URL,
    // pg-boss's own pool: its maintenance may run long statements; a hung database still fails it.
    poolOptions: poolTimeouts({ ...timeouts, statementMs: timeouts.longStatementMs }),
    concurrency: jobConcurrency(
      allJobs.map((job) => job.name),
      config.jobsConcurrency,
    ),
    ...(options.jobPollingSeconds ? { pollingIntervalSeconds: options.jobPollingSeconds } : {}),
    migrate: mayMigrate,
    // tunedrop_job_failures_total on /metrics (record 159).
    onJobFailed: recordJobFailure,
  });
  const system: System = {
    config,
    database,
    db: database.db,
    auth,
    storage,
    mailTransport,
    logger,
    wakeMail,
    events: createProfileEventHub(database, logger),
    jobs,
    shutdown: { isDraining: false },
    async stop() {
      // Runs in flight finish (or are handed over after the drain time) before the database closes; main
      // drains first on SIGTERM, and a second stop waits for that one (record 217).
      await jobs.stop({ timeoutMs: config.SHUTDOWN_DRAIN_SECONDS * 1000 });
      await system.events.stop();
      await closeUploads(config);
      await database.close();
      await telemetry.shutdown();
    },
  };
  Object.assign(jobDeps, system, {
    mailOptions: {
      from: config.MAIL_FROM,
      domain: mailDomain,
      sendTimeoutMs: config.SMTP_TIMEOUT_SECONDS * 1000,
    },
  });
  try {
    await jobs.start();
  } catch (error) {
    await jobs.stop().catch(() => undefined);
    await database.close().catch(() => undefined);
    // pg-boss checks its own schema when it may not migrate it.
    const message = error instanceof Error ? error.message : '';
    if (!mayMigrate && /pg-boss (is not installed|database requires migrations)/.test(message))
      throw new UnmigratedDatabaseError(unmigratedMessage([]));
    throw error;
  }
  return system;
}

/**
 * Whether this process applies migrations (its own and pg-boss's) at start (record 224): everywhere but
 * production on PostgreSQL, where several instances of a new version would each change the schema under
 * the old ones still serving; there the one-shot `TUNEDROP_ROLE=migrate` does it before the rollout.
 * The embedded PGlite (one process) and development keep migrating at start.
 */
export function selfMigrates(config: Pick<Config, 'NODE_ENV' | 'DATABASE_URL'>): boolean {
  return !(config.NODE_ENV === 'production' && config.DATABASE_URL);
}

/**
 * Runs at once per queue from JOBS_CONCURRENCY_<QUEUE> (`DELIVERY_SEND` for delivery.send) or
 * JOBS_CONCURRENCY_<MODULE> (`DELIVERY`, every queue of the module); the queue's own setting wins.
 */
export function jobConcurrency(
  names: readonly string[],
  settings: Readonly<Record<string, number>>,
): Record<string, number> {
  const result: Record<string, number> = {};
  for (const name of names) {
    const queueKey = name.toUpperCase().replace(/[.-]/g, '_');
    const moduleKey = (name.split('.')[0] ?? '').toUpperCase().replace(/-/g, '_');
    const count = settings[queueKey] ?? settings[moduleKey];
    if (count !== undefined) result[name] = count;
  }
  return result;
}
