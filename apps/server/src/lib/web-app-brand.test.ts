/** The operator's brand on the served pages (record 327): as built when unset; rendered again with it when saved. */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SITE_BRAND, parseSiteBrand, type SiteBrand } from '@tunedrop/shared/schemas/brand';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppEnv, RequestDeps } from './context';
import { mountWebApp } from './web-app';

fs.mkdirSync(path.resolve('.tmp'), { recursive: true });
const distDir = fs.mkdtempSync(path.resolve('.tmp', 'web-app-brand-'));
fs.mkdirSync(path.join(distDir, 'prerendered'));
const page = (body: string) =>
  `<html><head><title>Tunedrop: music distribution</title><meta name="description" content="Tunedrop delivers"></head><body><div id="root">${body}</div>\n</body></html>`;
const shell = page('');
fs.writeFileSync(path.join(distDir, 'index.html'), shell);
fs.writeFileSync(
  path.join(distDir, 'prerendered/index.html'),
  page('<main>Why Artists Choose Tunedrop</main>'),
);
// A stand-in for the build's prerender bundle: names the brand it was given.
const bundle = path.join(distDir, 'entry-server.mjs');
fs.writeFileSync(
  bundle,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholders belong to the written module
  'export async function render(pathname, brand) { return { html: `<main>Why Artists Choose ${brand.productName} at ${pathname}</main>`, title: `${brand.productName}: home` }; }',
);
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

let brand: SiteBrand = DEFAULT_SITE_BRAND;
const app = new Hono<AppEnv>();
app.use('*', async (c, next) => {
  c.set('deps', { db: {} } as RequestDeps);
  await next();
});
mountWebApp(app, distDir, { readSiteBrand: async () => brand, prerenderModule: bundle });

const brandOf = (html: string) =>
  parseSiteBrand(
    html
      .match(/<meta name="site-brand" content="([^"]*)">/)?.[1]
      ?.replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&'),
  );

describe('brand on the served pages', () => {
  it('sends the pages exactly as built while no brand is saved', async () => {
    expect(await (await app.request('/')).text()).toBe(page('<main>Why Artists Choose Tunedrop</main>'));
    expect(await (await app.request('/dashboard')).text()).toBe(shell);
  });

  it('renders the prerendered page again with a saved brand, and brands the shell', async () => {
    brand = { ...DEFAULT_SITE_BRAND, productName: 'Harbour <Sound>', accentColor: '#0f766e' };
    const home = await (await app.request('/')).text();
    expect(home).toContain('<div id="root"><main>Why Artists Choose Harbour <Sound> at /</main></div>');
    expect(home).toContain('<title>Harbour &lt;Sound&gt;: home</title>');
    expect(home).toContain('--color-brand-600:#0f766e');
    expect(brandOf(home)).toEqual(brand);

    const dashboard = await (await app.request('/dashboard')).text();
    expect(dashboard).toContain('<title>Harbour &lt;Sound&gt;: music distribution</title>');
    expect(dashboard).toContain('<div id="root"></div>');
    expect(brandOf(dashboard)).toEqual(brand);

    // A change shows at once: the pages of the earlier brand are not kept.
    brand = { ...brand, productName: 'Pier Records' };
    expect(await (await app.request('/')).text()).toContain('Why Artists Choose Pier Records at /');
  });
});
