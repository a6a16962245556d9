/**
 * Live updates: N signed-in users each hold a GET /api/events stream over real HTTP; their balances
 * change (one transaction per user, as the wallet does) and we time commit → event received in the
 * browser-side reader. On PGlite, and on PostgreSQL when DATABASE_URL (or 127.0.0.1:5432) answers,
 * where the changes come from a second connection as another instance's would. Prints figures.
 *   node --import tsx bench/live-updates.ts [streams=100] [rounds=3]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { createLogger } from '../apps/server/src/lib/logger';
import { startSystem } from '../apps/server/src/server';
import { createTestUser, signInCookie } from '../apps/server/src/test-support/fixtures';

const streams = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 3);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function run(label: string, databaseUrl: string | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const system = await startSystem(config, createLogger('silent'), {
    runWorkers: false,
    isDatabaseInMemory: true,
  });
  const server = serve({ fetch: createApp(system).fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // On PostgreSQL the writes come from another pool, like another server instance.
  const writer = databaseUrl ? await openDatabase({ databaseUrl, dataDir }) : system.database;

  const users: { userId: string; cookie: string }[] = [];
  for (let index = 0; index < streams; index += 1) {
    const user = await createTestUser(system, { email: `bench-${index}-${randomUUID()}@example.com` });
    users.push({ userId: user.userId, cookie: await signInCookie(system, user.email, user.password) });
  }

  const waiting = new Map<string, (at: number) => void>();
  const controllers: AbortController[] = [];
  const connected: Promise<void>[] = users.map(async ({ userId, cookie }) => {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${base}/api/events`, { headers: { cookie }, signal: controller.signal });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no stream');
    const decoder = new TextDecoder();
    let buffer = '';
    let onReady = () => {};
    const ready = new Promise<void>((resolve) => {
      onReady = resolve;
    });
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let split = buffer.indexOf('\n\n');
        while (split >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          if (block.includes('event: ready')) onReady();
          if (block.includes('event: profile')) waiting.get(userId)?.(performance.now());
          split = buffer.indexOf('\n\n');
        }
      }
    })();
    await ready;
  });
  const connectStarted = performance.now();
  await Promise.all(connected);
  const connectMs = performance.now() - connectStarted;

  const latencies: number[] = [];
  let roundMs = 0;
  for (let round = 1; round <= rounds; round += 1) {
    const started = performance.now();
    const arrivals = users.map(
      ({ userId }) =>
        new Promise<number>((resolve) => {
          waiting.set(userId, resolve);
        }),
    );
    const committedAt = new Map<string, number>();
    await Promise.all(
      users.map(async ({ userId }) => {
        await writer.db.execute(
          sql`update profiles set balance_cents = ${round * 100}, total_earnings_cents = ${round * 100} where id = ${userId}`,
        );
        committedAt.set(userId, performance.now());
      }),
    );
    const received = await Promise.all(arrivals);
    roundMs += performance.now() - started;
    received.forEach((at, index) => {
      latencies.push(at - (committedAt.get(users[index]?.userId ?? '') ?? at));
    });
  }

  // One change at a time, the usual case: a user pays or a balance is set while the tab is open.
  const single: number[] = [];
  for (let sample = 0; sample < 20; sample += 1) {
    const { userId } = users[sample % users.length] ?? { userId: '' };
    const arrival = new Promise<number>((resolve) => {
      waiting.set(userId, resolve);
    });
    await writer.db.execute(
      sql`update profiles set balance_cents = ${1000 + sample}, total_earnings_cents = ${1000 + sample} where id = ${userId}`,
    );
    const committed = performance.now();
    single.push((await arrival) - committed);
  }

  console.info(
    `${label}: single change commit→event p50 ${percentile(single, 50).toFixed(1)} ms, max ${Math.max(...single).toFixed(1)} ms`,
  );
  console.info(
    `${label}: ${streams} streams opened in ${Math.round(connectMs)} ms; ${rounds} rounds of ${streams} balance changes: ` +
      `commit→event p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
      `max ${Math.max(...latencies).toFixed(1)} ms; ${Math.round((streams * rounds) / (roundMs / 1000))} changes delivered/s`,
  );

  for (const controller of controllers) controller.abort();
  if (writer !== system.database) await writer.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await system.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await run('PGlite', undefined);

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `tunedrop_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: baseUrl });
try {
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  await run('PostgreSQL (writes from a second connection)', url.toString());
  await admin.query(`drop database ${name} with (force)`);
} catch (error) {
  console.info(`PostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`);
} finally {
  await admin.end().catch(() => undefined);
}
