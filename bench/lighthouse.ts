/**
 * Lighthouse (npm package, mobile preset = its default config) on the public pages of the built app,
 * in Debian Chromium (/usr/bin/chromium or CHROMIUM_PATH, headless, the e2e flags). Starts the bundled
 * server (apps/server/dist/main.js, PGlite in a temporary DATA_DIR) on a free port; builds first only
 * if a build is missing (the build writes the shared apps/web/dist: beside other work, run it under
 * `flock /tmp/tunedrop-e2e.lock`). Median of N runs per page (default 5). Prints performance, LCP, FCP,
 * accessibility, the JS bytes (transferred, gzip) and script files each page loads, and flags any
 * script whose name says dashboard or admin, plus total blocking time and speed index (what else the
 * score weighs). Prints figures; it is not a test.
 * LIGHTHOUSE_JSON_DIR=<dir> also writes each run's full report there. BENCH_BASELINE_ROOT=<dir> also
 * measures another checkout's build (e.g. the commit before, built in a scratch copy) in the same run, its
 * runs alternating with this build's, and prints both; BENCH_ROOT=<dir> measures another checkout instead
 * of this one; BENCH_PORT fixes the first server's port (the baseline's is the next one).
 *   node --import tsx bench/lighthouse.ts [runs=5] [page…, default / /pricing /login /signup]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const runs = Number(process.argv[2] ?? 5);
const pages = process.argv.length > 3 ? process.argv.slice(3) : ['/', '/pricing', '/login', '/signup'];
const root = path.resolve(process.env.BENCH_ROOT ?? path.join(import.meta.dirname, '..'));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

if (
  !fs.existsSync(path.join(root, 'apps/web/dist/index.html')) ||
  !fs.existsSync(path.join(root, 'apps/server/dist/main.js'))
) {
  console.info('no build found: npm run build…');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const firstPort = Number(process.env.BENCH_PORT ?? 30000 + Math.floor(Math.random() * 20000));
const builds = [
  { name: 'this build', root },
  ...(process.env.BENCH_BASELINE_ROOT
    ? [{ name: 'baseline', root: path.resolve(process.env.BENCH_BASELINE_ROOT) }]
    : []),
];
const servers = builds.map((build, index) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-lh-'));
  const port = firstPort + index;
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: build.root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      APP_URL: base,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { ...build, dataDir, base, process: child };
});
const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath,
  // With BENCH_PORT the browser's debugging port stays in the same range.
  ...(process.env.BENCH_PORT ? { port: firstPort + 9 } : {}),
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

type Figures = {
  performance: number;
  lcp: number;
  fcp: number;
  tbt: number;
  speedIndex: number;
  accessibility: number;
  jsGzip: number;
  scripts: string[];
};

try {
  for (const { base } of servers) {
    for (let waited = 0; ; waited += 200) {
      if (waited > 300_000) throw new Error('server not healthy after 300 s');
      const ok = await fetch(`${base}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  console.info(
    `load average ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} on ${os.cpus().length} CPUs; Lighthouse mobile preset, ${runs} run(s) per page, median`,
  );
  console.info(
    `\n${'page'.padEnd(10)} ${'perf'.padStart(5)} ${'LCP'.padStart(8)} ${'FCP'.padStart(8)} ${'TBT'.padStart(7)} ${'SI'.padStart(8)} ${'a11y'.padStart(5)} ${'JS gzip'.padStart(9)}  scripts`,
  );
  /** Lighthouse on one page of one server; null when Lighthouse reports the run as failed. */
  async function runOnce(
    base: string,
    label: string,
    page: string,
    attempt: number,
  ): Promise<Figures | null> {
    const result = await lighthouse(`${base}${page}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!result) throw new Error(`${page}: no Lighthouse result`);
    const { lhr } = result;
    const jsonDir = process.env.LIGHTHOUSE_JSON_DIR;
    if (jsonDir) {
      fs.mkdirSync(jsonDir, { recursive: true });
      const name = `${label.replace(/\W+/g, '_')}-${page.replace(/\W+/g, '_') || 'home'}-${attempt}.json`;
      fs.writeFileSync(path.join(jsonDir, name), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) {
      console.info(`${page} (${label}): run not counted, Lighthouse ${lhr.runtimeError.code}`);
      return null;
    }
    const requests = (
      (
        lhr.audits['network-requests']?.details as
          | { items?: { url: string; resourceType?: string; transferSize?: number }[] }
          | undefined
      )?.items ?? []
    ).filter((item) => item.resourceType === 'Script');
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      fcp: lhr.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
      speedIndex: lhr.audits['speed-index']?.numericValue ?? Number.NaN,
      jsGzip: requests.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
      scripts: requests.map((item) => new URL(item.url).pathname.split('/').pop() ?? item.url),
    };
  }

  const results = new Map<string, Figures>();
  for (const page of pages) {
    const figures = new Map<string, Figures[]>(servers.map((server) => [server.name, []]));
    // Runs alternate between the builds; one Lighthouse reports as failed (e.g. NO_NAVSTART on a loaded
    // machine) is retried, not counted.
    for (let attempt = 0; attempt < runs * 2; attempt += 1) {
      const pending = servers.filter((server) => (figures.get(server.name)?.length ?? 0) < runs);
      if (pending.length === 0) break;
      for (const server of pending) {
        const figure = await runOnce(server.base, server.name, page, attempt);
        if (figure) figures.get(server.name)?.push(figure);
      }
    }
    for (const server of servers) {
      const list = figures.get(server.name) ?? [];
      const row: Figures = {
        performance: median(list.map((figure) => figure.performance)),
        lcp: median(list.map((figure) => figure.lcp)),
        fcp: median(list.map((figure) => figure.fcp)),
        tbt: median(list.map((figure) => figure.tbt)),
        speedIndex: median(list.map((figure) => figure.speedIndex)),
        accessibility: median(list.map((figure) => figure.accessibility)),
        jsGzip: median(list.map((figure) => figure.jsGzip)),
        scripts: list[0]?.scripts ?? [],
      };
      if (server.name === 'this build') results.set(page, row);
      const label = servers.length > 1 ? ` (${server.name})` : '';
      console.info(
        `${page}${label}: runs perf ${list.map((figure) => figure.performance).join('/')}, LCP ${list.map((figure) => (figure.lcp / 1000).toFixed(2)).join('/')} s, TBT ${list.map((figure) => Math.round(figure.tbt)).join('/')} ms; scripts ${row.scripts.join(' ')}`,
      );
      console.info(
        `${`${page}${label}`.padEnd(10)} ${String(row.performance).padStart(5)} ${`${(row.lcp / 1000).toFixed(2)} s`.padStart(8)} ${`${(row.fcp / 1000).toFixed(2)} s`.padStart(8)} ${`${Math.round(row.tbt)} ms`.padStart(7)} ${`${(row.speedIndex / 1000).toFixed(2)} s`.padStart(8)} ${String(row.accessibility).padStart(5)} ${`${(row.jsGzip / 1024).toFixed(1)} KB`.padStart(9)}  ${row.scripts.length} files`,
      );
    }
    console.info(
      `  load average now ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
    );
  }
  console.info('\ntargets (this build)');
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const all = [...results.values()];
  const home = results.get('/');
  const staffCode = [...results.entries()].flatMap(([page, row]) =>
    row.scripts.filter((name) => /admin|dashboard/i.test(name)).map((name) => `${page}: ${name}`),
  );
  console.info(`  performance >= 98 on every page: ${verdict(all.every((row) => row.performance >= 98))}`);
  console.info(`  LCP <= 1.5 s on every page: ${verdict(all.every((row) => row.lcp <= 1500))}`);
  console.info(
    `  accessibility 100 on every page: ${verdict(all.every((row) => row.accessibility === 100))}`,
  );
  console.info(
    `  JS on / <= 90 KB gzip: ${verdict((home?.jsGzip ?? Number.POSITIVE_INFINITY) <= 90 * 1024)}`,
  );
  console.info(
    `  no dashboard/admin scripts on public pages (by file name): ${staffCode.length === 0 ? 'met' : `NOT met (${staffCode.join(', ')})`}`,
  );
} finally {
  await chrome.kill();
  for (const server of servers) {
    server.process.kill('SIGTERM');
    await new Promise((resolve) => server.process.once('exit', resolve));
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
process.exit(0);
