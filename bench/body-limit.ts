/**
 * Oversized anonymous request bodies on every API route (issue 22, finding 2): for each row of the route
 * table (apps/server/src/test-support/route-table.ts), N anonymous bodies of S MiB at once, half with a
 * Content-Length and half chunked, against the real server (a child process on PGlite). Each client stops
 * writing as soon as it is answered. Prints, per route class (access rule × body-limit kind), the answers'
 * statuses, the slowest answer, how many bytes left a client before it was answered, /api/health while the
 * bodies arrived, and the server's RSS growth; then the figures measured on main before the fix. Not a test.
 *   node --import tsx bench/body-limit.ts [--bodies 16] [--size-mib 300] [--port 33100] [--only PREFIX]
 * Targets: every body answered within 1 s; the server's RSS growth under 50 MB.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROUTE_TABLE, type RouteRow } from '../apps/server/src/test-support/route-table';

const { values } = parseArgs({
  options: {
    bodies: { type: 'string', default: '16' },
    'size-mib': { type: 'string', default: '300' },
    port: { type: 'string', default: '33100' },
    only: { type: 'string' },
    'timeout-s': { type: 'string', default: '60' },
  },
});
const MiB = 1024 * 1024;
const BODIES = Number(values.bodies);
const SIZE = Number(values['size-mib']) * MiB;
const PORT = Number(values.port);
const TIMEOUT_MS = Number(values['timeout-s']) * 1000;

/**
 * The same bench on main at 3cb30be (before record 145), 16 × 300 MiB, PGlite, 2 cores shared, load 0.2.
 * RSS growth there is the peak over the server's RSS at the start (the memory stayed).
 */
const BASELINE = `baseline: main at 3cb30be, before the fix (same bench, same machine):
class (rule, body)             routes  statuses              slowest  sent before answer   health RSS growth
admin      file (report)            1  401                   36.73 s            ≤ 300 MB    78 ms    5364 MB
admin      json 16 MB               2  413                    0.53 s             ≤ 22 MB    72 ms     171 MB
admin      json default            17  0,401,413             24.64 s            ≤ 300 MB   543 ms    5356 MB
admin      no body expected        19  0,401,413             43.18 s            ≤ 300 MB   100 ms    5364 MB
moderator, public, subscriber, user: statuses 0,200,401,403,404,413, slowest 0.11 s, ≤ 7 MB sent
all 118 routes, 1888 bodies: slowest answer 43.18 s, peak RSS growth 5364 MB, RSS 619 MB before and
4717 MB after; 311 bodies closed by the server before the answer was read. The four routes under
/api/admin/royalties/imports had no body limit and the control-character check read their whole
anonymous JSON bodies before access was checked.`;

type Answer = { status: number; ms: number; bytesSent: number; error?: string };

function rssBytes(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function waitHealthy(base: string) {
  const started = Date.now();
  for (;;) {
    if (Date.now() - started > 180_000) throw new Error('the server was not healthy after 180 s');
    const ok = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The concrete path to call for a route row: its `call` path, or its pattern with random ids. */
function concretePath(row: RouteRow): string {
  if (row.call?.path) return row.call.path;
  return row.path
    .replace(/\/:[A-Za-z]+\?/g, '')
    .replace(/:([A-Za-z]+)/g, (_match, name: string) => (name === 'size' ? 'small' : randomUUID()))
    .replace(/\*$/, 'anything');
}

const CHUNK = Buffer.alloc(MiB, 'a');
const FIRST = Buffer.from(`{"name":"${'a'.repeat(MiB - 9)}`);

/** Sends up to SIZE bytes, stopping as soon as the server answers; resolves with status, time and bytes sent. */
function sendBody(method: string, urlPath: string, origin: string, isChunked: boolean): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let bytesSent = 0;
    let isAnswered = false;
    const request = http.request({
      host: '127.0.0.1',
      port: PORT,
      path: urlPath,
      method,
      agent: false,
      headers: {
        'content-type': 'application/json',
        origin,
        ...(isChunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(SIZE) }),
      },
    });
    const finish = (status: number, error?: string) => {
      if (isAnswered) return;
      isAnswered = true;
      clearTimeout(timer);
      resolve({ status, ms: performance.now() - started, bytesSent, ...(error ? { error } : {}) });
      request.destroy();
    };
    const timer = setTimeout(() => finish(-1), TIMEOUT_MS);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      response.on('end', () => finish(status));
      response.on('error', () => finish(status));
      response.on('close', () => finish(status));
    });
    request.on('error', (error: NodeJS.ErrnoException) => finish(0, error.code ?? error.message));
    const write = () => {
      while (!isAnswered && bytesSent < SIZE) {
        const part = bytesSent === 0 ? FIRST : CHUNK;
        bytesSent += part.length;
        if (!request.write(part)) {
          request.once('drain', write);
          return;
        }
      }
      if (!isAnswered) request.end();
    };
    write();
  });
}

async function healthMs(base: string): Promise<number> {
  const started = performance.now();
  await fetch(`${base}/api/health`).catch(() => null);
  return performance.now() - started;
}

