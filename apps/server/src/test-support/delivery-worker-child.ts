/**
 * One delivery worker in its own process, for the multi-process lease test (exactly-once delivery):
 * `node --import tsx delivery-worker-child.ts` with DATABASE_URL, APP_SECRET, STORAGE_DIR, WORKER_ID,
 * LEASE_MS and SLOW (1 = reads trickle). Runs one worker pass, prints `claimed` / `done` lines, exits.
 */
import os from 'node:os';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { createLocalStorage } from '../infra/storage/local-storage';
import { createLogger } from '../lib/logger';
import { runDeliveryOnce } from '../modules/delivery';
import { slowStorage } from './slow-storage';

const env = process.env;
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: env.CHILD_DATA_DIR as string,
  APP_SECRET: env.APP_SECRET as string,
  DATABASE_URL: env.DATABASE_URL as string,
  LOG_LEVEL: 'silent',
  // Its store is a temporary folder (record 227: refused outside the root by default).
  DELIVERY_FILE_ROOT: os.tmpdir(),
});
const database = await openDatabase({ databaseUrl: env.DATABASE_URL as string, dataDir: config.dataDir });
const local = createLocalStorage(env.STORAGE_DIR as string);
const storage =
  env.SLOW === '1'
    ? slowStorage(local, {
        chunkBytes: 16 * 1024,
        delayMs: 15,
        beforeChunk: (index) => {
          if (index === 2) process.stdout.write('uploading\n');
        },
      })
    : local;
const result = await runDeliveryOnce(
  { db: database.db, config, storage, logger: createLogger('silent'), wakeMail: () => undefined },
  { workerId: env.WORKER_ID as string, leaseMs: Number(env.LEASE_MS), pollAcks: false, retryBaseMs: 0 },
);
process.stdout.write(`done ${JSON.stringify(result)}\n`);
await database.close();
