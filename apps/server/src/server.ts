/** Builds the running system from a Config: database (migrated), auth, storage, mail. Used by main and tests. */
import path from 'node:path';
import type { Config } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import type { Deps } from './deps';
import { createProfileEventHub } from './infra/events/profile-events';
import { createOutboxTransport, createSmtpTransport, startMailWorker } from './infra/mail/mail';
import { createLocalStorage } from './infra/storage/local-storage';
import type { Logger } from './lib/logger';
import { createAuth } from './modules/auth/auth';

export type System = Deps & { stop: () => Promise<void> };

export type StartOptions = { runWorkers?: boolean; isDatabaseInMemory?: boolean; pgliteTemplate?: Blob };

export async function startSystem(config: Config, logger: Logger, options: StartOptions = {}) {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: options.isDatabaseInMemory && !config.DATABASE_URL ? 'memory://' : config.dataDir,
    pgliteTemplate: options.pgliteTemplate,
  });
  try {
    await runMigrations(database);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  const mailTransport = config.SMTP_URL
    ? createSmtpTransport(config.SMTP_URL)
    : createOutboxTransport(path.join(config.dataDir, 'outbox'), logger);
  const mailDomain = new URL(config.appUrl).hostname;
  const worker =
    options.runWorkers === false
      ? null
      : startMailWorker(database.db, mailTransport, { from: config.MAIL_FROM, domain: mailDomain, logger });
  const wakeMail = () => worker?.wake();
  const auth = createAuth(config, database.db, { onMailQueued: wakeMail });
  const storage = createLocalStorage(path.join(config.dataDir, 'storage'));
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
    async stop() {
      await system.events.stop();
      await worker?.stop();
      await database.close();
    },
  };
  return system;
}