/** The body-limit kind of a route, for grouping: file routes stream to disk, the rest are JSON. */
function limitKind(row: RouteRow): string {
  if (row.path.startsWith('/api/uploads')) return 'file (tus)';
  if (row.method === 'POST' && row.path === '/api/admin/royalties/imports') return 'file (report)';
  if (row.path.startsWith('/api/admin/balances/verify') || row.path.startsWith('/api/admin/balances/apply')) {
    return 'json 16 MB';
  }
  return ['GET', 'HEAD', 'DELETE'].includes(row.method) ? 'no body expected' : 'json default';
}

/** `growth`: the server's peak RSS while this route's bodies arrived, over its RSS just before them. */
type RouteResult = { row: RouteRow; answers: Answer[]; healthMs: number; peakRss: number; growth: number };

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'h2-bench-body-'));
const base = `http://127.0.0.1:${PORT}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: path.join(work, 'data'),
  PORT: String(PORT),
  APP_URL: base,
  LOG_LEVEL: 'warn',
  RATE_LIMITS: 'off',
};
delete env.DATABASE_URL;
delete env.BODY_LIMIT_BYTES;

// The test-fixture routes are mounted only in end-to-end runs; every other row is called.
const rows = ROUTE_TABLE.filter(
  (row) => !row.path.startsWith('/api/test-fixtures') && (!values.only || row.path.startsWith(values.only)),
);

console.info(
  `${BODIES} anonymous bodies of ${SIZE / MiB} MiB at once (half Content-Length, half chunked) to each of ${rows.length} routes; ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
);

let child: ChildProcess | null = null;
const results: RouteResult[] = [];
let startRss = 0;
let endRss = 0;
try {
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { env, stdio: 'ignore' });
  await waitHealthy(base);
  for (let index = 0; index < 5; index += 1) await healthMs(base);
  const pid = child.pid as number;
  startRss = rssBytes(pid);
  for (const row of rows) {
    const method = row.call?.method ?? (row.method === 'ALL' ? 'POST' : row.method);
    const urlPath = concretePath(row);
    const before = rssBytes(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid));
    }, 20);
    const flood = Promise.all(
      Array.from({ length: BODIES }, (_, index) => sendBody(method, urlPath, base, index % 2 === 1)),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const health = await healthMs(base);
    const answers = await flood;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));
    results.push({ row, answers, healthMs: health, peakRss: peak, growth: peak - before });
    const slowest = Math.max(...answers.map((answer) => answer.ms));
    if (slowest > 1000 || peak - before > 50 * MiB) {
      console.info(
        `  slow or heavy: ${method} ${row.path}: slowest ${(slowest / 1000).toFixed(2)} s, RSS +${((peak - before) / MiB).toFixed(0)} MB, statuses ${[...new Set(answers.map((answer) => answer.status))].join(',')}`,
      );
    }
  }
  // Give the server a moment to settle, then see whether the memory stayed.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  endRss = rssBytes(pid);
} finally {
  if (child) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child?.once('exit', resolve));
  }
  fs.rmSync(work, { recursive: true, force: true });
}

const classes = new Map<string, RouteResult[]>();
for (const result of results) {
  const key = `${result.row.rule.padEnd(10)} ${limitKind(result.row)}`;
  classes.set(key, [...(classes.get(key) ?? []), result]);
}
const fmtS = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const fmtMb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
console.info(
  `\n${'class (rule, body)'.padEnd(30)} ${'routes'.padStart(6)}  ${'statuses'.padEnd(20)} ${'slowest'.padStart(8)} ${'sent before answer'.padStart(19)} ${'health'.padStart(8)} ${'RSS growth'.padStart(10)}`,
);
for (const [key, group] of [...classes].sort(([a], [b]) => a.localeCompare(b))) {
  const answers = group.flatMap((result) => result.answers);
  const statuses = [...new Set(answers.map((answer) => answer.status))].sort().join(',');
  console.info(
    `${key.padEnd(30)} ${String(group.length).padStart(6)}  ${statuses.padEnd(20)} ${fmtS(Math.max(...answers.map((answer) => answer.ms))).padStart(8)} ${`≤ ${fmtMb(Math.max(...answers.map((answer) => answer.bytesSent)))}`.padStart(19)} ${`${Math.max(...group.map((result) => result.healthMs)).toFixed(0)} ms`.padStart(8)} ${fmtMb(Math.max(...group.map((result) => result.growth))).padStart(10)}`,
  );
}
const all = results.flatMap((result) => result.answers);
const slowestAll = Math.max(...all.map((answer) => answer.ms));
const peakAll = Math.max(...results.map((result) => result.peakRss)) - startRss;
const growthAll = Math.max(...results.map((result) => result.growth));
console.info(
  `\nall ${results.length} routes, ${all.length} bodies: slowest answer ${fmtS(slowestAll)} (target < 1 s), largest RSS growth during one route ${fmtMb(growthAll)} (target < 50 MB), peak over the start ${fmtMb(peakAll)}, RSS ${fmtMb(startRss)} before, ${fmtMb(endRss)} after; closed by the server before its answer was read (status 0): ${all.filter((answer) => answer.status === 0).length} (${[...new Set(all.flatMap((answer) => (answer.error ? [answer.error] : [])))].join(', ')}), no answer within the timeout: ${all.filter((answer) => answer.status < 0).length}`,
);
console.info(`\n${BASELINE}`);
