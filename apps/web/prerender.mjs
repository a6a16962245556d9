/**
 * Prerenders the public pages to static HTML after `vite build` (record 128). Runs the server bundle of
 * src/entry-server.tsx (built by `vite build --ssr` into node_modules/.prerender) and writes, for each
 * page, the built dist/index.html with the page's markup in #root, its title and description, the CSS
 * inlined (no render-blocking stylesheet request), and the public pages' own entry (src/public-main.tsx,
 * built by `vite build -c vite.public.config.ts`, record 209) in place of the app's, with modulepreload
 * links for the page's chunks, every script at low fetch priority.
 * Output: dist/prerendered/<name>.html, which the server sends for that path (apps/server/src/lib/web-app.ts);
 * dist/index.html stays the empty shell of every other page. main.tsx hydrates the markup.
 *   node prerender.mjs [distDir=dist]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const webDir = import.meta.dirname;
const distDir = path.resolve(process.argv[2] ?? path.join(webDir, 'dist'));
// The public pages' bundle (vite.public.config.ts): its entry and the page modules' chunks.
const manifestFile = path.join(distDir, '.vite/public-manifest.json');
const serverEntry = path.join(webDir, 'node_modules/.prerender/entry-server.js');

/**
 * Path, output name, the route module whose chunk the page needs before hydrating, and the other modules
 * public-main.tsx loads for it (the app's providers for the form pages), all preloaded. vite.public.config.ts
 * puts the providers in the form pages' shared chunk (`group`, record 216), which has no manifest key per
 * module: the page's chunks must then include that chunk.
 */
const pages = [
  { path: '/', name: 'index', module: 'src/features/site/routes/home-page.tsx' },
  { path: '/pricing', name: 'pricing', module: 'src/features/site/routes/pricing-page.tsx' },
  { path: '/terms', name: 'terms', module: 'src/features/site/routes/terms-page.tsx' },
  { path: '/privacy', name: 'privacy', module: 'src/features/site/routes/privacy-page.tsx' },
  {
    path: '/login',
    name: 'login',
    module: 'src/features/auth/routes/login-page.tsx',
    also: [{ module: 'src/app/providers.tsx', group: 'public-forms' }],
  },
  {
    path: '/signup',
    name: 'signup',
    module: 'src/features/auth/routes/signup-page.tsx',
    also: [{ module: 'src/app/providers.tsx', group: 'public-forms' }],
  },
];

const escapeHtml = (text) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const template = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
/** @type {Record<string, { file: string; imports?: string[]; isEntry?: boolean }>} */
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));

/** Chunk keys reachable through static imports from `start`. */
function closure(start) {
  const seen = new Set();
  const queue = [start];
  while (queue.length > 0) {
    const key = queue.shift();
    if (!key || seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    queue.push(...(manifest[key].imports ?? []));
  }
  return seen;
}
const entryKey = 'src/public-main.tsx';
if (!manifest[entryKey]?.isEntry) throw new Error('prerender: no public-main entry in the public manifest');
const inEntry = closure(entryKey);
const preloadOf = (key) => `<link rel="modulepreload" crossorigin href="/${manifest[key]?.file}">`;

// Inline the stylesheet: the page paints without waiting for a second request.
const stylesheet = template.match(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/);
if (!stylesheet?.[1]) throw new Error('prerender: no stylesheet link in dist/index.html');
const css = fs.readFileSync(path.join(distDir, stylesheet[1]), 'utf8');
if (css.includes('</style')) throw new Error('prerender: the CSS cannot be inlined');

const entryScript = template.match(/<script type="module"[^>]*><\/script>/);
if (!entryScript) throw new Error('prerender: no module script in dist/index.html');
// The app's entry and its preloads make way for the public entry and its own.
const publicEntry = `<script type="module" crossorigin src="/${manifest[entryKey].file}"></script>`;
const entryPreloads = [...inEntry].filter((key) => key !== entryKey).map(preloadOf);
const shell = template
  .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
  .replace(entryScript[0], () => [publicEntry, ...entryPreloads].join('\n    '));

const { render } = await import(pathToFileURL(serverEntry).href);
fs.rmSync(path.join(distDir, 'prerendered'), { recursive: true, force: true });
fs.mkdirSync(path.join(distDir, 'prerendered'));

for (const page of pages) {
  if (!manifest[page.module]) throw new Error(`prerender: ${page.module} is not in the Vite manifest`);
  const { html, title, description } = await render(page.path);
  if (!html.includes('<main')) throw new Error(`prerender: ${page.path} rendered no <main>`);
  const pageChunks = closure(page.module);
  const alsoKeys = [];
  for (const { module, group } of page.also ?? []) {
    if (manifest[module]) alsoKeys.push(module);
    else if (![...pageChunks].some((key) => manifest[key]?.name === group && !manifest[key]?.src))
      throw new Error(
        `prerender: ${module} is neither in the Vite manifest nor in ${page.path}'s ${group} chunk`,
      );
  }
  const preloads = [...new Set([page.module, ...alsoKeys].flatMap((key) => [...closure(key)]))]
    .filter((key) => !inEntry.has(key))
    .map(preloadOf)
    .join('\n    ');
  // The page's route module as an async module script: fetched at once and run in its own task (not in
  // the entry's, which made one long task of both), and the load event waits for it, so main.tsx's
  // import() of it resolves and hydration starts before the load event rather than a network trip later.
  const routeScript = `<script type="module" async crossorigin src="/${manifest[page.module]?.file}"></script>`;
  let document = shell
    .replace(publicEntry, () => `${routeScript}\n    ${publicEntry}`)
    .replace(stylesheet[0], () => `<style>${css}</style>\n    ${preloads}`)
    .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`)
    // The markup is the page: its scripts load at low priority, after anything the first paint needs
    // (Lighthouse's simulation otherwise counts every high-priority script requested before the first
    // paint as blocking it; the sign-in page's 190 KB put its simulated FCP at 2.3 s).
    .replaceAll('<script type="module" ', '<script type="module" fetchpriority="low" ')
    .replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
  if (title)
    document = document.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
  if (description) {
    document = document.replace(
      /<meta name="description" content="[^"]*"/,
      () => `<meta name="description" content="${escapeHtml(description)}"`,
    );
  }
  fs.writeFileSync(path.join(distDir, 'prerendered', `${page.name}.html`), document);
}
// The manifests were only for this script; the server would otherwise serve them.
fs.rmSync(path.join(distDir, '.vite'), { recursive: true, force: true });
console.info(`prerendered ${pages.map((page) => page.path).join(' ')}`);
// The app's modules keep handles open (BroadcastChannel, query timers); nothing else to wait for.
process.exit(0);
