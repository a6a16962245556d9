/**
 * A hung database (record 223): a TCP proxy between the app and PostgreSQL stops forwarding, as when the
 * database's host or the network in between stops answering without closing the connection. Requests
 * answer 503 within the configured timeouts, /metrics still answers, and once the database answers again
 * so does the app. PostgreSQL only: PGlite is in-process, nothing to hang between.
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createLogger } from '../lib/logger';
import { firstRow } from '../lib/sql';
import { type System, startSystem } from '../server';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';
import { allowLongStatements } from './long-statements';

const baseUrl = process.env.DATABASE_URL;
const TOKEN = 'metrics-token-0123456789';
const STATEMENT_MS = 1000;
const CONNECT_MS = 1000;

/** Forwards TCP to PostgreSQL until hang(): then every byte either way is held (the sockets stay open). */
function startProxy(target: URL) {
  let isHung = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (!isHung) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    hang: () => {
      isHung = true;
    },
    resume: () => {
      isHung = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!baseUrl)('a database that stops answering (PostgreSQL)', () => {
  let direct: TestSystem;
  let proxied: System;
  let proxy: ReturnType<typeof startProxy>;
  let cookie: string;

  beforeAll(async () => {
    direct = await createTestSystem();
    cookie = (await direct.signedInUser()).cookie;
    const target = new URL(direct.config.DATABASE_URL ?? '');
    proxy = startProxy(target);
    const port = await proxy.listen();
    const through = new URL(target);
    through.host = `127.0.0.1:${port}`;
    proxied = await startSystem(
      loadConfig({
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: direct.dataDir,
        APP_URL: direct.config.appUrl,
        APP_SECRET: direct.config.appSecret,
        DATABASE_URL: through.toString(),
        METRICS_TOKEN: TOKEN,
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
      }),
      createLogger('silent'),
      { runWorkers: false },
    );
  });

  afterAll(async () => {
    proxy?.resume();
    await proxied?.stop().catch(() => undefined);
    await proxy?.close();
    await direct?.close();
  });

  const me = (app: ReturnType<typeof createApp>) =>
    app.request('/api/me', { headers: { cookie, origin: direct.config.appUrl } });

  it('answers /api/me with 503 within the timeouts, /metrics still answers, and recovers', async () => {
    const app = createApp(proxied);
    expect((await me(app)).status).toBe(200);

    proxy.hang();
    // A question on a pooled connection waits for the statement limit and a second's grace; one needing a
    // new connection waits for the connect limit.
    const limit = STATEMENT_MS + 1000 + CONNECT_MS;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const started = Date.now();
      const response = await me(app);
      expect(Date.now() - started).toBeLessThan(limit + 1500);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect((await readJson(response)).error).toEqual({
        code: 'database_unavailable',
        message:
          'The service is temporarily unavailable: its database is not answering. Please try again in a moment.',
      });
    }

    const started = Date.now();
    const metrics = await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^tunedrop_database_up 0$/m);

    proxy.resume();
    // The connections that hung were dropped: new ones answer.
    expect((await me(app)).status).toBe(200);
    const after = await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await after.text()).toMatch(/^tunedrop_database_up 1$/m);
  });

  it('ends a statement past its limit, unless its transaction allowed long statements', async () => {
    const app = createApp(proxied);
    // A statement the server itself runs too long (not a network hang): statement_timeout ends it.
    const cancelled = await proxied.db
      .transaction(async (tx) =>
        firstRow<{ ok: number }>(tx, sql`select 1 as ok from pg_sleep(${(STATEMENT_MS * 2) / 1000})`),
      )
      .catch((error: unknown) => error);
    expect(cancelled).toBeInstanceOf(Error);
    expect(String((cancelled as Error).cause ?? cancelled)).toContain('statement timeout');
    const allowed = await proxied.db.transaction(async (tx) => {
      await allowLongStatements(tx, STATEMENT_MS * 4);
      return firstRow<{ ok: number }>(tx, sql`select 1 as ok from pg_sleep(${(STATEMENT_MS * 2) / 1000})`);
    });
    expect(allowed?.ok).toBe(1);
    // The longer limit ended with that transaction: the next one has the pool's again.
    const again = await proxied.db
      .transaction(async (tx) => firstRow(tx, sql`select pg_sleep(${(STATEMENT_MS * 2) / 1000})`))
      .catch((error: unknown) => error);
    expect(again).toBeInstanceOf(Error);
    expect((await me(app)).status).toBe(200);
  });

  it('lets a burst larger than the pool wait for a free connection past the connect limit', async () => {
    // Ten connections each held by a transaction for longer than the connect limit, each statement within
    // the statement limit: the eleventh waits for one of them instead of failing (a wait of only the
    // connect limit answered 503 to a burst of approvals in the scale-out test).
    const hold = (STATEMENT_MS * 0.7) / 1000;
    const results = await Promise.all(
      Array.from({ length: 11 }, () =>
        proxied.db
          .transaction(async (tx) => {
            await firstRow(tx, sql`select pg_sleep(${hold})`);
            await firstRow(tx, sql`select pg_sleep(${hold})`);
            return 'ok';
          })
          .catch((error: unknown) => String(error)),
      ),
    );
    expect(results).toEqual(Array.from({ length: 11 }, () => 'ok'));
  });
});
