/**
 * Time from process start to a healthy /api/health, before and after the bundled server (record 093):
 * `node --import tsx apps/server/src/main.ts` (how `npm start` ran before) beside
 * `node apps/server/dist/main.js` (how it runs now), on a fresh PGlite directory (initdb + migrations),
 * an existing PGlite directory, and PostgreSQL (DATABASE_URL or 127.0.0.1:5432; a migrated database).
 * Rounds are interleaved so both variants see the same machine load; prints median and best. Not a test.
 *   node --import tsx bench/startup.ts [rounds=3]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const rounds = Number(process.argv[2] ?? 3);
const variants = [
  { name: 'before: tsx src/main.ts', args: ['--import', 'tsx', 'apps/server/src/main.ts'] },
  { name: 'after: node dist/main.js', args: ['apps/server/dist/main.js'] },
] as const;
type Variant = (typeof variants)[number];

/** Starts the server, waits for 200 from /api/health, stops it; fails fast if the process dies. */
async function timeToHealthy(variant: Variant, env: Record<string, string>): Promise<number> {
  const port = String(30000 + Math.floor(Math.random() * 20000));
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...variant.args], {
    env: { ...process.env, DATABASE_URL: '', ...env, PORT: port, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  try {
    for (;;) {
      if (exitCode !== undefined)
        throw new Error(`server exited (${exitCode}) before healthy: ${stderr.trim()}`);
      if (performance.now() - started > 300_000) throw new Error('not healthy after 300 s');
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (exitCode === undefined) child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

console.info('building the server bundle…');
const built = spawnSync(process.execPath, ['apps/server/build.mjs'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const scenarios = [
  'PGlite, fresh DATA_DIR (initdb + migrations)',
  'PGlite, existing DATA_DIR',
  'PostgreSQL, migrated database',
] as const;
type Scenario = (typeof scenarios)[number];
const figures = new Map<string, number[]>();
const record = (scenario: Scenario, variant: Variant, ms: number) => {
  const key = `${scenario}|${variant.name}`;
  figures.set(key, [...(figures.get(key) ?? []), ms]);
};

// PostgreSQL: one database per variant, migrated by an untimed first start.
const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 3000 });
const databases = new Map<string, string>();
let postgresSkipped: string | null = null;
try {
  await admin.connect();
  for (const variant of variants) {
    const name = `tunedrop_bench_${Date.now()}_${databases.size}`;
    await admin.query(`create database ${name}`);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    databases.set(variant.name, url.toString());
    await timeToHealthy(variant, {
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-')),
      DATABASE_URL: url.toString(),
    });
  }
} catch (error) {
  postgresSkipped = error instanceof Error ? error.message : String(error);
}

const dirs: string[] = [];
try {
  for (let round = 1; round <= rounds; round += 1) {
    for (const variant of round % 2 ? variants : [...variants].reverse()) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-'));
      dirs.push(dataDir);
      record(scenarios[0], variant, await timeToHealthy(variant, { DATA_DIR: dataDir }));
      record(scenarios[1], variant, await timeToHealthy(variant, { DATA_DIR: dataDir }));
      const url = databases.get(variant.name);
      if (url)
        record(scenarios[2], variant, await timeToHealthy(variant, { DATA_DIR: dataDir, DATABASE_URL: url }));
    }
    console.info(`round ${round}/${rounds} done (load average ${os.loadavg()[0]?.toFixed(1)})`);
  }
} finally {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const url of databases.values()) {
    await admin
      .query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`)
      .catch(() => undefined);
  }
  await admin.end().catch(() => undefined);
}

console.info(
  `\nTime to healthy, ${rounds} interleaved rounds, ${os.cpus().length} cores, load average now ${os.loadavg()[0]?.toFixed(1)}`,
);
console.info(`${'scenario'.padEnd(46)}${variants.map((v) => v.name.padEnd(34)).join('')}`);
for (const scenario of scenarios) {
  const cells = variants.map((variant) => {
    const values = figures.get(`${scenario}|${variant.name}`);
    if (!values) return 'skipped'.padEnd(34);
    return `median ${Math.round(median(values))} ms, best ${Math.round(Math.min(...values))} ms`.padEnd(34);
  });
  console.info(`${scenario.padEnd(46)}${cells.join('')}`);
}
if (postgresSkipped) console.info(`PostgreSQL skipped: ${postgresSkipped}`);
