/**
 * Every route of test-support/route-table.ts has a body limit, and nothing reads a body before the route's
 * access rule (issue 22, finding 2; record 145). Called in-process as an admin, whom every rule lets in: a
 * body declared one byte over the route's limit is refused 413 before it is read, and a body streamed
 * without a length is counted and refused at the limit (routes that stream files count their own).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Deps } from '../deps';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';
import { ROUTE_TABLE, type RouteRow } from '../test-support/route-table';
import { ACCESS_RULE, GLOBAL_MIDDLEWARE } from './access';
import { routeBodyLimit, tooLargeMessage } from './body-limit';

const SMALL_LIMIT = 64 * 1024;
let system: TestSystem;
let adminCookie: string;

beforeAll(async () => {
  system = await createTestSystem({ BODY_LIMIT_BYTES: String(SMALL_LIMIT) });
  adminCookie = (await system.signedInUser({ roles: ['admin'] })).cookie;
});
afterAll(async () => {
  await system.close();
});

/** The test-fixture routes are mounted only for end-to-end runs (their token is the check). */
const rows = ROUTE_TABLE.filter((row) => !row.path.startsWith('/api/test-fixtures'));

function target(row: RouteRow): { method: string; path: string } {
  const method = row.call?.method ?? (row.method === 'ALL' ? 'POST' : row.method);
  const path =
    row.call?.path ??
    row.path
      .replace(/\/:[A-Za-z]+\?/g, '')
      .replace(/:([A-Za-z]+)/g, (_match, name: string) => (name === 'size' ? 'small' : randomUUID()))
      .replace(/\*$/, 'anything');
  return { method, path };
}

const label = (row: RouteRow) => `${row.method} ${row.path}`;

/** `bytes` of filler, produced as it is read, with no declared length. */
function streamOf(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) {
        controller.close();
        return;
      }
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
      sent += part.length;
      controller.enqueue(part);
    },
  });
}

describe('every route has a body limit (as a caller every rule lets in)', () => {
  it.each(rows.map((row) => [label(row), row] as const))(
    '%s refuses a body declared one byte over its limit with 413',
    async (_label, row) => {
      const { method, path } = target(row);
      const { bytes } = routeBodyLimit(system.config, method, new URL(path, 'http://x').pathname);
      const response = await system.app.request(path, {
        method,
        headers: {
          origin: system.config.appUrl,
          cookie: adminCookie,
          'content-type': 'application/json',
          'content-length': String(bytes + 1),
        },
      });
      expect(response.status).toBe(413);
      expect(await readJson(response)).toEqual({
        error: { code: 'payload_too_large', message: tooLargeMessage(bytes) },
      });
    },
  );

  const streamedRows = rows.filter((row) => {
    const { method, path } = target(row);
    return (
      !['GET', 'HEAD'].includes(method) &&
      !routeBodyLimit({ BODY_LIMIT_BYTES: SMALL_LIMIT, UPLOAD_MAX_WAV_BYTES: 1 }, method, path)
        .isStreamedByRoute
    );
  });

  it.each(streamedRows.map((row) => [label(row), row] as const))(
    '%s counts a body sent without a length and refuses it at the limit with 413',
    async (_label, row) => {
      const { method, path } = target(row);
      const { bytes } = routeBodyLimit(system.config, method, new URL(path, 'http://x').pathname);
      const response = await system.app.request(path, {
        method,
        headers: { origin: system.config.appUrl, cookie: adminCookie, 'content-type': 'application/json' },
        body: streamOf(bytes + 1),
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect((await readJson(response)).error.code).toBe('payload_too_large');
    },
  );
});

describe('nothing reads a body before the access rule', () => {
  it('access() is the first handler of every API route, after the global middleware', () => {
    const app = createApp({
      config: { appUrl: 'http://localhost:3000', NODE_ENV: 'test' },
    } as unknown as Deps);
    const firstHandler = new Map<string, unknown>();
    for (const route of app.routes as { method: string; path: string; handler: unknown }[]) {
      const key = `${route.method} ${route.path}`;
      if ((route.handler as Record<symbol, unknown>)[GLOBAL_MIDDLEWARE] === true) continue;
      if (!route.path.startsWith('/api/') || route.path === '/api/*') continue;
      if (!firstHandler.has(key)) firstHandler.set(key, route.handler);
    }
    expect(firstHandler.size).toBeGreaterThan(100);
    const notFirst = [...firstHandler]
      .filter(([, handler]) => (handler as Record<symbol, unknown>)[ACCESS_RULE] === undefined)
      .map(([key]) => key);
    expect(notFirst).toEqual([]);
  });

  it.each(rows.filter((row) => row.rule !== 'public').map((row) => [label(row), row] as const))(
    '%s answers an anonymous oversized body 401, not 413',
    async (_label, row) => {
      const { method, path } = target(row);
      const response = await system.app.request(path, {
        method,
        headers: {
          origin: system.config.appUrl,
          'content-type': 'application/json',
          'content-length': String(10 * 1024 ** 3),
        },
      });
      expect(response.status).toBe(401);
    },
  );
});
