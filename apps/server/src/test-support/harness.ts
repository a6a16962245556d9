/**
 * API test harness: a fresh database per test file (in-memory PGlite, or a new database on the
 * PostgreSQL server named by DATABASE_URL), the Hono app called in-process, and request helpers.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../app';
import { type Config, loadConfig } from '../config';
import { createLogger } from '../lib/logger';
import { type System, startSystem } from '../server';
import { createTestUser, signInCookie, type TestUserOptions } from './fixtures';

export type TestSystem = System & {
  app: ReturnType<typeof createApp>;
  dataDir: string;
  /** Calls the app in-process with our Origin (better-auth requires it) and an optional session cookie. */
  request: (path: string, init?: RequestInit & { cookie?: string; json?: unknown }) => Promise<Response>;
  /** Creates a user and signs them in; returns the user and their Cookie header. */
  signedInUser: (
    options?: TestUserOptions,
  ) => Promise<{ userId: string; email: string; password: string; cookie: string }>;
  close: () => Promise<void>;
};

/**
 * The migrations, pg-boss version and job queues a template database is built from: a new migration set
 * or queue means a new template, so no test file starts from a stale schema.
 */
async function templateKey(): Promise<string> {
  const { readMigrationFiles } = await import('drizzle-orm/migrator');
  const { migrationsFolder } = await import('../db/migrate');
  const { allJobs } = await import('../job-registry');
  const bossVersion = createRequire(import.meta.url)('pg-boss/package.json').version as string;
  const hashes = readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash);
  const queues = allJobs.map((job) => job.name).sort();
  return createHash('sha256')
    .update([...hashes, `pg-boss ${bossVersion}`, ...queues].join(','))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Runs every migration, pg-boss's own schema (record 155) and the app's job queues into a database: each
 * queue is a partition pg-boss creates with DDL, which cost every test file's start about a second.
 */
async function migrateForTemplate(options: { dataDir?: string; databaseUrl?: string }) {
  const { runMigrations } = await import('../db/migrate');
  const { openDatabase } = await import('../db/client');
  const { createJobEngine } = await import('../lib/jobs');
  const { allJobs } = await import('../job-registry');
  const database = await openDatabase(
    options.databaseUrl ? { databaseUrl: options.databaseUrl, dataDir: '' } : { dataDir: 'memory://' },
  );
  await runMigrations(database);
  const engine = createJobEngine({
    role: 'web',
    jobs: allJobs,
    deps: {},
    logger: createLogger('silent'),
    database,
    databaseUrl: options.databaseUrl,
  });
  await engine.start();
  await engine.stop();
  return database;
}

/** Any number to serialise the building of the template between test files starting together. */
const TEMPLATE_LOCK_ID = 7_412_211;

/**
 * Running the ~60 migrations and pg-boss's schema costs every test file seconds on PostgreSQL too (record
 * 211): they run once into `tunedrop_tpl_<key>`, built under an advisory lock by the first file that misses
 * it (under another name, renamed when complete, closed to connections), and each file copies it with
 * `CREATE DATABASE ... TEMPLATE`.
 */
async function postgresTemplate(baseUrl: string): Promise<string> {
  const name = `tunedrop_tpl_${await templateKey()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const exists = async () =>
    (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  try {
    if (await exists()) return name;
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    try {
      if (await exists()) return name;
      const building = `${name}_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
      await admin.query(`create database ${building}`);
      try {
        const url = new URL(baseUrl);
        url.pathname = `/${building}`;
        const database = await migrateForTemplate({ databaseUrl: url.toString() });
        await database.close();
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [building],
        );
        await admin.query(`alter database ${building} with allow_connections false is_template true`);
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (error) {
        await admin.query(`drop database if exists ${building} with (force)`).catch(() => undefined);
        throw error;
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]).catch(() => undefined);
    }
  } finally {
    await admin.end();
  }
}

async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await postgresTemplate(baseUrl);
  const name = `tunedrop_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** The parsed JSON body of an answer; tests read arbitrary shapes from it. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on the JSON shapes they expect
export async function readJson(response: Response): Promise<any> {
  return response.json();
}

/**
 * Creating a PGlite database runs initdb in WebAssembly (about 5 s); every test file instead starts
 * from one migrated copy, dumped once per migration set into the temp directory.
 */
export async function migratedPgliteTemplate(): Promise<Blob> {
  const { dumpPglite } = await import('../db/client');
  const file = path.join(os.tmpdir(), `tunedrop-pglite-template-${await templateKey()}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const database = await migrateForTemplate({});
  const blob = await dumpPglite(database);
  await database.close();
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  fs.renameSync(tmp, file);
  return blob;
}

/**
 * Gives a DATA_DIR the database a server leaves there after its first start (the migrated template,
 * where db/client.ts keeps it), so tests of processes on an existing install skip initdb and the
 * migrations, seconds per start. Tests of a fresh install start from an empty DATA_DIR instead.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const client = await PGlite.create({
    dataDir: path.join(dataDir, 'db'),
    loadDataDir: await migratedPgliteTemplate(),
    extensions: { pg_trgm },
  });
  await client.close();
}

export async function createTestSystem(env: Record<string, string> = {}): Promise<TestSystem> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-test-'));
  const baseUrl = process.env.DATABASE_URL;
  const postgres = baseUrl ? await createPostgresDatabase(baseUrl) : null;
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    // The delivery tests' stores are temporary folders and sshd on loopback, which the target address rules
    // refuse by default (record 227): allowed here explicitly; the rules' own tests pass their own values.
    DELIVERY_FILE_ROOT: os.tmpdir(),
    DELIVERY_ALLOWED_HOSTS: '127.0.0.1,localhost',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  // In-memory PGlite keeps API tests fast; files and the mail outbox still go to the temp data directory.
  const deps = await startSystem(config, createLogger('silent'), {
    runWorkers: false,
    isDatabaseInMemory: true,
    ...(postgres ? {} : { pgliteTemplate: await migratedPgliteTemplate() }),
  });
  const app = createApp(deps);

  const request: TestSystem['request'] = (url, init = {}) => {
    const { cookie, json, headers, ...rest } = init;
    const merged = new Headers(headers);
    if (!merged.has('origin')) merged.set('origin', config.appUrl);
    if (cookie) merged.set('cookie', cookie);
    if (json !== undefined) merged.set('content-type', 'application/json');
    return Promise.resolve(
      app.request(url, {
        ...rest,
        headers: merged,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      }),
    );
  };

  return {
    ...deps,
    app,
    dataDir,
    request,
    async signedInUser(options = {}) {
      const user = await createTestUser(deps, options);
      const cookie = await signInCookie(deps, user.email, user.password);
      return { ...user, cookie };
    },
    async close() {
      await deps.stop();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
