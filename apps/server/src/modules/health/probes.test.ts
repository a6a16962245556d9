/** Liveness and readiness (record 159): what a load balancer or orchestrator sees. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(() => system.close());

function appWith(overrides: Partial<Deps>) {
  return createApp({ ...system, ...overrides });
}

/** A database that never answers, as when its host went away without closing the connection. */
const hangingDb = new Proxy({} as Db, {
  get: (_target, name) => (name === 'execute' ? () => new Promise(() => undefined) : undefined),
});

describe('GET /api/health/live', () => {
  it('answers ok without touching the database', async () => {
    const response = await appWith({ db: hangingDb }).request('/api/health/live');
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ status: 'ok' });
  });
});

describe('GET /api/health/ready', () => {
  it('is ready once the database answers and every migration is applied', async () => {
    const response = await system.request('/api/health/ready');
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      status: 'ok',
      checks: {
        database: 'ok',
        migrations: 'ok',
        jobs: expect.stringMatching(/^(ok|none)$/),
        shutdown: 'ok',
      },
    });
  });

  it('answers 503 naming the shutdown as soon as the instance drains (SIGTERM, record 217)', async () => {
    const shutdown = { isDraining: false };
    const app = appWith({ shutdown });
    expect((await app.request('/api/health/ready')).status).toBe(200);
    shutdown.isDraining = true;
    const response = await app.request('/api/health/ready');
    expect(response.status).toBe(503);
    expect(await readJson(response)).toMatchObject({
      checks: { database: 'ok', shutdown: 'draining' },
      error: { code: 'not_ready', message: 'Not ready: shutdown' },
    });
  });

  it('answers 503 naming the database within a second when it stops answering', async () => {
    const started = Date.now();
    const response = await appWith({ db: hangingDb }).request('/api/health/ready');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(response.status).toBe(503);
    const body = await readJson(response);
    expect(body.checks.database).toBe('timeout');
    expect(body.error).toEqual({ code: 'not_ready', message: 'Not ready: database, migrations' });
    // /api/health keeps its contract: it answers only once the database does.
  });

  it('answers 503 when the job engine has not started, and ok once it has', async () => {
    let isReady = false;
    const jobs = { isReady: () => isReady, counts: async () => [], ages: async () => [] };
    const app = appWith({ jobs });
    const before = await app.request('/api/health/ready');
    expect(before.status).toBe(503);
    expect(await readJson(before)).toMatchObject({
      checks: { database: 'ok', migrations: 'ok', jobs: 'pending' },
      error: { message: 'Not ready: jobs' },
    });
    isReady = true;
    expect((await app.request('/api/health/ready')).status).toBe(200);
  });

  it('answers 503 when a migration is missing from the database', async () => {
    const other = await createTestSystem();
    try {
      await other.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      const response = await other.request('/api/health/ready');
      expect(response.status).toBe(503);
      expect((await readJson(response)).checks).toMatchObject({ database: 'ok', migrations: 'pending' });
    } finally {
      await other.close();
    }
  });

  it('answers 503 at once when the database connection is gone', async () => {
    const other = await createTestSystem();
    const app = createApp(other);
    await other.database.close();
    const started = Date.now();
    const response = await app.request('/api/health/ready');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(503);
    expect((await readJson(response)).checks.database).toBe('failed');
    await other.close().catch(() => undefined);
  });
});

describe('the database answer shared by /api/health and /ready (record 171)', () => {
  it('serves a burst of health checks with one database query per half second', async () => {
    let queries = 0;
    const countingDb = new Proxy(system.db, {
      get: (target, name, receiver) =>
        name === 'execute'
          ? (...args: Parameters<Db['execute']>) => {
              queries++;
              return target.execute(...args);
            }
          : Reflect.get(target, name, receiver),
    });
    const app = appWith({ db: countingDb });
    const started = Date.now();
    for (let n = 0; n < 20; n++) {
      const response = await app.request(n % 2 ? '/api/health' : '/api/health/ready');
      expect(response.status).toBe(200);
    }
    const elapsed = Date.now() - started;
    expect(queries).toBeGreaterThanOrEqual(1);
    expect(queries).toBeLessThanOrEqual(Math.ceil(elapsed / 500) + 1);
    expect(queries).toBeLessThan(20);
  });

  it('still fails readiness and /api/health within a second once the database goes away', async () => {
    const other = await createTestSystem();
    const app = createApp(other);
    try {
      expect((await app.request('/api/health/ready')).status).toBe(200);
      expect((await app.request('/api/health')).status).toBe(200);
      await other.database.close();
      const closedAt = Date.now();
      let ready = await app.request('/api/health/ready');
      while (ready.status === 200 && Date.now() - closedAt < 2000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ready = await app.request('/api/health/ready');
      }
      expect(Date.now() - closedAt).toBeLessThan(1000);
      expect(ready.status).toBe(503);
      expect((await readJson(ready)).checks.database).toBe('failed');
      const health = await app.request('/api/health');
      expect(health.status).toBe(503);
      expect(await readJson(health)).toEqual({
        status: 'unavailable',
        error: { code: 'not_ready', message: 'Not ready: database' },
      });
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
