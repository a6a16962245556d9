/// <reference lib="dom" />
/**
 * The public pages in a real throttled browser (issue 29, record 209), beside a baseline build in the same
 * run: what Lighthouse simulates, measured. Debian Chromium (/usr/bin/chromium or CHROMIUM_PATH) with
 * Chromium's own network and CPU emulation at Lighthouse's mobile figures (562.5 ms request latency,
 * 1,474.56 Kbit/s down, 675 Kbit/s up, CPU 4x slower), a 412 x 823 viewport, a cold cache each run.
 * Per page: first contentful paint, largest contentful paint, when the page is hydrated (`html[data-hydrated]`,
 * set once React owns the page) and, on the form pages, when the form accepts input: its submit button is
 * enabled (it stays disabled until hydration, record 128) and a click on it runs the page's own handler,
 * and the blocking time the CPU slowdown gives: long tasks' time over 50 ms from the first paint until 5 s
 * after the load event (Lighthouse's total blocking time, measured rather than simulated; record 216).
 * Starts each build's bundled server (apps/server/dist/main.js, PGlite in a temporary DATA_DIR); runs
 * alternate between the builds. Median of N runs (default 5). Prints figures; it is not a test.
 *   node --import tsx bench/public-interactive.ts [--baseline /tmp/before] [--root .] [--runs 5]
 *     [--port 41410] [page…, default / /pricing /login /signup]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';

const argv = process.argv.slice(2);
const options = new Map<string, string>();
const pages: string[] = [];
for (let index = 0; index < argv.length; index += 1) {
  const value = argv[index] ?? '';
  if (value.startsWith('--')) {
    options.set(value.slice(2), argv[index + 1] ?? '');
    index += 1;
  } else pages.push(value);
}
if (pages.length === 0) pages.push('/', '/pricing', '/login', '/signup');
const runs = Number(options.get('runs') ?? 5);
const basePort = Number(options.get('port') ?? 41410);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const builds = [
  ...(options.get('baseline')
    ? [{ name: 'baseline', root: path.resolve(options.get('baseline') ?? '') }]
    : []),
  { name: 'this build', root: path.resolve(options.get('root') ?? path.join(import.meta.dirname, '..')) },
];
for (const build of builds) {
  for (const file of ['apps/web/dist/prerendered/index.html', 'apps/server/dist/main.js']) {
    if (!fs.existsSync(path.join(build.root, file))) {
      console.error(`${build.name}: no ${file} under ${build.root}; run 'npm run build' there first.`);
      process.exit(1);
    }
  }
}

/** Lighthouse's mobile preset, as Chromium's DevTools throttling applies it. */
const NETWORK = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

type Server = { name: string; base: string; process: ChildProcess; dataDir: string };
const servers: Server[] = builds.map((build, index) => {
  const port = basePort + index;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-interactive-'));
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
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
  return { name: build.name, base, process: child, dataDir };
});

/**
 * Records, in the page, when hydration marks the document and when the form's submit button is enabled,
 * and the long tasks (over 50 ms under the CPU slowdown). tsx compiles this file keeping function names
 * (`__name(fn, "name")` around each arrow function), so the page gets a no-op `__name` first (SHIM): without
 * it the probe stopped at its first named function and recorded neither mark (record 216).
 */
const SHIM = 'globalThis.__name = globalThis.__name || ((fn) => fn);';
const probe = () => {
  const marks: Record<string, number> = {};
  const longTasks: { start: number; duration: number }[] = [];
  (window as unknown as { __benchMarks: Record<string, number> }).__benchMarks = marks;
  (window as unknown as { __benchLongTasks: typeof longTasks }).__benchLongTasks = longTasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    if (marks.hydrated === undefined && document.documentElement.dataset.hydrated === 'true')
      marks.hydrated = performance.now();
    const submit = document.querySelector<HTMLButtonElement>('main form button[type="submit"]');
    if (marks.formReady === undefined && submit && !submit.disabled) marks.formReady = performance.now();
  };
  new MutationObserver(check).observe(document, { attributes: true, childList: true, subtree: true });
  // Also polled: cheap, and independent of when the observer's callbacks run.
  const timer = setInterval(() => {
    check();
    if (marks.hydrated !== undefined && (marks.formReady !== undefined || document.readyState === 'complete'))
      clearInterval(timer);
  }, 5);
};

type Figures = {
  fcp: number;
  lcp: number;
  hydrated: number;
  formReady: number | null;
  /** Sum of (duration - 50 ms) of the long tasks from the first paint to 5 s after the load event. */
  blocking: number;
  clickHandled: boolean;
};

