/**
 * The v1 reference page (record 292): it answers, names the v1 document, and loads Scalar from this
 * server only (no CDN, no inline script the CSP would refuse), and the vendored bundle is served.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import type { Deps } from '../../deps';

const app = createApp({
  config: { appUrl: 'http://localhost:3000', NODE_ENV: 'test', BODY_LIMIT_BYTES: 1_000_000 },
  logger: { info: () => {}, warn: () => {}, error: () => {} },
} as unknown as Deps);

describe('GET /api/v1/reference', () => {
  it('answers a page that names the v1 document and loads Scalar from this server', async () => {
    const response = await app.request('/api/v1/reference');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('data-url="/api/v1/openapi.json"');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    // The configuration is a data block; the only script that runs is the bundle, from our own path.
    expect(scripts.map(([, attributes]) => attributes?.match(/src="([^"]+)"/)?.[1] ?? null)).toEqual([
      null,
      expect.stringMatching(/^\/api\/v1\/reference\/scalar\.js\?v=[0-9a-f]{16}$/),
    ]);
    expect(scripts[0]?.[1]).toContain('type="application/json"');
    expect(scripts.every(([, , body]) => body?.trim() === '')).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
    const configuration = JSON.parse(
      (html.match(/data-configuration="([^"]+)"/)?.[1] ?? '').replaceAll('&quot;', '"'),
    ) as Record<string, unknown>;
    expect(configuration).toMatchObject({ withDefaultFonts: false, telemetry: false, proxyUrl: '' });
    // The app's CSP stands: scripts from 'self' only.
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('serves the vendored Scalar bundle, gzipped when asked, cached for good at its versioned address', async () => {
    const page = await (await app.request('/api/v1/reference')).text();
    const bundlePath = page.match(/src="(\/api\/v1\/reference\/scalar\.js\?v=[0-9a-f]+)"/)?.[1] ?? '';
    const plain = await app.request(bundlePath);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(plain.headers.get('cache-control')).toContain('immutable');
    const script = await plain.text();
    expect(script).toContain('createApiReference');
    const zipped = await app.request(bundlePath, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8')).toBe(script);
    const unversioned = await app.request('/api/v1/reference/scalar.js');
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=300');
  });
});
