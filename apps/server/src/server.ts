/** Builds the running system from a Config: database (migrated), auth, storage, mail. Used by main and tests. */
import path from 'node:path';
import type { Config } from './config';
import { checkAppSecret } from './db/app-secret-check';
import { openDatabase } from './db/client';
import type { LockRole } from './db/data-dir-lock';
import { runMigrations } from './db/migrate';
import type { Deps } from './deps';
import { createProfileEventHub } from './infra/events/profile-events';
import { createOutboxTransport, createSmtpTransport, startMailWorker } from './infra/mail/mail';
import { createLocalStorage } from './infra/storage/local-storage';
import { createS3Storage } from './infra/storage/s3-storage';
import type { Logger } from './lib/logger';
import { createAuth } from './modules/auth/auth';
import { startUploadCleanup } from './modules/builder/cleanup';
import { startDeliveryWorker } from './modules/delivery/worker';

export type System = Deps & { stop: () => Promise<void> };

export type StartOptions = {
  runWorkers?: boolean;
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
  const worker =
    options.runWorkers === false
      ? null
      : startMailWorker(database.db, mailTransport, {
          from: config.MAIL_FROM,
          domain: mailDomain,
          logger,
          sendTimeoutMs: config.SMTP_TIMEOUT_SECONDS * 1000,
        });
  const wakeMail = () => worker?.wake();
  const auth = createAuth(config, database.db, { onMailQueued: wakeMail });
  // config.ts guarantees all five S3_* variables or none.
  const storage = config.S3_BUCKET
    ? createS3Storage({
        bucket: config.S3_BUCKET,
        endpoint: config.S3_ENDPOINT as string,
        region: config.S3_REGION as string,
        accessKeyId: config.S3_ACCESS_KEY_ID as string,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY as string,
      })
    : createLocalStorage(path.join(config.dataDir, 'storage'));
  const uploadCleanup =
    options.runWorkers === false ? null : startUploadCleanup({ db: database.db, config, storage, logger });
  // Release delivery (issue 15): uploads packages to the delivery targets and reads their acknowledgements.
  const deliveryWorker =
    options.runWorkers === false
      ? null
      : startDeliveryWorker({ db: database.db, config, storage, logger, wakeMail });
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
      await uploadCleanup?.stop();
      await deliveryWorker?.stop();
      await system.events.stop();
      await worker?.stop();
      await database.close();
    },
  };
  return system;
}
