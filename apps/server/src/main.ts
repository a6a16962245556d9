/**
 * Start-up: configuration, database and migrations (or, in production on PostgreSQL, the check that the
 * migrate role ran: record 224), then listen; SIGTERM/SIGINT drain and close cleanly.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { startCliSocket } from './cli-socket';
import { type Config, ConfigError, checkJobsConcurrencyNames, parseConfig, withAppSecret } from './config';
import { AppSecretMismatchError } from './db/app-secret-check';
import { DataDirLockedError, dataDirLockHolder } from './db/data-dir-lock';
import { UnmigratedDatabaseError } from './db/migrate';
import { allJobs } from './job-registry';
import { appSecretFile } from './lib/app-secret';
import { createLogger, type Logger } from './lib/logger';
import { DataDirOwnerError, describeTightened, makeDataDirPrivate, type Tightened } from './lib/private-dir';
import { migrateDatabase } from './migrate-role';
import { startSystem } from './server';

async function main() {
  // Whatever the shell's umask, everything this process (and PGlite in it) creates is private (decision 141).
  process.umask(0o077);
  let config: Config;
  let tightened: Tightened;
  try {
    const parsed = parseConfig();
    // A typo'd JOBS_CONCURRENCY_* would otherwise be ignored silently (issue 43).
    checkJobsConcurrencyNames(
      parsed,
      allJobs.map((job) => job.name),
    );
    // Another server owning DATA_DIR: refuse with one line before anything else is printed (the lock
    // taken when the database opens is what guarantees it; this only keeps the refusal alone).
    const owner = parsed.DATABASE_URL ? null : dataDirLockHolder(parsed.dataDir);
    if (owner?.role === 'server') throw new DataDirLockedError(parsed.dataDir, owner);
    // Before the secret is read or written: a DATA_DIR another user owns is refused.
    tightened = makeDataDirPrivate(parsed.dataDir);
    config = withAppSecret(parsed, { mayCreate: true });
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof DataDirOwnerError
    ) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  // A promise nobody awaited failed (a background task's query, a closed connection's late error): it is
  // logged as an error and the server keeps serving; any transaction it ran in rolled back (record 260).
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the server keeps running');
  });
  const loose = describeTightened(config.dataDir, tightened);
  if (loose) logger.warn(loose);
  if (config.appSecretSource === 'DATA_DIR') {
    logger.info(
      { file: appSecretFile(config.dataDir) },
      'APP_SECRET is not set: using the secret generated for this DATA_DIR (every instance and CLI on the same database needs the same one)',
    );
  }
  if (!config.STRIPE_SECRET_KEY && config.isPaymentsSandboxAllowed) {
    logger.warn(
      'payment sandbox is on: checkouts are simulated and nobody is charged (set STRIPE_SECRET_KEY for real payments)',
    );
  }
  if (config.TUNEDROP_ROLE === 'migrate') {
    // The one-shot step before a rollout (record 224): migrate, then exit.
    try {
      await migrateDatabase(config, logger);
      process.exit(0);
    } catch (error) {
      console.error(`TUNEDROP_ROLE=migrate: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  }
  let system: Awaited<ReturnType<typeof startSystem>>;
  try {
    system = await startSystemWhenFree(config, logger);
  } catch (error) {
    if (
      error instanceof DataDirLockedError ||
      error instanceof AppSecretMismatchError ||
      error instanceof UnmigratedDatabaseError
    ) {
      console.error(error.message);
      process.exit(1);
    }
    const where = config.DATABASE_URL
      ? 'DATABASE_URL: cannot open the PostgreSQL database'
      : 'DATA_DIR: cannot open the embedded database';
    console.error(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  // On PGlite this process owns DATA_DIR: the CLI hands its commands over this socket.
  const cliSocket =
    system.database.kind === 'pglite'
      ? await startCliSocket(system, config.dataDir, logger).catch((error: unknown) => {
          logger.error({ err: error }, 'cannot open the CLI socket; stop the server to use the CLI');
          return null;
        })
      : null;
  // A worker runs jobs and answers only its probes and metrics (record 156): no API, no web app.
  const app = createApp(system, { isWorkerOnly: config.TUNEDROP_ROLE === 'worker' });
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    logger.info(
      { url: config.appUrl, port: info.port, database: system.database.kind, role: config.TUNEDROP_ROLE },
      'Tunedrop is listening',
    );
  }) as Server;

  let isShuttingDown = false;
  /**
   * SIGTERM/SIGINT (record 217): readiness answers 503 at once and no new job is fetched; job runs in
   * flight get SHUTDOWN_DRAIN_SECONDS to finish and are then handed over to other workers, while HTTP
   * keeps answering (probes see the 503); then HTTP closes, requests still open are cut at the end of the
   * drain time (at least a second later), the database closes and the process exits. Whatever hangs, it
   * exits 5 s after the drain time.
   */
  const shutdown = (signal: string) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
    if (system.shutdown) system.shutdown.isDraining = true;
    logger.info({ signal, drainSeconds: config.SHUTDOWN_DRAIN_SECONDS }, 'shutting down: draining');
    const hardExit = setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting anyway');
      process.exit(1);
    }, drainMs + 5000);
    hardExit.unref();
    // Live-update streams never finish on their own; end them so the server can close.
    void system.events.stop();
    const startedAt = Date.now();
    const closeHttp = () =>
      new Promise<void>((resolve) => {
        // Requests in flight get the rest of the drain time (at least a second).
        const force = setTimeout(
          () => {
            logger.error('requests did not finish in time; closing anyway');
            server.closeAllConnections();
          },
          Math.max(1000, drainMs - (Date.now() - startedAt)),
        );
        force.unref();
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    void system.jobs
      .stop({ timeoutMs: drainMs })
      .then(closeHttp)
      .then(async () => {
        await cliSocket?.close();
        await system.stop();
        logger.info('database closed; bye');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'error while closing');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * Starts the system; when a CLI command holds DATA_DIR (it ran with no server up), waits for it to
 * finish. Another server holding it is refused at once (DataDirLockedError naming its PID).
 */
async function startSystemWhenFree(config: Config, logger: Logger) {
  const deadline = Date.now() + 60_000;
  let hasLogged = false;
  for (;;) {
    try {
      return await startSystem(config, logger);
    } catch (error) {
      if (!(error instanceof DataDirLockedError) || error.holder.role !== 'cli' || Date.now() > deadline)
        throw error;
      if (!hasLogged) logger.info({ pid: error.holder.pid }, 'waiting for a CLI command to release DATA_DIR');
      hasLogged = true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

void main();
