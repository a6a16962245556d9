/** Start-up: configuration, database and migrations, then listen; SIGTERM/SIGINT drain and close cleanly. */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { startCliSocket } from './cli-socket';
import { type Config, ConfigError, parseConfig, withAppSecret } from './config';
import { AppSecretMismatchError } from './db/app-secret-check';
import { DataDirLockedError, dataDirLockHolder } from './db/data-dir-lock';
import { appSecretFile } from './lib/app-secret';
import { createLogger, type Logger } from './lib/logger';
import { DataDirOwnerError, describeTightened, makeDataDirPrivate, type Tightened } from './lib/private-dir';
import { startSystem } from './server';

async function main() {
  // Whatever the shell's umask, everything this process (and PGlite in it) creates is private (decision 141).
  process.umask(0o077);
  let config: Config;
  let tightened: Tightened;
  try {
    const parsed = parseConfig();
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
  let system: Awaited<ReturnType<typeof startSystem>>;
  try {
    system = await startSystemWhenFree(config, logger);
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof AppSecretMismatchError) {
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
  const app = createApp(system);
  // A worker runs jobs and answers only its probes and metrics (record 156): no API, no web app.
  const fetch = config.TUNEDROP_ROLE === 'worker' ? workerOnly(app.fetch) : app.fetch;
  const server = serve({ fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    logger.info(
      { url: config.appUrl, port: info.port, database: system.database.kind, role: config.TUNEDROP_ROLE },
      'Tunedrop is listening',
    );
  }) as Server;

  let isShuttingDown = false;
  const shutdown = (signal: string) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    // Live-update streams never finish on their own; end them so the server can close.
    void system.events.stop();
    const force = setTimeout(() => {
      logger.error('requests did not finish in 10 s; closing anyway');
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.close(async () => {
      try {
        await cliSocket?.close();
        await system.stop();
        logger.info('database closed; bye');
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'error while closing');
        process.exit(1);
      }
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

const WORKER_PATHS = /^\/(api\/health(\/(live|ready))?|metrics)$/;

/** Only the health probes and /metrics; every other path answers 404 naming the role. */
function workerOnly(fetch: (request: Request) => Response | Promise<Response>) {
  return (request: Request) => {
    if (WORKER_PATHS.test(new URL(request.url).pathname)) return fetch(request);
    return Response.json(
      {
        error: {
          code: 'NOT_FOUND',
          message: 'This is a worker instance (TUNEDROP_ROLE=worker): it runs jobs and serves no API.',
        },
      },
      { status: 404 },
    );
  };
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
