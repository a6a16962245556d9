/**
 * Mixed load (issue 29, record 208): signed-in clients hitting GET /api/me, the ledger
 * (GET /api/royalties/ledger) and this month's statement as CSV and as PDF at the same time, over an account
 * with `lines` posted earnings lines, against the real app on a real HTTP port (PostgreSQL with
 * DATABASE_URL, else PGlite in memory). Each route has its own autocannon instance (in a worker thread of its
 * own, so the load generators do not share the server's event loop) and its own connections, all four
 * running together for `seconds`; before them, in the same run, /api/me alone at the same total connections
 * is the baseline. Prints per-route req/s, p50 and p99, the overall req/s and the targets (under the mixed
 * load /api/me and the ledger p99 <= 100 ms, the PDF p99 <= 400 ms). With --inline the statements are built
 * on the request's event loop as before record 208 (STATEMENT_THREADS=0), for before / after in one run.
 * Prints figures; it is not a test.
 *   node --import tsx bench/mixed-load.ts [--seconds 30] [--lines 10000] [--me 20 --ledger 20 --csv 5 --pdf 5] [--inline]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    lines: { type: 'string', default: '10000' },
    me: { type: 'string', default: '20' },
    ledger: { type: 'string', default: '20' },
    csv: { type: 'string', default: '5' },
    pdf: { type: 'string', default: '5' },
    inline: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const LINES = Number(values.lines);
const mix = {
  me: Number(values.me),
  ledger: Number(values.ledger),
  csv: Number(values.csv),
  pdf: Number(values.pdf),
};
const totalConnections = mix.me + mix.ledger + mix.csv + mix.pdf;
/** Tracks, stores and countries with co-prime counts: almost every line its own statement detail row. */
const TRACKS = 97;
const STORES = 7;
const COUNTRIES = 53;

// Loaded by path so the bench project does not type-check the server's sources again.
const load = (file: string) => import(path.resolve(import.meta.dirname, '..', file));

type Figures = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** Requests that failed or timed out (autocannon's 10 s), or answered other than 2xx. */
  failed: number;
  problems: string;
};

function figures(name: string, result: Awaited<ReturnType<typeof autocannon>>): Figures {
  const failed = result.errors + result.timeouts;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failed: failed + result.non2xx,
    problems: failed || result.non2xx ? `  (${failed} errors, ${result.non2xx} non-2xx)` : '',
  };
}

const fire = (url: string, connections: number, cookie: string) =>
  autocannon({ url, connections, duration: seconds, headers: { cookie }, workers: 1 });

