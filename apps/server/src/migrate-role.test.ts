/**
 * The migrate role (record 224) with real processes: in production on PostgreSQL a web or worker instance
 * refuses an unmigrated database with one line and changes nothing; `TUNEDROP_ROLE=migrate` applies the
 * migrations and pg-boss's schema and exits 0; then the instances start. PGlite and development migrate
 * at start as before.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config';
import { selfMigrates } from './server';
import { bundledServer } from './test-support/server-bundle';

const baseUrl = process.env.DATABASE_URL;
const secret = 'migrate-role-test-secret-0123456789abcdef';
const children: ChildProcess[] = [];
const dirs: string[] = [];
let dropDatabase: (() => Promise<void>) | null = null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await dropDatabase?.();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function environment(role: string, databaseUrl: string, port = 0): NodeJS.ProcessEnv {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-migrate-role-'));
  dirs.push(dataDir);
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    TUNEDROP_ROLE: role,
    APP_SECRET: secret,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
}

const runOnce = (role: string, databaseUrl: string) =>
  spawnSync(process.execPath, [bundledServer('main')], {
    env: environment(role, databaseUrl),
    encoding: 'utf8',
    timeout: 90_000,
  });

async function query<T>(databaseUrl: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const schemas = (databaseUrl: string) =>
  query<{ name: string }>(
    databaseUrl,
    "select nspname as name from pg_namespace where nspname in ('drizzle', 'pgboss') order by 1",
  ).then((rows) => rows.map((row) => row.name));

describe('who migrates', () => {
  it('production on PostgreSQL waits for the migrate role; PGlite and development migrate at start', () => {
    expect(selfMigrates({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' })).toBe(false);
    expect(selfMigrates({ NODE_ENV: 'production', DATABASE_URL: undefined })).toBe(true);
    expect(selfMigrates({ NODE_ENV: 'development', DATABASE_URL: 'postgres://db/x' })).toBe(true);
    expect(selfMigrates({ NODE_ENV: 'test', DATABASE_URL: undefined })).toBe(true);
    expect(() => parseConfig({ TUNEDROP_ROLE: 'migrate' })).toThrow(
      'DATABASE_URL: required when TUNEDROP_ROLE=migrate',
    );
  });
});

describe.skipIf(!baseUrl)('TUNEDROP_ROLE=migrate (PostgreSQL)', () => {
  it('instances refuse an unmigrated database with one line; the migrate role migrates it and exits 0', async () => {
    const name = `tunedrop_migrate_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await query(baseUrl as string, `create database ${name}`);
    dropDatabase = () =>
      query(baseUrl as string, `drop database if exists ${name} with (force)`).then(() => undefined);
    const url = new URL(baseUrl as string);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();

    const refused = runOnce('worker', databaseUrl);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^The database is not migrated: \d+ migrations are pending \(newest \d{4}_\w+\)\. In production .* run this version once with TUNEDROP_ROLE=migrate, then start the web and worker instances\.$/,
      ),
    ]);
    expect(await schemas(databaseUrl)).toEqual([]);

    const migrated = runOnce('migrate', databaseUrl);
    expect(migrated.stderr).toBe('');
    expect(migrated.status).toBe(0);
    expect(await schemas(databaseUrl)).toEqual(['drizzle', 'pgboss']);

    const port = 43100 + Math.floor(Math.random() * 400);
    const web = spawn(process.execPath, [bundledServer('main')], {
      env: environment('web', databaseUrl, port),
      stdio: 'ignore',
    });
    children.push(web);
    const until = Date.now() + 60_000;
    let status = 0;
    while (Date.now() < until && status !== 200) {
      status = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
    web.kill('SIGKILL');

    // pg-boss's schema missing (or older than this version's pg-boss) is refused the same way.
    await query(databaseUrl, 'drop schema pgboss cascade');
    const noEngine = runOnce('web', databaseUrl);
    expect(noEngine.status).toBe(1);
    expect(noEngine.stderr).toContain("The database is not migrated: the job engine's schema is missing");
    expect(await schemas(databaseUrl)).toEqual(['drizzle']);
  }, 240_000);
});
