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
import type { FailureReason } from './job-runner';
import { isAddressAllowed, metricsAllowList } from './metrics-access';
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
  help: 'Job runs failed by this process, by queue and reason: error (the handler threw), expired (ran past its expiry), worker_lost (its worker stopped sending heartbeats: crashed, killed or frozen)',
  labelNames: ['queue', 'reason'] as const,
  registers: [registry],
});

const oldestWaiting = new client.Gauge({
  name: 'tunedrop_job_oldest_waiting_seconds',
  help: 'Per queue: seconds since the oldest job that is due and not running became due (0 when none)',
  labelNames: ['queue'] as const,
  registers: [registry],
});

const oldestActive = new client.Gauge({
  name: 'tunedrop_job_oldest_active_seconds',
  help: 'Per queue: seconds since the oldest running job started (0 when none)',
  labelNames: ['queue'] as const,
  registers: [registry],
});

const jobExpiry = new client.Gauge({
  name: 'tunedrop_job_expiry_seconds',
  help: "Per queue: how long a run may take before it is failed and retried (compare the oldest active job's age)",
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

const importStalled = new client.Gauge({
  name: 'tunedrop_import_stalled_seconds',
  help: 'Seconds since the least recently progressing royalty import in a running phase (queued, reading, staging, posting) last moved; 0 when none runs',
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

const databaseUp = new client.Gauge({
  name: 'tunedrop_database_up',
  help: "1 when the database answered this scrape's queries within a second, 0 when it failed or hung (its figures are then missing or stale)",
  registers: [registry],
});

/** A scrape waits this long for the database's figures, then answers without them (record 223). */
const DATABASE_FIGURES_TIMEOUT_MS = 1000;

/** Called by the request middleware once a request is answered. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpDuration.observe({ method, route: route || 'unmatched', status: String(status) }, seconds);
}

/** Royalty imports call this with each chunk of lines they read (issue 24: import lines per second). */
export function recordImportLines(count: number): void {
  if (count > 0) importLines.inc(count);
}

/** The job engine calls this for each run it failed, whatever failed it (record 217). */
export function recordJobFailure(queue: string, reason: FailureReason): void {
  jobFailures.inc({ queue, reason });
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
  // Imports without progress (alert rule of record 225): progress_at moves with each phase and chunk.
  const [stalled] = await rows<{ seconds: number | string | null }>(
    deps.db,
    sql`select extract(epoch from now() - min(progress_at))::float8 as seconds
          from royalty_imports where phase in ('queued', 'reading', 'staging', 'posting')`,
  );
  importStalled.set(Math.max(0, Number(stalled?.seconds ?? 0)));
  jobs.reset();
  oldestWaiting.reset();
  oldestActive.reset();
  jobExpiry.reset();
  const engine = deps.jobs;
  if (engine) {
    const isUp = engine.isReady();
    jobEngineUp.set(isUp ? 1 : 0);
    if (isUp) {
      for (const row of await engine.counts()) jobs.set({ queue: row.queue, state: row.state }, row.count);
      for (const row of await engine.ages()) {
        oldestWaiting.set({ queue: row.queue }, row.waitingSeconds);
        oldestActive.set({ queue: row.queue }, row.activeSeconds);
        jobExpiry.set({ queue: row.queue }, row.expirySeconds);
      }
    }
  } else {
    jobEngineUp.set(0);
  }
  return registry.metrics();
}

/** The rule of record 218 (lib/metrics-access.ts): the bearer token, or a peer address in METRICS_ALLOW. */
function mayRead(c: Context<AppEnv>): boolean {
  const { config } = c.var.deps;
  if (config.METRICS_TOKEN) {
    const given = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    const expected = Buffer.from(config.METRICS_TOKEN);
    const actual = Buffer.from(given);
    if (actual.length === expected.length && timingSafeEqual(actual, expected)) return true;
  }
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    // An in-process request (tests) has no socket: no address.
    return false;
  }
  return isAddressAllowed(metricsAllowList(config), address);
}

export async function metricsHandler(c: Context<AppEnv>): Promise<Response> {
  if (!mayRead(c)) {
    throw new AppError(
      'forbidden',
      'Metrics need the METRICS_TOKEN as a bearer token, or a caller address in METRICS_ALLOW (unset: loopback, unless TRUST_PROXY=1).',
      403,
    );
  }
  // A hung database must not hang the scrape that would show it: its figures wait at most a second.
  let timer: NodeJS.Timeout | undefined;
  const isAnswered = await Promise.race([
    render(c).then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_FIGURES_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  databaseUp.set(isAnswered ? 1 : 0);
  const body = await registry.metrics();
  return c.body(body, 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
}
