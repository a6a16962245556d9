/** The built web app's serving (record 315): prerendered public pages, the shell for the rest, assets. */
import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppEnv } from './context';
import { mountWebApp, readPrerenderedPages } from './web-app';

// Under the working directory: serveStatic takes its root relative to it.
fs.mkdirSync(path.resolve('.tmp'), { recursive: true });
const distDir = fs.mkdtempSync(path.resolve('.tmp', 'web-app-'));
fs.mkdirSync(path.join(distDir, 'prerendered'));
fs.mkdirSync(path.join(distDir, 'assets'));
fs.writeFileSync(path.join(distDir, 'index.html'), '<div id="root"></div>');
fs.writeFileSync(path.join(distDir, 'prerendered/index.html'), '<div id="root"><h1>Home</h1></div>');
fs.writeFileSync(path.join(distDir, 'prerendered/pricing.html'), '<div id="root"><h1>Pricing</h1></div>');
fs.writeFileSync(path.join(distDir, 'assets/app-123.js'), 'console.log(1);\n'.repeat(200));
fs.writeFileSync(path.join(distDir, 'favicon.svg'), '<svg/>');
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

const app = new Hono<AppEnv>();
app.get('/api/health', (c) => c.json({ ok: true }));
mountWebApp(app, distDir);

describe('web app serving', () => {
  it('maps dist/prerendered/<name>.html to its path', () => {
    expect([...readPrerenderedPages(distDir).keys()].sort()).toEqual(['/', '/pricing']);
  });

  it('sends a prerendered page for its path, not cached', async () => {
    for (const [pagePath, heading] of [
      ['/', 'Home'],
      ['/pricing', 'Pricing'],
      ['/pricing?plan=pro', 'Pricing'],
    ] as const) {
      const response = await app.request(pagePath);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(`<div id="root"><h1>${heading}</h1></div>`);
    }
  });

  it('sends the empty shell for every other page, and API routes answer first', async () => {
    for (const pagePath of ['/dashboard', '/dashboard/songs', '/admin/releases', '/forgot-password']) {
      const response = await app.request(pagePath);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe('<div id="root"></div>');
    }
    expect(await (await app.request('/api/health')).json()).toEqual({ ok: true });
  });

  it('sends fingerprinted assets cached for a year, gzip-compressed when asked', async () => {
    const response = await app.request('/assets/app-123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const favicon = await app.request('/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404, not the shell, for a script or stylesheet that is not there (an old page during a deploy)', async () => {
    for (const assetPath of [
      '/assets/app-old.js',
      '/assets/index-old.css',
      '/assets/deep/x.js',
      '/missing.js',
    ]) {
      const response = await app.request(assetPath);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).not.toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    // Pages still get the shell.
    expect(await (await app.request('/dashboard/releases')).text()).toBe('<div id="root"></div>');
  });
});
