/**
 * `TUNEDROP_ROLE=migrate` (record 224): the one-shot step of a rollout. Applies the migrations and
 * creates or upgrades the job engine's (pg-boss's) schema, records the secret's check value, then the
 * process exits 0; production web and worker instances refuse to start until it has run (server.ts).
 */
import type { Config } from './config';
import { databaseTimeouts } from './config';
import { checkAppSecret } from './db/app-secret-check';
import { openDatabase } from './db/client';
import { pendingMigrations, runMigrations } from './db/migrate';
import { poolTimeouts } from './db/timed-client';
import { createJobEngine } from './lib/jobs';
import type { Logger } from './lib/logger';

export async function migrateDatabase(config: Config, logger: Logger): Promise<{ applied: string[] }> {
  const timeouts = databaseTimeouts(config);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    timeouts,
  });
  try {
    const applied = await pendingMigrations(database);
    await runMigrations(database);
    await checkAppSecret(database.db, config);
    // pg-boss creates or upgrades its schema when it starts with `migrate`; no queue or worker is started.
    const engine = createJobEngine({
      role: 'web',
      jobs: [],
      deps: {},
      logger,
      database,
      databaseUrl: config.DATABASE_URL,
      poolOptions: poolTimeouts({ ...timeouts, statementMs: 0 }),
      migrate: true,
    });
    try {
      await engine.start();
    } finally {
      await engine.stop();
    }
    logger.info({ applied: applied.length, newest: applied.at(-1) ?? null }, 'database migrated');
    return { applied };
  } finally {
    await database.close();
  }
}
