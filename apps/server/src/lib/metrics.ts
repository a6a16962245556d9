/**
 * Prometheus figures at GET /metrics (prom-client; record 159): HTTP duration by route pattern and status,
 * jobs by queue and state, delivery states, import lines, database pool use and the process's own.
 *
 * Counters and histograms live in this process; job, delivery and pool figures are read when scraped,
 * so every instance shows the same job and delivery figures (they are the database's) and its own pool.
 */
import { timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import client from 'prom-client';
import type { AppEnv } from './context';
import { AppError } from './errors';
import { rows } from './sql';

const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'tunedrop_process_' });

const httpDuration = new client.Histogram({
  name: 'tunedrop_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern (not the raw path) and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const importLines = new client.Counter({
  name: 'tunedrop_import_lines_total',
  help: 'Royalty report lines read by imports in this process (rate() gives lines per second)',
  registers: [registry],
});

const jobFailures = new client.Counter({
  name: 'tunedrop_job_failures_total',
  help: 'Job runs that failed (threw or timed out) in this process, by queue',
  labelNames: ['queue'] as const,
  registers: [registry],
});

const jobs = new client.Gauge({
  name: 'tunedrop_jobs',
  help: "Jobs in the job engine's table by queue and state (created, retry, active, completed, cancelled, failed)",
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});

const jobEngineUp = new client.Gauge({
  name: 'tunedrop_job_engine_up',
  help: '1 when the job engine started and answers, 0 otherwise',
  registers: [registry],
});

const deliveries = new client.Gauge({
  name: 'tunedrop_deliveries',
  help: 'Deliveries (release and target) by state',
  labelNames: ['state'] as const,
  registers: [registry],
});

const pool = new client.Gauge({
  name: 'tunedrop_db_pool_connections',
  help: 'node-postgres pool of this process: total, idle and waiting (requests queued for a connection); absent on the embedded PGlite, a single connection with no pool',
  labelNames: ['state'] as const,
  registers: [registry],
});

const database = new client.Gauge({
  name: 'tunedrop_database_info',
  help: 'The database this process uses: kind="postgres" (a pool) or kind="pglite" (one embedded connection, no pool figures)',
  labelNames: ['kind'] as const,
  registers: [registry],
});

/** Called by the request middleware once a request is answered. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpDuration.observe({ method, route: route || 'unmatched', status: String(status) }, seconds);
}

/** Royalty imports call this with each chunk of lines they read (issue 24: import lines per second). */
export function recordImportLines(count: number): void {
  if (count > 0) importLines.inc(count);
}

/** The job engine calls this for each failed run. */
export function recordJobFailure(queue: string): void {
  jobFailures.inc({ queue });
}

/** Reads the figures that live in the database and the pool, then renders every metric. */
async function render(c: Context<AppEnv>): Promise<string> {
  const deps = c.var.deps;
  database.reset();
  database.set({ kind: deps.database.kind }, 1);
  pool.reset();
  if (deps.database.kind === 'postgres') {
    const { totalCount, idleCount, waitingCount } = deps.database.pool;
    pool.set({ state: 'total' }, totalCount);
    pool.set({ state: 'idle' }, idleCount);
    pool.set({ state: 'waiting' }, waitingCount);
  }
  deliveries.reset();
  const states = await rows<{ state: string; count: number }>(
    deps.db,
    sql`select state, count(*)::int as count from deliveries group by state`,
  );
  for (const row of states) deliveries.set({ state: row.state }, Number(row.count));
  jobs.reset();
  const engine = deps.jobs;
  if (engine) {
    const isUp = engine.isReady();
    jobEngineUp.set(isUp ? 1 : 0);
    if (isUp) {
      for (const row of await engine.counts()) jobs.set({ queue: row.queue, state: row.state }, row.count);
    }
  } else {
    jobEngineUp.set(0);
  }
  return registry.metrics();
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Who may read /metrics (record 159): with METRICS_TOKEN set, a caller sending it as a bearer token;
 * without it, only a caller on this machine's loopback, and only when no proxy is trusted (behind a proxy
 * on the same host every request comes from loopback).
 */
function mayRead(c: Context<AppEnv>): boolean {
  const { METRICS_TOKEN, TRUST_PROXY } = c.var.deps.config;
  if (METRICS_TOKEN) {
    const given = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    const expected = Buffer.from(METRICS_TOKEN);
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
  if (TRUST_PROXY === '1') return false;
  try {
    return LOOPBACK.has(getConnInfo(c).remote.address ?? '');
  } catch {
    // An in-process request (tests) has no socket: not loopback.
    return false;
  }
}

export async function metricsHandler(c: Context<AppEnv>): Promise<Response> {
  if (!mayRead(c)) {
    throw new AppError(
      'forbidden',
      c.var.deps.config.METRICS_TOKEN
        ? 'Metrics need the METRICS_TOKEN as a bearer token.'
        : 'Metrics are served only to this machine (loopback) unless METRICS_TOKEN is set.',
      403,
    );
  }
  const body = await render(c);
  return c.body(body, 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
}
