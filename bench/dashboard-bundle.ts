/**
 * The first signed-in load of the dashboard (issue 29): for /dashboard, /dashboard/songs and /admin/releases,
 * loaded cold in Chromium with the network slowed to a fixed round trip, prints the JS the page loads
 * (decoded bytes and gzip -9 of each file) and the sequential round trips before the page shows its data:
 * each request's depth is 1 + the deepest request that had finished before it started (the document is 1),
 * and the page's data shows once its marker is on screen; the chain of requests that led there is printed.
 * Compares two builds in the same run: --baseline <dist> (e.g. a build of the commit before) beside
 * --dist <dist> (default apps/web/dist). Each build is served by a small static server (gzip, the shell for
 * every page) that proxies /api to one API server (apps/server/dist/main-e2e.js, PGlite in a temp
 * DATA_DIR, test fixtures to seed the users). Targets: JS <= 150 KB gzip, <= 2 round trips after the document
 * before the data shows. Prints figures; it is not a test.
 *   npx vite build --outDir /tmp/before (at the old commit, in apps/web)
 *   node apps/server/build.mjs   (the server bundle, if missing)
 *   node --import tsx bench/dashboard-bundle.ts [--baseline /tmp/before] [--dist apps/web/dist] [--port 41500]
 *     [--runs 3] [--rtt 100] [--list (each JS file)] [--only /dashboard]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name: string, fallback?: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const distDir = path.resolve(arg('dist', path.join(root, 'apps/web/dist')) ?? '');
const baselineArg = arg('baseline');
const baselineDir = baselineArg ? path.resolve(baselineArg) : undefined;
const basePort = Number(arg('port', '41500'));
const runs = Number(arg('runs', '3'));
const rttMs = Number(arg('rtt', '100'));
const JS_TARGET_KB = 150;
const ROUND_TRIP_TARGET = 2;

for (const dir of [distDir, baselineDir]) {
  if (dir && !fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`No build at ${dir}: run 'npm run build -w apps/web' (or vite build --outDir) first.`);
    process.exit(1);
  }
}

// --- API server -------------------------------------------------------------------------------------
const apiPort = basePort;
const apiBase = `http://127.0.0.1:${apiPort}`;
const fixturesToken = `bench-${Math.random().toString(36).slice(2)}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-dashboard-'));
// The bundled e2e server (production server + test fixtures, record 093): starts in seconds, unlike tsx.
const serverFile = path.resolve(arg('server', path.join(root, 'apps/server/dist/main-e2e.js')) ?? '');
if (!fs.existsSync(serverFile)) {
  console.error(`No server bundle at ${serverFile}: run 'node apps/server/build.mjs' first.`);
  process.exit(1);
}
const api: ChildProcess = spawn(process.execPath, [serverFile], {
  cwd: root,
  env: {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    PORT: String(apiPort),
    APP_URL: apiBase,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    E2E_FIXTURES_TOKEN: fixturesToken,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function fixture<T>(pathName: string, body: unknown): Promise<T> {
  const response = await fetch(`${apiBase}/api/test-fixtures${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fixtures-token': fixturesToken },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fixture ${pathName}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

// --- Static servers (one per build), /api proxied ----------------------------------------------------
function serveBuild(dir: string, port: number): http.Server {
  const shell = fs.readFileSync(path.join(dir, 'index.html'));
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (url.startsWith('/api/')) {
      // Piped both ways, so live-update streams flow and close with the page (the server caps them).
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: apiPort,
          path: url,
          method: request.method,
          headers: { ...request.headers, host: `127.0.0.1:${apiPort}` },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      response.on('close', () => upstream.destroy());
      request.pipe(upstream);
      return;
    }
    const pathname = decodeURIComponent(url.split('?')[0] ?? '/');
    const file = path.join(dir, pathname);
    const isAsset = pathname.startsWith('/assets/') && file.startsWith(dir) && fs.existsSync(file);
    const body = isAsset ? fs.readFileSync(file) : shell;
    const type = !isAsset
      ? 'text/html'
      : file.endsWith('.js')
        ? 'text/javascript'
        : file.endsWith('.css')
          ? 'text/css'
          : 'application/octet-stream';
    const isGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    response.writeHead(200, {
      'content-type': type,
      ...(isGzip ? { 'content-encoding': 'gzip' } : {}),
      'cache-control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    response.end(isGzip ? gzipSync(body) : body);
  });
  server.listen(port, '127.0.0.1');
  return server;
}

// --- One measured load -------------------------------------------------------------------------------
type Journey = {
  name: string;
  path: string;
  who: 'artist' | 'admin';
  /** The API request whose answer the marker shows. */
  data: RegExp;
  shows: (page: Page) => Promise<void>;
};
type Request = { url: string; type: string; start: number; end: number; depth: number; after?: Request };
type Load = { jsFiles: string[]; roundTrips: number; chain: string[]; dataShownMs: number };

