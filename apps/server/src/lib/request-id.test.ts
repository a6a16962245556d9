/** X-Request-Id (issue 24): on every answer, in every log line of its request, kept from a trusted proxy only. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Db } from '../db/client';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';
import { createLogger } from './logger';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(() => system.close());

type Line = { msg: string; reqId?: string; [key: string]: unknown };

/**
 * An app whose every log line is captured, and whose database logs a line from deep inside each query (as a
 * service would, through a child logger) and may fail, so route, service and error lines are all seen.
 */
function loggedApp(options: { trustProxy?: boolean; failQueries?: boolean; lines?: Line[] } = {}) {
  const lines: Line[] = options.lines ?? [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  const logger = createLogger('info', destination);
  const serviceLogger = logger.child({ module: 'service' });
  const db = new Proxy(system.db, {
    get(target, name, receiver) {
      if (name === 'transaction' && options.failQueries)
        return async () => {
          serviceLogger.info('query');
          throw new Error('database exploded');
        };
      if (name !== 'execute') return Reflect.get(target, name, receiver);
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        serviceLogger.info('query');
        if (options.failQueries) throw new Error('database exploded');
        return (target.execute as (...values: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Db;
  const app = createApp({
    ...system,
    db,
    logger,
    config: { ...system.config, TRUST_PROXY: options.trustProxy ? '1' : '0' },
  });
  return { app, lines };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids in logs', () => {
  it('every line of a request carries its id, concurrent requests never mix', async () => {
    // Health shares one database answer per database for half a second (record 171), so each request
    // gets an app of its own (its own database handle) writing to the same log.
    const lines: Line[] = [];
    const [first, second] = await Promise.all([
      loggedApp({ lines }).app.request('/api/health'),
      loggedApp({ lines }).app.request('/api/health'),
    ]);
    const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    for (const id of ids) {
      const mine = lines.filter((line) => line.reqId === id);
      expect(mine.map((line) => line.msg).sort()).toEqual(['query', 'request']);
      expect(mine.find((line) => line.msg === 'query')?.module).toBe('service');
    }
    expect(lines.every((line) => ids.includes(line.reqId as string))).toBe(true);
  });

  it("an unexpected error's line carries the id the answer names", async () => {
    // Health answers a failing database with a handled 503; the contact form's transaction does not
    // expect its database to explode.
    const { app, lines } = loggedApp({ failQueries: true });
    const response = await app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: system.config.appUrl },
      body: JSON.stringify({ name: 'Ada', companyName: 'Engines', email: 'ada@example.com' }),
    });
    expect(response.status).toBe(500);
    const id = response.headers.get('x-request-id');
    expect((await readJson(response)).error.message).toContain(id);
    const error = lines.find((line) => line.msg === 'unhandled error');
    expect(error?.reqId).toBe(id);
    expect(lines.filter((line) => line.reqId === id).map((line) => line.msg)).toEqual([
      'query',
      'unhandled error',
      'request',
    ]);
  });
});

describe('an incoming X-Request-Id', () => {
  it('is ignored unless a proxy is trusted (a client cannot pick the id of its log lines)', async () => {
    const { app, lines } = loggedApp();
    const response = await app.request('/api/health', { headers: { 'x-request-id': 'proxy-abc.123' } });
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(lines.some((line) => line.reqId === 'proxy-abc.123')).toBe(false);
  });

  it('is kept from a trusted proxy when short and plain, replaced otherwise', async () => {
    const { app, lines } = loggedApp({ trustProxy: true });
    const kept = await app.request('/api/health', { headers: { 'x-request-id': 'lb-7f3a:01.x_y' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:01.x_y');
    expect(lines.filter((line) => line.reqId === 'lb-7f3a:01.x_y').map((line) => line.msg)).toEqual([
      'query',
      'request',
    ]);
    for (const given of ['a'.repeat(129), 'has space', 'new\\nline', 'émoji', '<script>']) {
      const response = await app.request('/api/health', { headers: { 'x-request-id': given } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
    const longest = 'b'.repeat(128);
    const response = await app.request('/api/health', { headers: { 'x-request-id': longest } });
    expect(response.headers.get('x-request-id')).toBe(longest);
  });
});

describe('a worker instance', () => {
  it('answers its 404s with an X-Request-Id too', async () => {
    const app = createApp(system, { isWorkerOnly: true });
    const refused = await app.request('/api/releases');
    expect(refused.status).toBe(404);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await readJson(refused)).error.message).toContain('worker instance');
    const probe = await app.request('/api/health/live');
    expect(probe.status).toBe(200);
    expect(probe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
