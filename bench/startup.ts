/**
 * Time from process start to a healthy /api/health, on PGlite (fresh and reopened) and on PostgreSQL
 * when DATABASE_URL (or 127.0.0.1:5432) answers. Prints figures; it is not a test.
 *   node --import tsx bench/startup.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

async function timeToHealthy(env: Record<string, string>): Promise<number> {
  const port = String(30000 + Math.floor(Math.random() * 20000));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, ...env, PORT: port, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error('not healthy after 120 s');
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-'));
const fresh = await timeToHealthy({ DATA_DIR: dataDir });
const reopened = await timeToHealthy({ DATA_DIR: dataDir });
console.info(`PGlite, fresh data dir (migrations run): ${Math.round(fresh)} ms`);
console.info(`PGlite, existing data dir:               ${Math.round(reopened)} ms`);
fs.rmSync(dataDir, { recursive: true, force: true });

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `tunedrop_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: baseUrl });
try {
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-'));
  const pgFresh = await timeToHealthy({ DATA_DIR: pgDir, DATABASE_URL: url.toString() });
  const pgReopened = await timeToHealthy({ DATA_DIR: pgDir, DATABASE_URL: url.toString() });
  console.info(`PostgreSQL, empty database (migrations): ${Math.round(pgFresh)} ms`);
  console.info(`PostgreSQL, migrated database:           ${Math.round(pgReopened)} ms`);
  await admin.query(`drop database ${name} with (force)`);
} catch (error) {
  console.info(`PostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`);
} finally {
  await admin.end().catch(() => undefined);
}
