import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';
import { ROUTE_BODY_LIMITS } from './body-limit';

let system: TestSystem;
let server: http.Server;
let port: number;

beforeAll(async () => {
  system = await createTestSystem();
  server = serve({ fetch: system.app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await system.close();
});

type Sent = {
  status: number;
  body: string;
  bytesWritten: number;
  ms: number;
  connection: string | undefined;
};

/**
 * POSTs up to `totalBytes` of JSON-looking bytes in 64 KB chunks, honouring back-pressure, and
 * stops writing as soon as the answer arrives (as a browser would). Chunked when `isChunked`.
 */
function postLargeBody(
  path: string,
  totalBytes: number,
  isChunked: boolean,
  options: { cookie?: string; method?: string } = {},
): Promise<Sent> {
  const started = performance.now();
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve, reject) => {
    let bytesWritten = 0;
    let isAnswered = false;
    const request = http.request({
      host: '127.0.0.1',
      port,
      // A fresh connection each time: the server may close one whose refused body it did not read.
      agent: false,
      path,
      method: options.method ?? 'POST',
      headers: {
        'content-type': 'application/json',
        origin: system.config.appUrl,
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(isChunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(totalBytes) }),
      },
    });
    request.on('response', (response) => {
      isAnswered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(parts).toString('utf8'),
          bytesWritten,
          ms: performance.now() - started,
          connection: response.headers.connection,
        });
        request.destroy();
      });
    });
    // The server may close the socket once it has answered; that is not a failure here.
    request.on('error', (error) => {
      if (!isAnswered) reject(error);
    });
    const write = () => {
      while (!isAnswered && bytesWritten < totalBytes) {
        bytesWritten += chunk.length;
        if (
          !request.write(
            bytesWritten === chunk.length ? Buffer.from(`{"x":"${'a'.repeat(chunk.length - 6)}`) : chunk,
          )
        ) {
          request.once('drain', write);
          return;
        }
      }
      if (!isAnswered) request.end();
    };
    write();
  });
}

const HUNDRED_MB = 100 * 1024 * 1024;

describe('request body limit', () => {
  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('answers a 100 MB body %s with 413 JSON promptly, without reading it', async (_label, isChunked) => {
    const rssBefore = process.memoryUsage().rss;
    const sent = await postLargeBody('/api/contact', HUNDRED_MB, isChunked);
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toEqual({
      error: { code: 'payload_too_large', message: 'This request is too large (at most 1 MB).' },
    });
    // The answer came long before the body could have been sent: only a few MB ever left the client.
    expect(sent.bytesWritten).toBeLessThan(HUNDRED_MB / 4);
    // Generous: the point is "not after reading 100 MB"; the real figure is in bench/body-limit.ts.
    expect(sent.ms).toBeLessThan(5000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    // The server is still answering.
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
  });

  it('still accepts ordinary bodies under the limit', async () => {
    const response = await system.request('/api/contact', {
      method: 'POST',
      json: { name: 'Ada', companyName: 'Label', email: 'ada@example.com', links: [] },
    });
    expect(response.status).not.toBe(413);
  });

  it('refuses a body just over the limit declared by Content-Length, in-process too', async () => {
    const response = await system.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect((await readJson(response)).error.code).toBe('payload_too_large');
  });

  it('follows BODY_LIMIT_BYTES', async () => {
    const small = await createTestSystem({ BODY_LIMIT_BYTES: '2048' });
    try {
      const response = await small.request('/api/contact', {
        method: 'POST',
        json: { name: 'x'.repeat(4096), companyName: 'Label', email: 'a@example.com', links: [] },
      });
      expect(response.status).toBe(413);
      expect((await readJson(response)).error.message).toBe('This request is too large (at most 2 KB).');
    } finally {
      await small.close();
    }
  });

  it('leaves tus uploads to their own limits, after access', async () => {
    const uploads = ROUTE_BODY_LIMITS.find((route) => route.prefix === '/api/uploads');
    expect(uploads?.isStreamedByRoute).toBe(true);
    // Anonymous: the upload route answers 401, not 413, for a 2 MB declared body.
    const sent = await postLargeBody('/api/uploads', 2 * 1024 * 1024, false);
    expect(sent.status).toBe(401);
  });

  it('gives the bulk balance rows their larger limit', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    // 2 MB passes the 1 MB default: the route reads it and refuses the JSON, not its size.
    const sent = await postLargeBody('/api/admin/balances/verify', 2 * 1024 * 1024, false, {
      cookie: admin.cookie,
    });
    expect(sent.status).not.toBe(413);
    const over = await postLargeBody('/api/admin/balances/verify', 40 * 1024 * 1024, true, {
      cookie: admin.cookie,
    });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).error.message).toBe('This request is too large (at most 16 MB).');
  });
});

describe('access before body (issue 22)', () => {
  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])(
    'answers an anonymous 100 MB report upload %s with 401 without reading it, and closes the connection',
    async (_label, isChunked) => {
      const rssBefore = process.memoryUsage().rss;
      const sent = await postLargeBody('/api/admin/royalties/imports', HUNDRED_MB, isChunked);
      expect(sent.status).toBe(401);
      expect(JSON.parse(sent.body)).toEqual({ error: { code: 'unauthorized', message: 'Please sign in.' } });
      expect(sent.bytesWritten).toBeLessThan(HUNDRED_MB / 4);
      expect(sent.ms).toBeLessThan(5000);
      expect(sent.connection).toBe('close');
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    },
  );

  it('refuses a signed-in artist on the report upload with 403 before reading the body', async () => {
    const artist = await system.signedInUser();
    const sent = await postLargeBody('/api/admin/royalties/imports', HUNDRED_MB, true, {
      cookie: artist.cookie,
    });
    expect(sent.status).toBe(403);
    expect(sent.bytesWritten).toBeLessThan(HUNDRED_MB / 4);
    expect(sent.connection).toBe('close');
  });

  it('refuses an admin report upload larger than its limit by its declared length, before reading it', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    const sent = await postLargeBody('/api/admin/royalties/imports', 5_000_000_000, false, {
      cookie: admin.cookie,
    });
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body).error.code).toBe('payload_too_large');
    expect(sent.bytesWritten).toBeLessThan(HUNDRED_MB);
  });

  it.each([
    ['PATCH', '/api/me/profile'],
    ['POST', '/api/admin/balances/verify'],
    ['PUT', '/api/builder/draft'],
    ['POST', '/api/admin/royalties/imports/00000000-0000-4000-8000-000000000000/post'],
  ])('answers an anonymous chunked 100 MB body to %s %s with 401, not 413', async (method, path) => {
    const sent = await postLargeBody(path, HUNDRED_MB, true, { method });
    expect(sent.status).toBe(401);
    expect(sent.bytesWritten).toBeLessThan(HUNDRED_MB / 4);
    expect(sent.connection).toBe('close');
  });

  it('checks a JSON body for control characters only after access: anonymous NUL gets 401', async () => {
    const anonymous = await system.request('/api/me/profile', {
      method: 'PATCH',
      json: { fullName: 'A\u0000B' },
    });
    expect(anonymous.status).toBe(401);
    const user = await system.signedInUser();
    const signedIn = await system.request('/api/me/profile', {
      method: 'PATCH',
      cookie: user.cookie,
      json: { fullName: 'A\u0000B' },
    });
    expect(signedIn.status).toBe(422);
  });
});
