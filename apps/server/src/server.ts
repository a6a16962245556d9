/** Builds the running system from a Config: database (migrated), auth, storage, mail. Used by main and tests. */
import path from 'node:path';
import type { Config } from './config';
import { checkAppSecret } from './db/app-secret-check';
import { openDatabase } from './db/client';
import type { LockRole } from './db/data-dir-lock';
import { runMigrations } from './db/migrate';
import type { Deps } from './deps';
import { createProfileEventHub } from './infra/events/profile-events';
import { createOutboxTransport, createSmtpTransport } from './infra/mail/mail';
import { createLocalStorage } from './infra/storage/local-storage';
import { createS3Storage, s3OptionsFrom } from './infra/storage/s3-storage';
import { allJobs } from './job-registry';
import { createJobEngine, type JobEngine } from './lib/jobs';
import type { Logger } from './lib/logger';
import { recordJobFailure } from './lib/metrics';
import { createAuth } from './modules/auth/auth';
import { closeUploads } from './modules/builder/uploads';

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
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: options.isDatabaseInMemory && !config.DATABASE_URL ? 'memory://' : config.dataDir,
    pgliteTemplate: options.pgliteTemplate,
    lockRole: options.lockRole,
  });
  try {
    await runMigrations(database);
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
  const role = options.runWorkers === false ? 'web' : config.TUNEDROP_ROLE;
  const jobDeps: Record<string, unknown> = {};
  const jobs = createJobEngine({
    role,
    jobs: allJobs,
    deps: jobDeps,
    logger,
    database,
    databaseUrl: config.DATABASE_URL,
    concurrency: jobConcurrency(
      allJobs.map((job) => job.name),
      config.jobsConcurrency,
    ),
    ...(options.jobPollingSeconds ? { pollingIntervalSeconds: options.jobPollingSeconds } : {}),
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
    async stop() {
      // Runs in flight finish (or are failed back to their queue after 10 s) before the database closes.
      await jobs.stop({ timeoutMs: 10_000 });
      await system.events.stop();
      await closeUploads(config);
      await database.close();
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
    throw error;
  }
  return system;
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