async function createDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `h4_mixed_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
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

/** One release of TRACKS tracks for the artist and a report of LINES lines on them, posted this month. */
async function seedPostedLines(system: { db: import('../apps/server/src/db/client').Db }, userId: string) {
  const { postImport } = await load('apps/server/src/modules/royalty-posting/posting.ts');
  const { db } = system;
  // A release holds at most 20 tracks: TRACKS tracks over five releases.
  const releaseIds = Array.from({ length: 5 }, () => randomUUID());
  await db.execute(sql`
    insert into releases (id, user_id, title, genre, release_date, copyright_holder, publishing_holder,
                          copyright_year, publishing_year, status)
    select r.id::uuid, ${userId}, 'Mixed Load Album ' || r.n, 'Pop', '2020-01-01', 'x', 'x', 2020, 2020, 'live'
      from jsonb_array_elements_text(${JSON.stringify(releaseIds)}::jsonb) with ordinality r(id, n)`);
  await db.execute(sql`
    insert into tracks (release_id, position, title, isrc, file_key, original_file_name, file_size_bytes)
    select (${JSON.stringify(releaseIds)}::jsonb ->> ((k - 1) / 20))::uuid, (k - 1) % 20 + 1, 'Track ' || k,
           'ZZMIX' || lpad(k::text, 7, '0'), 'bench/' || k, k || '.wav', 1
      from generate_series(1, ${TRACKS}) k`);
  const importId = randomUUID();
  await db.execute(sql`
    insert into royalty_imports (id, file_name, file_sha256, format, status, phase, currency, exchange_rate,
                                 period_start, period_end, line_count, lines_total)
    values (${importId}, 'mixed-load.csv', ${randomUUID()}, 'csv', 'staged', 'ready', 'USD', '1', '2025-01-01',
            '2025-01-31', ${LINES}, ${LINES})`);
  await db.execute(sql`
    insert into royalty_import_lines
      (import_id, line_no, line_key, isrc, store, country, period, usage_type, units, amount,
       track_id, release_id, user_id)
    select ${importId}, g, 'mixed/' || g, t.isrc, 'Store ' || (g % ${STORES}), 'C' || (g % ${COUNTRIES}),
           '2025-01', 'stream', 1 + g % 500, (g % 9973) * 0.000137, t.id, t.release_id, ${userId}
      from generate_series(1, ${LINES}) g
      join tracks t on t.isrc = 'ZZMIX' || lpad((g % ${TRACKS} + 1)::text, 7, '0')`);
  await postImport(db, importId, { admin: null });
}

async function main() {
  const { serve } = await import('@hono/node-server');
  const { createApp } = await load('apps/server/src/app.ts');
  const { loadConfig } = await load('apps/server/src/config.ts');
  const { startSystem } = await load('apps/server/src/server.ts');
  const { createTestUser, signInCookie } = await load('apps/server/src/test-support/fixtures.ts');

  const dataDir = fs.mkdtempSync(path.join(process.env.BENCH_TMP ?? os.tmpdir(), 'tunedrop-bench-mixed-'));
  const benchDatabase = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'info',
    RATE_LIMITS: 'off',
    ...(values.inline ? { STATEMENT_THREADS: '0' } : {}),
    ...(benchDatabase ? { DATABASE_URL: benchDatabase.url } : {}),
  });
  const pino = (await import('pino')).default;
  const logger = pino(
    { level: 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: '/dev/null', sync: false }),
  );
  const system = await startSystem(config, logger, { runWorkers: false, isDatabaseInMemory: true });
  const server = serve({
    fetch: createApp(system).fetch,
    port: Number(process.env.PORT ?? 0),
    hostname: '127.0.0.1',
  }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const label = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)';

  try {
    const artist = await createTestUser(system, { email: `mixed-${randomUUID()}@example.com` });
    const cookie: string = await signInCookie(system, artist.email, artist.password);
    const seeded = performance.now();
    await seedPostedLines(system, artist.userId);
    const seedSeconds = (performance.now() - seeded) / 1000;
    const month = new Date().toISOString().slice(0, 7);
    const routes = {
      me: `${base}/api/me`,
      ledger: `${base}/api/royalties/ledger`,
      csv: `${base}/api/royalties/statements/${month}.csv`,
      pdf: `${base}/api/royalties/statements/${month}.pdf`,
    };
    // Each route answers once (and warms pdfkit and the fonts) before anything is timed.
    const single: Record<string, number> = {};
    for (const [name, url] of Object.entries(routes)) {
      const started = performance.now();
      const response = await fetch(url, { headers: { cookie } });
      const body = Buffer.from(await response.arrayBuffer());
      if (!response.ok) throw new Error(`${url}: ${response.status} ${body.toString()}`);
      single[name] = performance.now() - started;
      if (name === 'csv') {
        const rows = body.toString().split('\n').length;
        if (rows < LINES / 2) throw new Error(`the statement CSV has ${rows} rows for ${LINES} lines`);
      }
    }
    for (const [name, url] of Object.entries(routes)) {
      const started = performance.now();
      await (await fetch(url, { headers: { cookie } })).arrayBuffer();
      single[name] = performance.now() - started;
    }

    const load = () =>
      os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ');
    console.info(
      `${label}; ${LINES.toLocaleString('en-US')} posted lines (seeded and posted in ${seedSeconds.toFixed(1)} s); ` +
        `statements ${values.inline ? 'on the event loop (STATEMENT_THREADS=0, as before record 208)' : `in worker threads (STATEMENT_THREADS=${config.STATEMENT_THREADS ?? `unset, so ${Math.max(1, os.availableParallelism() - 1)}`})`}; ` +
        `${os.cpus().length} CPUs, load average ${load()} before`,
    );
    console.info(
      `one request alone: ${Object.entries(single)
        .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
        .join(', ')}`,
    );

    const baseline = figures(
      `GET /api/me alone (${totalConnections} conn)`,
      await fire(routes.me, totalConnections, cookie),
    );
    const started = performance.now();
    const [me, ledger, csv, pdf] = await Promise.all([
      fire(routes.me, mix.me, cookie),
      fire(routes.ledger, mix.ledger, cookie),
      fire(routes.csv, mix.csv, cookie),
      fire(routes.pdf, mix.pdf, cookie),
    ]);
    const wall = (performance.now() - started) / 1000;
    const mixed = [
      figures(`mixed: GET /api/me (${mix.me} conn)`, me),
      figures(`mixed: ledger (${mix.ledger} conn)`, ledger),
      figures(`mixed: statement CSV (${mix.csv} conn)`, csv),
      figures(`mixed: statement PDF (${mix.pdf} conn)`, pdf),
    ];
    const overallRps = mixed.reduce((sum, row) => sum + row.total, 0) / Math.min(wall, seconds + 1);
    const overallP99 = Math.max(...mixed.map((row) => row.p99));

    console.info(`\n${'route'.padEnd(40)} ${'req/s'.padStart(8)} ${'p50'.padStart(8)} ${'p99'.padStart(8)}`);
    for (const row of [baseline, ...mixed]) {
      console.info(
        `${row.name.padEnd(40)} ${Math.round(row.rps).toLocaleString('en-US').padStart(8)} ${`${row.p50} ms`.padStart(8)} ${`${row.p99} ms`.padStart(8)}${row.problems}`,
      );
    }
    console.info(
      `${'mixed: overall'.padEnd(40)} ${Math.round(overallRps).toLocaleString('en-US').padStart(8)} ${''.padStart(8)} ${`${overallP99} ms`.padStart(8)} (worst route)`,
    );
    console.info(`load average ${load()} after`);
    const [mixedMe, mixedLedger, , mixedPdf] = mixed as [Figures, Figures, Figures, Figures];
    // A route that failed requests (or answered none) misses its target whatever its p99 over the others.
    const within = (row: Figures, ms: number) => row.total > 0 && row.failed === 0 && row.p99 <= ms;
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.info('\ntargets (issue 29)');
    console.info(
      `  /api/me p99 <= 100 ms under the mixed load: ${mixedMe.p99} ms, ${verdict(within(mixedMe, 100))}`,
    );
    console.info(
      `  ledger p99 <= 100 ms under the mixed load: ${mixedLedger.p99} ms, ${verdict(within(mixedLedger, 100))}`,
    );
    console.info(
      `  PDF p99 <= 400 ms under the mixed load: ${mixedPdf.p99} ms, ${verdict(within(mixedPdf, 400))}`,
    );
    console.info(
      `  /api/me under the mixed load: ${(mixedMe.p99 / Math.max(1, baseline.p99)).toFixed(1)}x its p99 alone`,
    );
  } finally {
    server.close();
    await system.stop();
    await benchDatabase?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
