/**
 * The database a bench runs on: a fresh PGlite directory under the bench's work directory, or a scratch
 * PostgreSQL database (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) made for the run
 * and dropped after it; migrated either way. Shared by the royalty import, import job and posting benches.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Database, type Db, openDatabase } from '../../apps/server/src/db/client';
import { runMigrations } from '../../apps/server/src/db/migrate';
import { createLocalStorage } from '../../apps/server/src/infra/storage/local-storage';
import type { Storage } from '../../apps/server/src/infra/storage/storage';
import { allJobs } from '../../apps/server/src/job-registry';
import { createJobEngine } from '../../apps/server/src/lib/jobs';
import { createLogger } from '../../apps/server/src/lib/logger';

export type BenchKind = 'pglite' | 'postgres';

export type BenchDatabase = {
  database: Database;
  /** The scratch PostgreSQL database's URL; null on PGlite. */
  url: string | null;
  /** Closes the database, then drops the scratch database or removes the PGlite directory. */
  close: () => Promise<void>;
};

async function scratchPostgres(
  baseUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Opens and migrates the bench's database; `prefix` names the scratch PostgreSQL database. */
export async function openBenchDatabase(
  kind: BenchKind,
  work: string,
  prefix = 'tunedrop_bench',
): Promise<BenchDatabase> {
  const scratch =
    kind === 'postgres'
      ? await scratchPostgres(
          process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          prefix,
        )
      : null;
  const dataDir = path.join(work, `pglite-${randomUUID()}`);
  const database = await openDatabase({ databaseUrl: scratch?.url, dataDir, lockRole: 'cli' });
  const close = async () => {
    await database.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await runMigrations(database);
  } catch (error) {
    await close();
    throw error;
  }
  return { database, url: scratch?.url ?? null, close };
}

/**
 * What a royalty import needs beside the database (record 276: the import job is the one way in, a bench
 * queues it and runs it inline): pg-boss's schema and queues, made as a server's start makes them (no
 * worker started), and a local storage under the bench's work directory.
 */
export async function importDeps(bench: BenchDatabase, work: string): Promise<{ db: Db; storage: Storage }> {
  const engine = createJobEngine({
    role: 'web',
    jobs: allJobs,
    deps: {},
    logger: createLogger('silent'),
    database: bench.database,
    databaseUrl: bench.url ?? undefined,
  });
  await engine.start();
  await engine.stop();
  return { db: bench.database.db, storage: createLocalStorage(path.join(work, `storage-${randomUUID()}`)) };
}
