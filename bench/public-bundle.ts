/**
 * What the home page `/` loads: reads the prerendered home page (apps/web/dist/prerendered/index.html,
 * record 128; the shell dist/index.html when there is none), follows the static imports of the entry
 * chunk, of the chunks the page preloads and of the home route's lazy chunk (plus the CSS Vite preloads
 * with it), and prints raw and gzip sizes. Target (issue 19, record 316): JS at most 90 KB gzip. Also flags any
 * dashboard or admin chunk in that set, then the same for every prerendered page (what its HTML names and
 * their static imports, with the number of files). With --lighthouse it also tries the `lighthouse` CLI (if it is
 * on PATH) against a running server given by --url; bench/lighthouse.ts is the fuller measurement.
 * Prints figures; it is not a test.
 *   npm run build && node --import tsx bench/public-bundle.ts [--dist apps/web/dist] [--lighthouse --url http://localhost:3000/]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const JS_TARGET_KB = 90;
const distArg = process.argv.indexOf('--dist');
const distDir =
  distArg > 0 && process.argv[distArg + 1]
    ? path.resolve(process.argv[distArg + 1] ?? '')
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const shellFile = path.join(distDir, 'index.html');
const prerenderedFile = path.join(distDir, 'prerendered/index.html');
const indexFile = fs.existsSync(prerenderedFile) ? prerenderedFile : shellFile;
if (!fs.existsSync(indexFile)) {
  console.error(`No build at ${indexFile}: run 'npm run build' first.`);
  process.exit(1);
}
console.info(`reading ${path.relative(distDir, indexFile)}`);
const html = fs.readFileSync(indexFile, 'utf8');
const inlineCss = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');

const attr = (tag: string, name: string) => tag.match(new RegExp(`${name}="([^"]+)"`))?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const entryScripts = tags.filter((tag) => tag.startsWith('<script') && attr(tag, 'type') === 'module');
const preloads = tags.filter((tag) => attr(tag, 'rel') === 'modulepreload');
const stylesheets = tags.filter((tag) => attr(tag, 'rel') === 'stylesheet');

const toFile = (url: string) => path.join(distDir, url.replace(/^\//, ''));
const read = (file: string) => fs.readFileSync(file, 'utf8');

/** Chunks a chunk imports statically: `import{…}from"./x.js"` and `import"./x.js"`. */
function staticImports(file: string): string[] {
  const source = read(file);
  const found = new Set<string>();
  for (const match of source.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.\.?\/[^"'`]+\.js)["'`]/g)) {
    const target = match[1];
    if (target) found.add(path.resolve(path.dirname(file), target));
  }
  return [...found];
}

function closure(starts: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const file = queue.shift();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

const entryFiles = entryScripts.map((tag) => toFile(attr(tag, 'src') ?? ''));
const entryGraph = closure([...entryFiles, ...preloads.map((tag) => toFile(attr(tag, 'href') ?? ''))]);

// The home route is the lazy import of the home page in the router (inside the entry graph).
let homeChunk: string | undefined;
const homeCss = new Set<string>();
for (const file of entryGraph) {
  const source = read(file);
  const call = source.match(
    /import\(["'`](\.\/home-page-[^"'`]+\.js)["'`]\)(?:\s*,\s*__vite__mapDeps\(\[([\d,]*)\]\))?/,
  );
  if (!call?.[1]) continue;
  homeChunk = path.resolve(path.dirname(file), call[1]);
  // Vite preloads the CSS a lazy chunk needs through __vite__mapDeps; keep the .css ones.
  const depList = source.match(/m\.f=\[([^\]]*)\]/)?.[1];
  if (call[2] && depList) {
    const deps = [...depList.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? '');
    for (const index of call[2].split(',').map(Number)) {
      const dep = deps[index];
      if (dep?.endsWith('.css')) homeCss.add(path.join(distDir, dep));
    }
  }
  break;
}
if (!homeChunk) {
  console.error('Could not find the lazy import of the home page chunk (home-page-*.js) in the entry graph.');
  process.exit(1);
}
const homeGraph = closure([homeChunk]);
const jsFiles = [...new Set([...entryGraph, ...homeGraph])].sort();
const cssFiles = [...new Set([...stylesheets.map((tag) => toFile(attr(tag, 'href') ?? '')), ...homeCss])];

type Sized = { file: string; raw: number; gzip: number };
const size = (file: string): Sized => {
  const bytes = fs.readFileSync(file);
  return {
    file: path.relative(distDir, file),
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
  };
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (rows: Sized[], key: 'raw' | 'gzip') => rows.reduce((total, row) => total + row[key], 0);

const jsRows = jsFiles.map(size).sort((a, b) => b.gzip - a.gzip);
const cssRows = [
  ...cssFiles.map(size),
  ...inlineCss.map((css) => ({
    file: '(inlined in the HTML)',
    raw: Buffer.byteLength(css),
    gzip: gzipSync(css, { level: 9 }).length,
  })),
];
console.info('JS loaded by / (entry graph + home route chunk):');
for (const row of jsRows)
  console.info(`  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} ${kb(row.gzip).padStart(10)} gzip`);
console.info('CSS loaded by /:');
for (const row of cssRows)
  console.info(`  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} ${kb(row.gzip).padStart(10)} gzip`);
const jsGzip = sum(jsRows, 'gzip');
console.info(
  `JS total:  ${kb(sum(jsRows, 'raw'))} raw, ${kb(jsGzip)} gzip (target <= ${JS_TARGET_KB} KB gzip: ${jsGzip <= JS_TARGET_KB * 1024 ? 'met' : 'MISSED'})`,
);
console.info(`CSS total: ${kb(sum(cssRows, 'raw'))} raw, ${kb(sum(cssRows, 'gzip'))} gzip`);

// Every prerendered page (record 216): the scripts and modulepreloads its HTML names and their static
// imports, i.e. what it loads before it can hydrate. Each file is also a request (about 1 KB of headers).
const prerenderedDir = path.join(distDir, 'prerendered');
if (fs.existsSync(prerenderedDir)) {
  console.info('JS each prerendered page names (scripts, modulepreloads and their static imports):');
  for (const name of fs.readdirSync(prerenderedDir).filter((file) => file.endsWith('.html'))) {
    const pageTags =
      fs.readFileSync(path.join(prerenderedDir, name), 'utf8').match(/<(script|link)\b[^>]*>/g) ?? [];
    const named = pageTags
      .filter((tag) => attr(tag, 'type') === 'module' || attr(tag, 'rel') === 'modulepreload')
      .map((tag) => toFile(attr(tag, 'src') ?? attr(tag, 'href') ?? ''));
    const rows = [...closure(named)].map(size).sort((a, b) => b.gzip - a.gzip);
    console.info(
      `  ${name.padEnd(14)} ${kb(sum(rows, 'raw')).padStart(10)} ${kb(sum(rows, 'gzip')).padStart(10)} gzip  ${rows.length} files: ${rows.map((row) => path.basename(row.file)).join(' ')}`,
    );
  }
}

const privateCode = jsRows.filter((row) =>
  /(dashboard|admin|account|builder|royalties|analytics)/.test(row.file),
);
console.info(
  privateCode.length === 0
    ? 'No dashboard or admin chunk is loaded by /.'
    : `Dashboard or admin chunks loaded by /: ${privateCode.map((row) => row.file).join(', ')}`,
);

if (process.argv.includes('--lighthouse')) {
  const urlIndex = process.argv.indexOf('--url');
  const url = urlIndex > 0 ? process.argv[urlIndex + 1] : 'http://localhost:3000/';
  const chrome = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const result = spawnSync(
    'lighthouse',
    [
      url ?? 'http://localhost:3000/',
      '--only-categories=performance',
      '--form-factor=mobile',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ],
    { encoding: 'utf8', env: { ...process.env, CHROME_PATH: chrome }, maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error || result.status !== 0) {
    console.info(
      `Lighthouse: not run (${result.error ? result.error.message : (result.stderr || '').trim().split('\n').pop()})`,
    );
  } else {
    const report = JSON.parse(result.stdout) as {
      categories: { performance: { score: number } };
      audits: Record<string, { displayValue?: string }>;
    };
    const metric = (id: string) => report.audits[id]?.displayValue ?? '?';
    console.info(
      `Lighthouse mobile performance: ${Math.round(report.categories.performance.score * 100)} (target >= 95); FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
    );
  }
}
