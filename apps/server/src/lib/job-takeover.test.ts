/**
 * The job engine's worker loop (record 217) on the test's database, PGlite or PostgreSQL: a waiting job
 * whose key runs never blocks its queue; a run whose worker stopped is failed, counted and retried at
 * once with its `takeOver` hook; a run past its expiry is counted; stop drains, then hands over; the
 * request that enqueued a job is named in the job's log lines.
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { inlineJob } from '../test-support/jobs';
import { createJobEngine, enqueue, type FailureReason, type JobEngine } from './jobs';
import { createLogger } from './logger';
import { runWithRequestContext } from './request-context';
import { rows } from './sql';

let system: TestSystem;
const engines: JobEngine[] = [];

beforeAll(async () => {
  system = await createTestSystem();
}, 60_000);

afterAll(async () => {
  for (const engine of engines) await engine.stop({ timeoutMs: 200 });
  await system?.close();
});

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 8000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
};

const failures: [string, FailureReason][] = [];

async function startEngine(
  jobs: Parameters<typeof createJobEngine>[0]['jobs'],
  logger = createLogger('silent'),
): Promise<JobEngine> {
  const engine = createJobEngine({
    role: 'all',
    jobs,
    deps: {},
    logger,
    database: system.database,
    databaseUrl: system.config.DATABASE_URL,
    pollingIntervalSeconds: 0.2,
    heartbeat: { heartbeatMs: 200, staleMs: 1000 },
    onJobFailed: (queue, reason) => failures.push([queue, reason]),
  });
  engines.push(engine);
  await engine.start();
  return engine;
}

type JobRow = { id: string; state: string; retryCount: number; isDue: boolean; singletonKey: string | null };
const jobsOf = (name: string) =>
  rows<JobRow>(
    system.db,
    sql`select id, state, retry_count, singleton_key, start_after <= now() as is_due
        from pgboss.job where name = ${name} order by created_on`,
  );

/** Creates the queues (as any instance does at start) without running anything. */
async function createQueues(jobs: Parameters<typeof createJobEngine>[0]['jobs']): Promise<void> {
  const web = createJobEngine({
    role: 'web',
    jobs,
    deps: {},
    logger: createLogger('silent'),
    database: system.database,
    databaseUrl: system.config.DATABASE_URL,
  });
  await web.start();
  await web.stop();
}

/** A live worker's heartbeat on the job's current run (ahead of time, so it stays fresh for the test). */
const beatFor = (id: string | null) =>
  system.db.execute(
    sql`insert into job_runs (job_id, started_on, queue, worker, beat_at)
        select id, started_on, name, 'alive elsewhere', now() + interval '1 hour' from pgboss.job where id = ${id}`,
  );

/** What a worker that died mid-run leaves: the job active since `secondsAgo`, no heartbeat row. */
const markActive = (id: string, secondsAgo: number) =>
  system.db.execute(
    sql`update pgboss.job set state = 'active', started_on = now() - make_interval(secs => ${secondsAgo})
        where id = ${id}`,
  );

