/**
 * The job engine (lib/jobs.ts) on the test's database, PGlite or PostgreSQL: jobs created in a
 * transaction exist only if it commits, singleton keys refuse a second, failures retry with backoff,
 * role `web` runs nothing, and a schedule runs once per interval however many engines run.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { inlineJob } from '../test-support/jobs';
import { createJobEngine, enqueue, type JobEngine } from './jobs';
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
    const echo = inlineJob({
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
    // The rolled-back job left no row to run: the committed one is the only job, and it completed.
    await waitFor(async () => (await jobStates('test.echo'))[0]?.state === 'completed');
    expect(await jobStates('test.echo')).toEqual([{ state: 'completed', retryCount: 0 }]);
    expect(seen).toEqual(['committed']);
    // A payload its schema refuses is never enqueued.
    await expect(enqueue(system.db, echo, { text: 1 } as unknown as { text: string })).rejects.toThrow();
  });

  it('a job enqueued in a rolled-back transaction leaves no job; a committed one leaves exactly one', async () => {
    const noted = inlineJob({ name: 'test.noted', payload: z.object({ n: z.number() }), async run() {} });
    // Role web: the queue is created, nothing runs, so the jobs are counted as enqueued.
    await startEngine([noted], 'web');
    const count = async () => (await jobStates('test.noted')).length;
    const failed = await system.db
      .transaction(async (tx) => {
        const id = await enqueue(tx, noted, { n: 1 });
        expect(id).toEqual(expect.any(String));
        throw new Error('the caller failed after enqueueing');
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(await count()).toBe(0);
    const id = await system.db.transaction((tx) => enqueue(tx, noted, { n: 2 }));
    const stored = await rows<{ id: string; data: unknown }>(
      system.db,
      sql`select id, data from pgboss.job where name = 'test.noted'`,
    );
    expect(stored).toEqual([{ id, data: { n: 2 } }]);
  });

  it('a singleton key refuses a second waiting job, even from two transactions at once', async () => {
    const once = inlineJob({
      name: 'test.once',
      payload: z.object({}),
      policy: 'stately',
      async run() {},
    });
    // Queues are made at start: a web engine (enqueue only) makes this one.
    const web = await startEngine([once], 'web');
    const ids = await Promise.all(
      [1, 2].map(() => system.db.transaction((tx) => enqueue(tx, once, {}, { singletonKey: 'release-1' }))),
    );
    expect(ids.filter(Boolean)).toHaveLength(1);
    expect(await jobStates('test.once')).toEqual([{ state: 'created', retryCount: 0 }]);
    // Role web created the queue but runs nothing: it started no worker loop, the one thing that takes jobs.
    expect(web.isWorking).toBe(false);
    expect(web.runner).toBeNull();
  });

  it('a failing job is retried with backoff, then given up', async () => {
    const runs: number[] = [];
    const failing = inlineJob({
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
    // Backoff with pg-boss's jitter: the first wait is 1-2 s, the second 2-4 s (a fixed 1 s delay polled
    // every 0.5 s never waits 1.9 s). The two ranges touch, so the second need not be the longer one.
    const [a = 0, b = 0, c = 0] = runs;
    expect(b - a).toBeGreaterThanOrEqual(900);
    expect(c - b).toBeGreaterThanOrEqual(1_900);
  }, 30_000);

  it('a schedule runs once per interval with two engines started on one database', async () => {
    // PGlite belongs to one process; two engines over its one connection still share the schedule.
    let count = 0;
    const tick = inlineJob({
      name: 'test.tick',
      payload: z.object({}),
      policy: 'singleton',
      schedule: { cron: '* * * * *', payload: {} },
      async run() {
        count += 1;
      },
    });
    // The cron fires once a minute (pg-boss sends a minute's run once, whichever engine sees it first).
    // Rather than wait for a minute to start, the test watches a few seconds and allows one run for each
    // minute those seconds touch: 1, or 2 when they cross into the next minute. A schedule run by each
    // engine, or at each check, would be several runs (each engine checks the cron every second here).
    const firstMinute = Math.floor(Date.now() / 60_000);
    await Promise.all([startEngine([tick]), startEngine([tick])]);
    await waitFor(() => count > 0);
    // Wait until the engines have checked the cron three more times after the run (each check stamps
    // pg-boss's cron_on, once a second across the engines), not for a fixed time.
    const checks = new Set<string>();
    await waitFor(async () => {
      const [version] = await rows<{ cronOn: string | null }>(
        system.db,
        sql`select cron_on::text from pgboss.version`,
      );
      if (version?.cronOn) checks.add(version.cronOn);
      return checks.size > 3;
    }, 20_000);
    const minutesTouched = Math.floor(Date.now() / 60_000) - firstMinute + 1;
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(minutesTouched);
  }, 30_000);

  it('a busy worker takes its next job at once, not after its polling interval', async () => {
    const done: number[] = [];
    const quick = inlineJob({
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
