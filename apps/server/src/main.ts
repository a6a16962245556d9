/** Start-up: configuration, database and migrations, then listen; SIGTERM/SIGINT drain and close cleanly. */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './lib/logger';
import { startSystem } from './server';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  let system: Awaited<ReturnType<typeof startSystem>>;
  try {
    system = await startSystem(config, logger);
  } catch (error) {
    const where = config.DATABASE_URL
      ? 'DATABASE_URL: cannot open the PostgreSQL database'
      : 'DATA_DIR: cannot open the embedded database';
    console.error(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const app = createApp(system);
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    logger.info(
      { url: config.appUrl, port: info.port, database: system.database.kind },
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

void main();