describe('job engine worker loop', () => {
  it('a waiting job whose key has a run in progress never blocks other jobs of its queue', async () => {
    const ran: string[] = [];
    const keyed = inlineJob({
      name: 'test.keyed',
      payload: z.object({ key: z.string() }),
      policy: 'stately',
      async run({ key }) {
        ran.push(key);
      },
    });
    await createQueues([keyed]);
    const running = await enqueue(system.db, keyed, { key: 'a' }, { singletonKey: 'a' });
    // Another worker, alive, runs `a`...
    await markActive(running ?? '', 0);
    await beatFor(running);
    // ...when `a` is queued again (the delivery sweep did this for an expired lease), then `b`.
    expect(await enqueue(system.db, keyed, { key: 'a' }, { singletonKey: 'a' })).not.toBeNull();
    await enqueue(system.db, keyed, { key: 'b' }, { singletonKey: 'b' });
    await startEngine([keyed]);
    await waitFor(() => ran.includes('b'), 5000);
    // `a` waits for its run in progress, and never runs twice at once.
    expect(ran).toEqual(['b']);
    expect(
      (await jobsOf('test.keyed')).filter((job) => job.singletonKey === 'a').map((job) => job.state),
    ).toEqual(['active', 'created']);
  });

  it('a run whose worker stopped is failed, counted and retried at once, after its takeOver hook', async () => {
    const ran: { retryCount: number }[] = [];
    const tookOver: { id: string; jobId: string }[] = [];
    const orphan = inlineJob({
      name: 'test.orphan',
      payload: z.object({ id: z.string() }),
      policy: 'stately',
      // A crash is not the handler's failure: its retry must not wait a backoff.
      retry: { limit: 3, delaySeconds: 600, backoff: true },
      async run(_payload, { retryCount }) {
        ran.push({ retryCount });
      },
      async takeOver({ id }, { jobId }) {
        tookOver.push({ id, jobId });
      },
    });
    await createQueues([orphan]);
    const jobId = (await enqueue(system.db, orphan, { id: 'x' }, { singletonKey: 'x' })) ?? '';
    await markActive(jobId, 5);
    const failedBefore = failures.length;
    await startEngine([orphan]);
    await waitFor(() => ran.length > 0, 5000);
    expect(ran).toEqual([{ retryCount: 1 }]);
    expect(tookOver).toEqual([{ id: 'x', jobId }]);
    expect(failures.slice(failedBefore).filter(([queue]) => queue === 'test.orphan')).toEqual([
      ['test.orphan', 'worker_lost'],
    ]);
    await waitFor(async () => (await jobsOf('test.orphan'))[0]?.state === 'completed');
  });

  it('a run with a fresh heartbeat is left alone; one past its expiry is failed as expired', async () => {
    const slow = inlineJob({
      name: 'test.expiring',
      payload: z.object({}),
      expireInSeconds: 3,
      retry: { limit: 2, delaySeconds: 60 },
      async run() {},
    });
    await createQueues([slow]);
    const fresh = await enqueue(system.db, slow, {});
    const old = await enqueue(system.db, slow, {});
    await markActive(fresh ?? '', 0);
    await markActive(old ?? '', 10);
    await beatFor(fresh);
    await beatFor(old);
    const failedBefore = failures.length;
    // A worker of this queue that takes no job itself (concurrency 0) still checks it.
    await startEngine([{ ...slow, concurrency: 0 }]);
    await waitFor(() => failures.length > failedBefore);
    expect(failures.slice(failedBefore)).toEqual([['test.expiring', 'expired']]);
    const states = await jobsOf('test.expiring');
    expect(states.map((job) => [job.id, job.state, job.isDue])).toEqual([
      [fresh, 'active', true],
      // Retried with the queue's delay (the run may still be going), not at once.
      [old, 'retry', false],
    ]);
  });

  it('stop lets a run finish within the drain time and hands a longer one over at once', async () => {
    let release: () => void = () => undefined;
    let finishQuick: () => void = () => undefined;
    const quickMayFinish = new Promise<void>((resolve) => {
      finishQuick = resolve;
    });
    const started: string[] = [];
    const handedOver: string[] = [];
    const draining = inlineJob({
      name: 'test.draining',
      payload: z.object({ name: z.string() }),
      concurrency: 2,
      retry: { limit: 3, delaySeconds: 600 },
      async run({ name }) {
        started.push(name);
        // The quick run ends once the drain has begun, within its time; the stuck one never does.
        if (name === 'quick') await quickMayFinish;
        else await new Promise<void>((resolve) => (release = resolve));
      },
      async takeOver({ name }) {
        handedOver.push(name);
      },
    });
    const engine = await startEngine([draining]);
    await enqueue(system.db, draining, { name: 'quick' });
    await enqueue(system.db, draining, { name: 'stuck' });
    await waitFor(() => started.length === 2);
    const stopAt = Date.now();
    const stopping = engine.stop({ timeoutMs: 1000 });
    finishQuick();
    await stopping;
    expect(Date.now() - stopAt).toBeLessThan(3000);
    // No job is fetched once the drain began.
    await enqueue(system.db, draining, { name: 'later' });
    const states = await rows<{ name: string; state: string; isDue: boolean }>(
      system.db,
      sql`select data->>'name' as name, state, start_after <= now() as is_due
          from pgboss.job where name = 'test.draining' order by created_on`,
    );
    expect(states).toEqual([
      { name: 'quick', state: 'completed', isDue: true },
      // Handed over: another worker may take it now (no backoff), its lease released by the hook.
      { name: 'stuck', state: 'retry', isDue: true },
      { name: 'later', state: 'created', isDue: true },
    ]);
    expect(handedOver).toEqual(['stuck']);
    release();
  });

  it('a job enqueued while a request runs names the request in its log lines', async () => {
    const lines: { msg: string; reqId?: string; job?: string }[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
        done();
      },
    });
    const seen: unknown[] = [];
    const traced = inlineJob({
      name: 'test.traced',
      // Strict: the request id travels beside the payload, never in it.
      payload: z.strictObject({ n: z.number() }),
      async run(payload, { logger }) {
        seen.push(payload);
        logger.info('inside the job');
      },
    });
    await startEngine([traced], createLogger('info', destination));
    await runWithRequestContext({ requestId: 'req-from-the-request' }, () =>
      enqueue(system.db, traced, { n: 1 }),
    );
    await enqueue(system.db, traced, { n: 2 });
    await waitFor(() => lines.filter((line) => line.msg === 'inside the job').length === 2);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    const inside = lines.filter((line) => line.msg === 'inside the job');
    expect(inside.map((line) => [line.job, line.reqId])).toEqual([
      ['test.traced', 'req-from-the-request'],
      ['test.traced', undefined],
    ]);
  });
});
