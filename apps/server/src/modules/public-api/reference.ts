/**
 * The v1 reference page (record 292): Scalar's API reference reading GET /api/v1/openapi.json, with the
 * Scalar bundle vendored in vendor/scalar/ and served from here, so the page works with no Internet access
 * and under the app's CSP (script-src 'self': no inline script, no CDN, no web fonts, no telemetry).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzip } from 'node:zlib';
import type { Context } from 'hono';
import type { AppEnv } from '../../lib/context';
import { serverRoot } from '../../lib/paths';

export const REFERENCE_PATH = '/api/v1/reference';
export const SCALAR_BUNDLE_PATH = `${REFERENCE_PATH}/scalar.js`;
const SCALAR_BUNDLE_FILE = path.resolve(serverRoot, '../../vendor/scalar/api-reference.standalone.js');

/**
 * Scalar's configuration: everything it would fetch from Scalar's own services is off (fonts, telemetry,
 * its request proxy, its AI agent); the "Try it" client calls this server directly (same origin).
 */
const SCALAR_CONFIGURATION = {
  url: '/api/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: '',
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
};

type Bundle = { raw: Buffer; gzipped: Buffer; version: string };
let bundle: Promise<Bundle> | undefined;

/** Read and gzipped once, on the first request (the file is about 5 MB, 1.3 MB gzipped). */
function loadBundle(): Promise<Bundle> {
  bundle ??= (async () => {
    const raw = await fs.readFile(SCALAR_BUNDLE_FILE);
    const gzipped = await new Promise<Buffer>((resolve, reject) =>
      gzip(raw, (error, result) => (error ? reject(error) : resolve(result))),
    );
    return { raw, gzipped, version: createHash('sha256').update(raw).digest('hex').slice(0, 16) };
  })();
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function referencePage(c: Context<AppEnv>) {
  const { version } = await loadBundle();
  // Scalar's HTML API: a data block (type application/json, so the CSP does not apply) names the document
  // and the configuration; the bundle finds it by its id when it loads.
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Tunedrop API v1 reference</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-url="${SCALAR_CONFIGURATION.url}" data-configuration="${escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    <noscript>The reference needs JavaScript. The document itself is <a href="${SCALAR_CONFIGURATION.url}">${SCALAR_CONFIGURATION.url}</a>.</noscript>
    <script src="${SCALAR_BUNDLE_PATH}?v=${version}"></script>
  </body>
</html>
`;
  return c.html(html, 200, { 'Cache-Control': 'no-cache' });
}

export async function scalarBundle(c: Context<AppEnv>) {
  const { raw, gzipped, version } = await loadBundle();
  const isGzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
  const headers: Record<string, string> = {
    'Content-Type': 'text/javascript; charset=utf-8',
    // The page asks for ?v=<hash of the file>: a new vendored file is a new address.
    'Cache-Control':
      c.req.query('v') === version ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    Vary: 'Accept-Encoding',
    ...(isGzip ? { 'Content-Encoding': 'gzip' } : {}),
  };
  return c.body(new Uint8Array(isGzip ? gzipped : raw), 200, headers);
}