async function measure(browser: Browser, origin: string, cookie: string, journey: Journey): Promise<Load> {
  const context = await browser.newContext({ baseURL: origin });
  const host = new URL(origin).hostname;
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const index = pair.indexOf('=');
      return { name: pair.slice(0, index), value: pair.slice(index + 1), domain: host, path: '/' };
    }),
  );
  const page = await context.newPage();
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type()))
      console.info(`             console ${message.type()}: ${message.text().slice(0, 160)}`);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // A fixed round trip makes each sequential request visible; no bandwidth limit (bytes are counted apart).
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: rttMs,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const started = new Map<string, { url: string; type: string; start: number }>();
  const done: Request[] = [];
  let wallMinusMonotonic: number | undefined;
  cdp.on('Network.requestWillBeSent', (event) => {
    wallMinusMonotonic ??= event.wallTime - event.timestamp;
    // What can hold the page back: the document, scripts and API reads (not icons or images).
    if (!['Document', 'Script', 'Fetch', 'XHR'].includes(event.type ?? '')) return;
    started.set(event.requestId, { url: event.request.url, type: event.type ?? '', start: event.timestamp });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = started.get(event.requestId);
    if (request) done.push({ ...request, end: event.timestamp, depth: 0 });
  });
  const navigationStart = Date.now();
  await page.goto(journey.path, { waitUntil: 'commit' });
  await journey.shows(page);
  const shownWall = Date.now();
  const dataShownMs = shownWall - navigationStart;
  // Requests that finished before the data showed (CDP timestamps are seconds on a monotonic clock).
  const shownAt = shownWall / 1000 - (wallMinusMonotonic ?? 0);
  const requests = done.filter((request) => request.end <= shownAt).sort((a, b) => a.start - b.start);
  for (const request of requests) {
    let best: Request | undefined;
    for (const other of requests)
      if (other !== request && other.end <= request.start && (!best || other.depth > best.depth))
        best = other;
    request.depth = (best?.depth ?? 0) + 1;
    request.after = best;
  }
  // The chain that ends with the page's data request (the first answer; a refetch on mount may follow it).
  const deepest = requests
    .filter((request) => journey.data.test(new URL(request.url).pathname))
    .sort((a, b) => a.end - b.end)[0];
  if (!deepest) throw new Error(`${journey.name}: no request for ${journey.data} before the data showed`);
  const chain: string[] = [];
  for (let step: Request | undefined = deepest; step; step = step.after)
    chain.unshift(new URL(step.url).pathname.replace(/-[\w-]{8}\.js$/, '.js'));
  // The JS of the first load: everything fetched until the page settles (lazy parts it loads by itself too).
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const jsFiles = [
    ...new Set(
      done.filter((request) => request.url.endsWith('.js')).map((request) => new URL(request.url).pathname),
    ),
  ];
  await context.close();
  return { jsFiles, roundTrips: deepest.depth - 1, chain, dataShownMs };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
