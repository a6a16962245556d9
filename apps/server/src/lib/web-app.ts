/**
 * The built web app (apps/web/dist), mounted after the API routes: gzip-compressed responses,
 * fingerprinted assets cached for a year, the prerendered public pages (records 128, 315) for their own
 * paths, other files as they are, and the empty shell (index.html) for every other path, where the
 * client router takes over; a missing file (`/assets/*`, or a path ending in a file extension) is a 404. Pages and the shell are `no-cache`, so a new build shows at once.
 * With the operator's brand saved (issue 27, record 327), each page carries it in a `<meta name="site-brand">`
 * and the accent colour as CSS variables, and the prerendered pages are rendered again with it through the
 * build's prerender bundle (once per brand and instance, then kept): the markup stays the page, with no
 * extra script. Without a saved brand the files go out exactly as built.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { isSiteBrandDefault, type SiteBrand } from '@tunedrop/shared/schemas/brand';
import type { Hono, MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import type { DbOrTx } from '../db/client';
import { globalMiddleware } from './access';
import { withProductName } from './brand-name';
import type { AppEnv } from './context';

/** dist/prerendered/<name>.html → its path: `index` is `/`, `pricing` is `/pricing`. */
export function readPrerenderedPages(distDir: string): Map<string, string> {
  const pages = new Map<string, string>();
  const folder = path.join(distDir, 'prerendered');
  if (!fs.existsSync(folder)) return pages;
  for (const file of fs.readdirSync(folder)) {
    if (!file.endsWith('.html')) continue;
    const name = file.slice(0, -'.html'.length);
    pages.set(name === 'index' ? '/' : `/${name}`, fs.readFileSync(path.join(folder, file), 'utf8'));
  }
  return pages;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The brand's accent as the web app's `--color-brand-*` shades (index.css's @theme), mixed in the browser. */
export function accentStyle(accent: string): string {
  const mix = (percent: number, toward: 'white' | 'black') =>
    `color-mix(in oklab, ${accent} ${percent}%, ${toward})`;
  return (
    `<style>:root{--color-brand-300:${mix(45, 'white')};--color-brand-400:${mix(65, 'white')};` +
    `--color-brand-500:${mix(85, 'white')};--color-brand-600:${accent};--color-brand-700:${mix(80, 'black')}}</style>`
  );
}

/** `html` (a page or the shell) with the brand's meta tag, accent and product name in its head. */
export function withBrandHead(html: string, brand: SiteBrand): string {
  const head = `<meta name="site-brand" content="${escapeHtml(JSON.stringify(brand))}">${accentStyle(brand.accentColor)}`;
  const end = html.indexOf('</head>');
  const branded = end === -1 ? `${head}${html}` : `${html.slice(0, end)}${head}${html.slice(end)}`;
  // The shell's title and description name the built-in product until the page sets its own.
  return branded.replace(/<title>[^<]*<\/title>|<meta name="description" content="[^"]*"/g, (tag) =>
    withProductName(tag, escapeHtml(brand.productName)),
  );
}

type PrerenderModule = {
  render(pathname: string, brand: SiteBrand): Promise<{ html: string; title?: string; description?: string }>;
};

/** `page` (a prerendered file) with the markup, title and description rendered for `brand`. */
export function withRenderedMarkup(
  page: string,
  rendered: { html: string; title?: string; description?: string },
): string | null {
  const start = page.indexOf('<div id="root">');
  const bodyEnd = page.lastIndexOf('</body>');
  const end = page.lastIndexOf('</div>', bodyEnd === -1 ? undefined : bodyEnd);
  if (start === -1 || end === -1 || end < start) return null;
  let html = `${page.slice(0, start)}<div id="root">${rendered.html}${page.slice(end)}`;
  if (rendered.title)
    html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(rendered.title ?? '')}</title>`);
  if (rendered.description) {
    html = html.replace(
      /<meta name="description" content="[^"]*"/,
      () => `<meta name="description" content="${escapeHtml(rendered.description ?? '')}"`,
    );
  }
  return html;
}

/** Paths of built files, never pages: a missing one is a 404, not the shell. */
const ASSET_PATH = /\.(?:m?js|css|map|woff2?|ttf|png|jpe?g|svg|webp|ico|webmanifest|json|txt|xml)$/i;

export type WebAppOptions = {
  /** The operator's brand as the pages read it; unset (tests of serving alone), pages go out as built. */
  readSiteBrand?: (db: DbOrTx) => Promise<SiteBrand>;
  /** The build's prerender bundle (vite build --ssr); the default is where apps/web's build writes it. */
  prerenderModule?: string;
};

/** Mounts the web app when it has been built (`npm run build`); does nothing otherwise. */
export function mountWebApp(app: Hono<AppEnv>, distDir: string, options: WebAppOptions = {}): void {
  if (!fs.existsSync(path.join(distDir, 'index.html'))) return;
  const shell = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const prerendered = readPrerenderedPages(distDir);
  const root = path.relative(process.cwd(), distDir);

  // The web app's files go out gzip-compressed (about a third of their size); API routes answer before this.
  app.use('*', globalMiddleware(compress()));
  // Headers go on after serveStatic: its onFound runs once the response is built, too late for c.header.
  const cacheFor =
    (value: string): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      await next();
      if (c.res.ok && !c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', value);
    };
  app.use('/assets/*', cacheFor('public, max-age=31536000, immutable'), serveStatic({ root }));
  // A script or stylesheet that is not there (an old page asking for the previous build's file during a
  // rolling deploy) answers 404, never the shell: a browser given HTML for a script fails obscurely, and a
  // 404 is not cached by the browser or a CDN as the asset.
  const missingAsset: MiddlewareHandler<AppEnv> = async (c) =>
    c.text('Not found', 404, { 'Cache-Control': 'no-store' });
  app.get('/assets/*', missingAsset);
  // Before the other static files, or `/` would get the empty shell (dist/index.html).
  const brandOf = async (c: { var: { deps?: { db: DbOrTx } } }): Promise<SiteBrand | null> => {
    if (!options.readSiteBrand || !c.var.deps) return null;
    const brand = await options.readSiteBrand(c.var.deps.db);
    return isSiteBrandDefault(brand) ? null : brand;
  };
  const renderer = prerenderedRenderer(
    options.prerenderModule ?? path.join(distDir, '../node_modules/.prerender/entry-server.js'),
  );
  for (const [pagePath, html] of prerendered) {
    app.get(pagePath, async (c) => {
      c.header('Cache-Control', 'no-cache');
      const brand = await brandOf(c);
      if (!brand) return c.html(html);
      // Without the prerender bundle the page renders in the browser from the shell, with the brand.
      const page = (await renderer(pagePath, html, brand)) ?? shell;
      return c.html(withBrandHead(page, brand));
    });
  }
  app.use('*', cacheFor('no-cache'), serveStatic({ root }));
  app.get('*', async (c, next) => (ASSET_PATH.test(c.req.path) ? missingAsset(c, next) : next()));
  app.get('*', async (c) => {
    c.header('Cache-Control', 'no-cache');
    const brand = await brandOf(c);
    return c.html(brand ? withBrandHead(shell, brand) : shell);
  });
}

/**
 * Renders prerendered pages again for a brand, keeping the pages of the latest brand only (a brand
 * changes rarely; every instance renders its own once). Null when the bundle is missing or fails.
 */
function prerenderedRenderer(modulePath: string) {
  let module: Promise<PrerenderModule | null> | undefined;
  let cachedFor = '';
  const cache = new Map<string, Promise<string | null>>();
  return (pagePath: string, page: string, brand: SiteBrand): Promise<string | null> => {
    module ??= fs.existsSync(modulePath)
      ? (import(pathToFileURL(modulePath).href) as Promise<PrerenderModule>).catch(() => null)
      : Promise.resolve(null);
    const key = JSON.stringify(brand);
    if (key !== cachedFor) {
      cache.clear();
      cachedFor = key;
    }
    let rendered = cache.get(pagePath);
    if (!rendered) {
      rendered = module.then(async (loaded) => {
        if (!loaded) {
          // Missing or unreadable (a build in progress): the shell for now, and another try next time.
          module = undefined;
          cache.delete(pagePath);
          return null;
        }
        try {
          return withRenderedMarkup(page, await loaded.render(pagePath, brand));
        } catch {
          return null;
        }
      });
      cache.set(pagePath, rendered);
    }
    return rendered;
  };
}
