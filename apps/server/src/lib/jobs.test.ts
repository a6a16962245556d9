/**
 * The job engine (lib/jobs.ts) on the test's database, PGlite or PostgreSQL: jobs created in a
 * transaction exist only if it commits, singleton keys refuse a second, failures retry with backoff,
 * role `web` runs nothing, and a schedule runs once per interval however many engines run.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { createJobEngine, defineJob, enqueue, type JobEngine } from './jobs';
import { createLogger } from './logger';
import { rows } from './sql';

let system: TestSystem;
const engines: JobEngine[] = [];

beforeAll(async () => {
  system = await createTestSystem();
}, 60_000);

afterAll(async () => {
  for (const engine of engines) await engine.stop({ timeoutMs: 1000 });
  await system?.close();
});

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 8000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
};

async function startEngine(
  jobs: Parameters<typeof createJobEngine>[0]['jobs'],
  role: 'all' | 'web' = 'all',
  pollingIntervalSeconds = 0.5,
) {
  const engine = createJobEngine({
    role,
    jobs,
    deps: {},
    logger: createLogger('silent'),
    database: system.database,
    databaseUrl: system.config.DATABASE_URL,
    pollingIntervalSeconds,
  });
  engines.push(engine);
  await engine.start();
  return engine;
}

const jobStates = (name: string) =>
  rows<{ state: string; retryCount: number }>(
    system.db,
    sql`select state, retry_count from pgboss.job where name = ${name} order by created_on`,
  );

describe('job engine', () => {
  it('runs a job committed with its transaction and never one whose transaction rolled back', async () => {
    const seen: string[] = [];
    const echo = defineJob({
      name: 'test.echo',
      payload: z.object({ text: z.string() }),
      async run({ text }) {
        seen.push(text);
      },
    });
    await startEngine([echo]);
    await system.db
      .transaction(async (tx) => {
        await enqueue(tx, echo, { text: 'rolled back' });
        tx.rollback();
      })
      .catch(() => undefined);
    await system.db.transaction(async (tx) => {
      await enqueue(tx, echo, { text: 'committed' });
    });
    await waitFor(() => seen.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(seen).toEqual(['committed']);
    expect(await jobStates('test.echo')).toEqual([{ state: 'completed', retryCount: 0 }]);
    // A payload its schema refuses is never enqueued.
    await expect(enqueue(system.db, echo, { text: 1 } as unknown as { text: string })).rejects.toThrow();
  });

  it('a singleton key refuses a second waiting job, even from two transactions at once', async () => {
    const once = defineJob({
      name: 'test.once',
      payload: z.object({}),
      policy: 'stately',
      async run() {},
    });
    // Queues are made at start: a web engine (enqueue only) makes this one.
    await startEngine([once], 'web');
    const ids = await Promise.all(
      [1, 2].map(() => system.db.transaction((tx) => enqueue(tx, once, {}, { singletonKey: 'release-1' }))),
    );
    expect(ids.filter(Boolean)).toHaveLength(1);
    expect(await jobStates('test.once')).toEqual([{ state: 'created', retryCount: 0 }]);
    // Role web created the queue but runs nothing.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await jobStates('test.once'))[0]?.state).toBe('created');
  });

  it('a failing job is retried with backoff, then given up', async () => {
    const runs: number[] = [];
    const failing = defineJob({
      name: 'test.failing',
      payload: z.object({}),
      retry: { limit: 2, delaySeconds: 1, backoff: true },
      async run() {
        runs.push(Date.now());
        throw new Error('the store is down');
      },
    });
    await startEngine([failing]);
    await enqueue(system.db, failing, {});
    await waitFor(async () => (await jobStates('test.failing'))[0]?.state === 'failed', 20_000);
    expect(runs).toHaveLength(3);
    // Backoff: the second wait is longer than the first (1 s, then about 2 s or more).
    const [a = 0, b = 0, c = 0] = runs;
    expect(b - a).toBeGreaterThanOrEqual(900);
    expect(c - b).toBeGreaterThan(b - a);
  }, 30_000);

  it('a schedule runs once per interval with two engines started on one database', async () => {
    // PGlite belongs to one process; two engines over its one connection still share the schedule.
    let count = 0;
    const tick = defineJob({
      name: 'test.tick',
      payload: z.object({}),
      policy: 'singleton',
      schedule: { cron: '* * * * *', payload: {} },
      async run() {
        count += 1;
      },
    });
    // The cron fires once a minute: start early in a minute, so the run and the 4 s after it stay in
    // that minute (a second, rightful run in the next minute would otherwise count as a double).
    const second = new Date().getSeconds();
    if (second > 30) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    await Promise.all([startEngine([tick]), startEngine([tick])]);
    await waitFor(() => count > 0);
    // Both engines checked the cron (every second here) several times in this minute.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(count).toBe(1);
  }, 75_000);

  it('a busy worker takes its next job at once, not after its polling interval', async () => {
    const done: number[] = [];
    const quick = defineJob({
      name: 'test.quick',
      payload: z.object({ n: z.number() }),
      async run() {
        done.push(Date.now());
      },
    });
    // One worker polling every 3 s: waiting that long between jobs, six would take 15 s or more.
    await startEngine([quick], 'all', 3);
    for (let n = 0; n < 6; n++) await enqueue(system.db, quick, { n });
    await waitFor(() => done.length === 6, 20_000);
    expect((done[5] ?? 0) - (done[0] ?? 0)).toBeLessThan(6000);
  }, 30_000);
});