/** How long after the load event the long tasks are still counted (Lighthouse waits for 5 s of quiet). */
const QUIET_MS = 5_000;

async function measure(browser: Browser, url: string): Promise<Figures> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.addInitScript({ content: SHIM });
  await page.addInitScript(probe);
  await page.goto(url, { waitUntil: 'load', timeout: 300_000 });
  await page.waitForSelector('html[data-hydrated="true"]', { timeout: 300_000 });
  const isForm = (await page.locator('main form button[type="submit"]').count()) > 0;
  if (isForm)
    await page.waitForSelector('main form button[type="submit"]:not([disabled])', { timeout: 300_000 });
  // The blocking time is read before the click below adds its own work.
  const blocking = await page.evaluate(async (quietMs) => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const windowEnd = (navigation?.loadEventEnd ?? performance.now()) + quietMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, windowEnd - performance.now())));
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const tasks = (window as unknown as { __benchLongTasks: { start: number; duration: number }[] })
      .__benchLongTasks;
    return tasks
      .filter((task) => task.start >= fcp && task.start < windowEnd)
      .reduce((total, task) => total + Math.max(0, task.duration - 50), 0);
  }, QUIET_MS);
  // A click on the empty form's submit runs the page's handler: the form's own message, no navigation.
  let clickHandled = false;
  if (isForm) {
    await page.locator('main form button[type="submit"]').first().click();
    clickHandled = await page
      .getByRole('alert')
      .first()
      .waitFor({ timeout: 60_000 })
      .then(
        () => true,
        () => false,
      );
  }
  const marks: Record<string, number | undefined> = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      ...(window as unknown as { __benchMarks: Record<string, number> }).__benchMarks,
      fcp: paint?.startTime,
    };
  });
  await context.close();
  return {
    fcp: marks.fcp ?? Number.NaN,
    lcp: marks.lcp ?? Number.NaN,
    hydrated: marks.hydrated ?? Number.NaN,
    formReady: isForm ? (marks.formReady ?? Number.NaN) : null,
    blocking,
    clickHandled,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
const ms = (value: number | null) => (value === null ? '-' : `${Math.round(value)} ms`);

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const server of servers) {
    for (let waited = 0; ; waited += 200) {
      if (waited > 300_000) throw new Error(`${server.name}: not healthy after 300 s`);
      const ok = await fetch(`${server.base}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
  console.info(
    `load average ${load()} on ${os.cpus().length} CPUs; Chromium throttled (562.5 ms latency, 1.47 Mbit/s, CPU ${CPU_SLOWDOWN}x), ${runs} run(s), median`,
  );
  const results = new Map<string, Figures[]>();
  for (let run = 0; run < runs; run += 1) {
    for (const page of pages) {
      for (const server of servers) {
        const key = `${page} ${server.name}`;
        const figures = await measure(browser, `${server.base}${page}`);
        results.set(key, [...(results.get(key) ?? []), figures]);
      }
    }
  }
  console.info(
    `\n${'page'.padEnd(9)} ${'build'.padEnd(11)} ${'FCP'.padStart(8)} ${'LCP'.padStart(8)} ${'hydrated'.padStart(9)} ${'form ready'.padStart(11)} ${'blocking'.padStart(9)}  click handled; runs of form ready (or hydrated)`,
  );
  for (const page of pages) {
    for (const server of servers) {
      const figures = results.get(`${page} ${server.name}`) ?? [];
      const formReady =
        figures[0]?.formReady === null ? null : median(figures.map((figure) => figure.formReady ?? 0));
      console.info(
        `${page.padEnd(9)} ${server.name.padEnd(11)} ${ms(median(figures.map((figure) => figure.fcp))).padStart(8)} ${ms(median(figures.map((figure) => figure.lcp))).padStart(8)} ${ms(median(figures.map((figure) => figure.hydrated))).padStart(9)} ${ms(formReady).padStart(11)} ${ms(median(figures.map((figure) => figure.blocking))).padStart(9)}  ${formReady === null ? '-' : `${figures.filter((figure) => figure.clickHandled).length}/${figures.length}`}; ${figures.map((figure) => Math.round(figure.formReady ?? figure.hydrated)).join('/')}`,
      );
    }
  }
  console.info(`load average at the end ${load()}`);
} finally {
  await browser.close();
  for (const server of servers) {
    server.process.kill('SIGTERM');
    await new Promise((resolve) => server.process.once('exit', resolve));
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
process.exit(0);
