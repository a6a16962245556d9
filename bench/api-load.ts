/**
 * API throughput under load (issues 19, 29): a bare Node `http` route, GET /api/health, GET /api/me signed in
 * with "Remember me" (the session cookie only) and without it (the session cookie plus better-auth's
 * `dont_remember`, what a browser sends after signing in with the box clear), My Songs (GET /api/releases) and the review list (GET /api/admin/releases?tab=pending) signed in, each
 * at 50 connections for 10 s with autocannon, in one run, against the real app on a real HTTP port
 * (PGlite in memory, or PostgreSQL with DATABASE_URL). Prints req/s, p50, p99 and each route's ratio to
 * /api/health (and health's to bare). The machine is shared, so the ratios are the figures to read.
 * Prints figures; it is not a test.
 *   node --import tsx bench/api-load.ts [seconds=10] [connections=50] [releases=200]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const releaseCount = Number(process.argv[4] ?? 200);

// Loaded by path so the bench project does not type-check the server's sources again.
const load = (file: string) => import(path.resolve(import.meta.dirname, '..', file));

type Figures = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** CPU of this process (server + load generator) per request: steadier than req/s on a busy machine. */
  cpuMs: number;
  errors: number;
  non2xx: number;
};

async function hammer(name: string, url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpuMs: (cpu.user + cpu.system) / 1000 / Math.max(1, result.requests.total),
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function createDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `tunedrop_bench_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
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

async function main() {
  const { serve } = await import('@hono/node-server');
  const { createApp } = await load('apps/server/src/app.ts');
  const { loadConfig } = await load('apps/server/src/config.ts');
  const { createLogger } = await load('apps/server/src/lib/logger.ts');
  const { startSystem } = await load('apps/server/src/server.ts');
  const { createTestUser, signInCookie } = await load('apps/server/src/test-support/fixtures.ts');
  const schema = await load('apps/server/src/db/schema.ts');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-api-'));
  // A database of its own on PostgreSQL: each run generates its own app secret, which a database keeps.
  const benchDatabase = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : null;
  // The production log level: one JSON line per API request goes to stdout, sent to /dev/null here.
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'info',
    RATE_LIMITS: 'off',
    ...(benchDatabase ? { DATABASE_URL: benchDatabase.url } : {}),
  });
  const pino = (await import('pino')).default;
  const logger = pino(
    { level: 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: '/dev/null', sync: false }),
  );
  void createLogger;
  const system = await startSystem(config, logger, { runWorkers: false, isDatabaseInMemory: true });
  const server = serve({ fetch: createApp(system).fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const bare = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"status":"ok"}');
  });
  bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bare.once('listening', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const label = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)';

  try {
    const artist = await createTestUser(system, { email: `bench-artist-${randomUUID()}@example.com` });
    const moderator = await createTestUser(system, {
      roles: ['moderator'],
      email: `bench-mod-${randomUUID()}@example.com`,
    });
    const artistCookie: string = await signInCookie(system, artist.email, artist.password);
    // The sign-in form with "Remember me" left clear: better-auth adds its signed dont_remember cookie.
    const forgotten = await system.auth.api.signInEmail({
      body: { email: artist.email, password: artist.password, rememberMe: false },
      headers: new Headers({ origin: config.appUrl }),
      asResponse: true,
    });
    const dontRememberCookie = (forgotten.headers.getSetCookie() as string[])
      .map((line) => line.split(';')[0] ?? '')
      .join('; ');
    if (!dontRememberCookie.includes('dont_remember='))
      throw new Error('no dont_remember cookie after sign-in');
    const moderatorCookie: string = await signInCookie(system, moderator.email, moderator.password);
    const year = new Date().getFullYear();
    const statuses = ['pending', 'approved', 'live', 'rejected'];
    await system.db.insert(schema.releases).values(
      Array.from({ length: releaseCount }, (_unused, n) => ({
        id: randomUUID(),
        userId: artist.userId,
        title: `Bench Release ${n}`,
        primaryArtists: ['Bench Artist'],
        primaryArtistsData: [{ name: 'Bench Artist' }],
        genre: 'Pop',
        releaseDate: `${year}-12-01`,
        copyrightHolder: 'Bench Artist',
        publishingHolder: 'Bench Artist',
        copyrightYear: year,
        publishingYear: year,
        distributionStores: ['spotify'],
        status: statuses[n % statuses.length],
        createdAt: new Date(Date.UTC(2020, 0, 1) + n * 60_000),
      })),
    );
    for (const [url, cookie] of [
      ['/api/me', artistCookie],
      ['/api/me', dontRememberCookie],
      ['/api/releases?limit=20', artistCookie],
      ['/api/admin/releases?tab=pending', moderatorCookie],
    ] as const) {
      const response = await fetch(`${base}${url}`, { headers: { cookie } });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    }

    console.info(
      `load average ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')} on ${os.cpus().length} CPUs; ${label}; ${connections} connections, ${seconds} s each`,
    );
    const rows: Figures[] = [];
    rows.push(await hammer('bare Node http', bareUrl));
    rows.push(await hammer('GET /api/health', `${base}/api/health`));
    rows.push(await hammer('GET /api/me (Remember me)', `${base}/api/me`, { cookie: artistCookie }));
    rows.push(await hammer('GET /api/me (no Remember me)', `${base}/api/me`, { cookie: dontRememberCookie }));
    rows.push(
      await hammer('GET /api/releases (My Songs)', `${base}/api/releases?limit=20`, { cookie: artistCookie }),
    );
    rows.push(
      await hammer('GET /api/admin/releases (review)', `${base}/api/admin/releases?tab=pending`, {
        cookie: moderatorCookie,
      }),
    );
    const [bareRow, health] = rows as [Figures, Figures];
    console.info(
      `\n${'route'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'CPU/req'.padStart(9)}  ratio`,
    );
    for (const row of rows) {
      const ratio =
        row === bareRow
          ? ''
          : row === health
            ? `${((row.rps / bareRow.rps) * 100).toFixed(0)}% of bare`
            : `${((row.rps / health.rps) * 100).toFixed(0)}% of /api/health`;
      const problems = row.errors || row.non2xx ? `  (${row.errors} errors, ${row.non2xx} non-2xx)` : '';
      console.info(
        `${row.name.padEnd(34)} ${Math.round(row.rps).toLocaleString('en-US').padStart(8)} ${`${row.p50} ms`.padStart(7)} ${`${row.p99} ms`.padStart(7)} ${`${row.cpuMs.toFixed(2)} ms`.padStart(9)}  ${ratio}${problems}`,
      );
    }
    const [, , me, meDontRemember, mySongs, review] = rows as [
      Figures,
      Figures,
      Figures,
      Figures,
      Figures,
      Figures,
    ];
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.info('\ntargets');
    console.info(
      `  /api/health >= 40% of bare, p99 <= 25 ms: ${verdict(health.rps >= 0.4 * bareRow.rps && health.p99 <= 25)}`,
    );
    console.info(
      `  /api/me without Remember me >= 0.9x with it: ${(meDontRemember.rps / me.rps).toFixed(2)}x, ${verdict(meDontRemember.rps >= 0.9 * me.rps)}`,
    );
    console.info(
      `  /api/me >= 50% of health, p99 < 25 ms: ${verdict(me.rps >= 0.5 * health.rps && me.p99 < 25)}`,
    );
    for (const row of [mySongs, review]) {
      console.info(
        `  ${row.name} >= 30% of health, p99 < 50 ms: ${verdict(row.rps >= 0.3 * health.rps && row.p99 < 50)}`,
      );
    }
  } finally {
    bare.close();
    server.close();
    await system.stop();
    await benchDatabase?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
