/**
 * Health (record 159): GET /api/health answers `{"status":"ok"}` once migrations have run (a contract);
 * /live says the process serves HTTP and touches nothing else; /ready says this instance can do its
 * work: the database answers within a second, every migration is applied and the job engine started.
 * The database's answer is shared by both for half a second (record 171), so a load balancer's polling
 * costs at most two small queries a second per instance.
 */

import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { Hono } from 'hono';
import type { Deps } from '../../deps';
import { access } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { migrationsFolder } from '../../lib/paths';
import { rows } from '../../lib/sql';

/** A readiness probe answers within this, whatever the database does. */
const CHECK_TIMEOUT_MS = 1000;
/**
 * How long a good answer of the database is trusted (record 171). Under a second, so readiness fails
 * within a second of the database going away: a refused or closed connection is seen by the first probe
 * after this, a hanging one by CHECK_TIMEOUT_MS after that probe starts. Failures are never kept.
 */
const ANSWER_TTL_MS = 500;

type Check = 'ok' | 'failed' | 'timeout' | 'pending';
/** `none`: this system runs no job engine (tests that start none); it does not fail readiness. */
type Checks = { database: Check; migrations: Check; jobs: Check | 'none'; shutdown: 'ok' | 'draining' };

let expectedMigrations: number[] | null = null;
function migrationTimes(): number[] {
  expectedMigrations ??= readMigrationFiles({ migrationsFolder }).map((migration) => migration.folderMillis);
  return expectedMigrations;
}

/**
 * One probe at a time per database: while a probe hangs (a database gone away), later calls share it
 * rather than each taking another pool connection.
 */
const inFlight = new WeakMap<object, Promise<Omit<Checks, 'jobs' | 'shutdown'>>>();
/** The last good answer per database (pool-level: every request of this instance shares it). */
const lastAnswer = new WeakMap<object, { at: number; checks: Omit<Checks, 'jobs' | 'shutdown'> }>();

async function probeDatabase(deps: Deps): Promise<Omit<Checks, 'jobs' | 'shutdown'>> {
  const applied = await rows<{ createdAt: string | number }>(
    deps.db,
    sql`select created_at from drizzle.__drizzle_migrations`,
  );
  const done = new Set(applied.map((row) => Number(row.createdAt)));
  const isMigrated = migrationTimes().every((time) => done.has(time));
  return { database: 'ok', migrations: isMigrated ? 'ok' : 'pending' };
}

async function checkDatabase(deps: Deps): Promise<Omit<Checks, 'jobs' | 'shutdown'>> {
  const last = lastAnswer.get(deps.db);
  if (last && Date.now() - last.at < ANSWER_TTL_MS) return last.checks;
  let probe = inFlight.get(deps.db);
  if (!probe) {
    const startedAt = Date.now();
    probe = probeDatabase(deps)
      .then((checks) => {
        // Trusted from when the question was asked, not when the answer came.
        lastAnswer.set(deps.db, { at: startedAt, checks });
        return checks;
      })
      .catch((): Omit<Checks, 'jobs' | 'shutdown'> => {
        lastAnswer.delete(deps.db);
        return { database: 'failed', migrations: 'failed' };
      })
      .finally(() => inFlight.delete(deps.db));
    inFlight.set(deps.db, probe);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Omit<Checks, 'jobs' | 'shutdown'>>((resolve) => {
    timer = setTimeout(() => resolve({ database: 'timeout', migrations: 'timeout' }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes = new Hono<AppEnv>()
  .get('/', access('public'), async (c) => {
    const { database } = await checkDatabase(c.get('deps'));
    if (database === 'ok') return c.json({ status: 'ok' as const }, 200);
    return c.json(
      { status: 'unavailable' as const, error: { code: 'not_ready', message: 'Not ready: database' } },
      503,
    );
  })
  .get('/live', access('public'), (c) => c.json({ status: 'ok' as const }, 200))
  .get('/ready', access('public'), async (c) => {
    const deps = c.get('deps');
    const database = await checkDatabase(deps);
    const jobs = deps.jobs ? (deps.jobs.isReady() ? 'ok' : 'pending') : 'none';
    // SIGTERM received (record 217): this instance drains; send nothing new its way.
    const shutdown = deps.shutdown?.isDraining ? 'draining' : 'ok';
    const checks: Checks = { ...database, jobs, shutdown };
    const failed = (Object.keys(checks) as (keyof Checks)[]).filter(
      (name) => checks[name] !== 'ok' && checks[name] !== 'none',
    );
    if (failed.length === 0) return c.json({ status: 'ok' as const, checks }, 200);
    return c.json(
      {
        status: 'unavailable' as const,
        checks,
        error: { code: 'not_ready', message: `Not ready: ${failed.join(', ')}` },
      },
      503,
    );
  });