function jsBytes(dir: string, files: string[]): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(dir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

const servers: http.Server[] = [];
let browser: Browser | undefined;
try {
  for (let waited = 0; ; waited += 250) {
    if (waited > 120_000) throw new Error('the API server did not start');
    const ok = await fetch(`${apiBase}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  type Seeded = { userId: string; cookie: string };
  const artist = await fixture<Seeded>('/users', { plan: 'pro', subscription: 'active' });
  await fixture('/releases', { userId: artist.userId, title: 'Bench Moonrise', status: 'pending' });
  const admin = await fixture<Seeded>('/users', { roles: ['admin'] });
  const cookies = { artist: artist.cookie, admin: admin.cookie };

  const journeys: Journey[] = [
    {
      name: '/dashboard',
      path: '/dashboard',
      who: 'artist',
      data: /^\/api\/me\/stats$/,
      shows: (page) =>
        page.getByTestId('total-releases').filter({ hasText: /^\d+$/ }).waitFor({ timeout: 60_000 }),
    },
    {
      name: '/dashboard/songs',
      path: '/dashboard/songs',
      who: 'artist',
      data: /^\/api\/releases$/,
      shows: (page) => page.getByText('Bench Moonrise').first().waitFor({ timeout: 60_000 }),
    },
    {
      name: '/admin/releases',
      path: '/admin/releases',
      who: 'admin',
      data: /^\/api\/admin\/releases$/,
      shows: (page) => page.getByText('Bench Moonrise').first().waitFor({ timeout: 60_000 }),
    },
  ];
  const builds = [
    ...(baselineDir ? [{ label: 'before', dir: baselineDir }] : []),
    { label: baselineDir ? 'after' : 'this build', dir: distDir },
  ].map((build, index) => {
    const port = basePort + 1 + index;
    servers.push(serveBuild(build.dir, port));
    return { ...build, origin: `http://127.0.0.1:${port}` };
  });

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  console.info(
    `load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores; ` +
      `round trip emulated at ${rttMs} ms; median of ${runs} cold loads`,
  );
  const only = arg('only');
  for (const journey of journeys.filter((entry) => !only || entry.name === only)) {
    console.info(`\n${journey.name}`);
    for (const build of builds) {
      const loads: Load[] = [];
      // Alternating order is not needed: each load is a fresh context (cold cache).
      for (let run = 0; run < runs; run += 1)
        loads.push(await measure(browser, build.origin, cookies[journey.who], journey));
      const first = loads[0] as Load;
      const bytes = jsBytes(build.dir, first.jsFiles);
      const trips = median(loads.map((load) => load.roundTrips));
      const chainLoad = loads.find((load) => load.roundTrips === trips) ?? first;
      console.info(
        `  ${build.label.padEnd(10)} JS ${String(first.jsFiles.length).padStart(3)} files ${kb(bytes.raw).padStart(9)} decoded ` +
          `${kb(bytes.gzip).padStart(9)} gzip (target <= ${JS_TARGET_KB}: ${bytes.gzip <= JS_TARGET_KB * 1024 ? 'met' : 'MISSED'}); ` +
          `round trips after the document ${trips} (target <= ${ROUND_TRIP_TARGET}: ${trips <= ROUND_TRIP_TARGET ? 'met' : 'MISSED'}); ` +
          `data shown ${median(loads.map((load) => load.dataShownMs))} ms`,
      );
      console.info(`             chain: ${chainLoad.chain.join(' -> ')}`);
      if (process.argv.includes('--list'))
        for (const file of first.jsFiles
          .map((name) => ({ name, ...jsBytes(build.dir, [name]) }))
          .sort((a, b) => b.gzip - a.gzip))
          console.info(
            `             ${file.name.padEnd(48)} ${kb(file.raw).padStart(9)} ${kb(file.gzip).padStart(9)} gzip`,
          );
    }
  }
} finally {
  await browser?.close();
  for (const server of servers) server.close();
  api.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
