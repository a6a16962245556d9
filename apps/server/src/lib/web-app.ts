/**
 * The built web app (apps/web/dist), mounted after the API routes: gzip-compressed responses,
 * fingerprinted assets cached for a year, the prerendered public pages (record 128) for their own
 * paths, other files as they are, and the empty shell (index.html) for every other path, where the
 * client router takes over. Pages and the shell are `no-cache`, so a new build shows at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono, MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { globalMiddleware } from './access';
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

/** Mounts the web app when it has been built (`npm run build`); does nothing otherwise. */
export function mountWebApp(app: Hono<AppEnv>, distDir: string): void {
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
  // Before the other static files, or `/` would get the empty shell (dist/index.html).
  for (const [pagePath, html] of prerendered) {
    app.get(pagePath, (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.html(html);
    });
  }
  app.use('*', cacheFor('no-cache'), serveStatic({ root }));
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(shell);
  });
}
