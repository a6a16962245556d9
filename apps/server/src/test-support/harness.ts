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

async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tunedrop_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
async function migratedPgliteTemplate(): Promise<Blob> {
  const { readMigrationFiles } = await import('drizzle-orm/migrator');
  const { migrationsFolder, runMigrations } = await import('../db/migrate');
  const { openDatabase, dumpPglite } = await import('../db/client');
  const { createJobEngine } = await import('../lib/jobs');
  const bossVersion = createRequire(import.meta.url)('pg-boss/package.json').version as string;
  const hashes = readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash);
  const key = createHash('sha256')
    .update([...hashes, `pg-boss ${bossVersion}`].join(','))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `tunedrop-pglite-template-${key}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const database = await openDatabase({ dataDir: 'memory://' });
  await runMigrations(database);
  // pg-boss's own schema too (record 155): each file's engine then finds it migrated.
  const engine = createJobEngine({
    role: 'web',
    jobs: [],
    deps: {},
    logger: createLogger('silent'),
    database,
  });
  await engine.start();
  await engine.stop();
  const blob = await dumpPglite(database);
  await database.close();
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  fs.renameSync(tmp, file);
  return blob;
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
