/**
 * The production topology's throughput (issue 24). It is not a test; PostgreSQL only.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/topology.ts \
 *     [--releases 500] [--workers 1,2,4] [--concurrency 4] [--import-lines 1000000] [--import-workers 1,2]
 * 1. `releases` approved single-track releases queued at once (a delivery job each) and delivered to a local
 *    OpenSSH sftp server by 1, 2 and 4 worker processes (`TUNEDROP_ROLE=worker`, main.ts under tsx,
 *    `JOBS_CONCURRENCY_DELIVERY_SEND=concurrency` each): releases per minute and the ratio to 1 worker.
 * 2. An `import-lines` royalty report uploaded (202) and read, staged and posted by 1 and 2 worker
 *    processes: lines per second of each phase (one import is one job, so a second worker only helps
 *    several imports at once).
 * The machine this runs on matters: on a small shared one the workers compete with PostgreSQL and sshd
 * for the same cores, so the scaling ratio is a floor.
 *
 * Measured 2026-11-25 (2 shared cores, load average 17, PostgreSQL 15 local), defaults:
 *   deliveries: 1 worker 119 releases/min, 2 workers 234 (×1.97), 4 workers 414 (×3.49). Each worker slot
 *   ran about one job per 2 s: pg-boss 10 waits its polling interval (2 s) after every fetch, even one that
 *   found a job, so these figures are concurrency × 0.5 jobs/s, not the SFTP work (bench/delivery.ts).
 *   import of 1,000,000 lines: 1 worker read+stage 111.5 s (8,968 lines/s), post 23.9 s, total 140 s;
 *   2 workers 99.9 s + 38.7 s, total 141 s (one import is one job). Baseline: 97-122 s inside the HTTP
 *   request before imports were jobs (issue 24), now the upload answers 202 in 3-5 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq, inArray, sql } from 'drizzle-orm';
import { deliveries, royaltyImports } from '../apps/server/src/db/schema';
import { queueNewDeliveries } from '../apps/server/src/modules/delivery/planning';
import { createTarget } from '../apps/server/src/modules/delivery/targets';
import { createTestRelease, createTestUser } from '../apps/server/src/test-support/fixtures';
import { createTestSystem, type TestSystem } from '../apps/server/src/test-support/harness';
import { freePort, startSftpServer } from '../apps/server/src/test-support/sftp';

const { values } = parseArgs({
  options: {
    releases: { type: 'string', default: '500' },
    workers: { type: 'string', default: '1,2,4' },
    concurrency: { type: 'string', default: '4' },
    'import-lines': { type: 'string', default: '1000000' },
    'import-workers': { type: 'string', default: '1,2' },
  },
});
const RELEASES = Number(values.releases);
const WORKER_COUNTS = values.workers.split(',').map(Number);
const CONCURRENCY = Number(values.concurrency);
const IMPORT_LINES = Number(values['import-lines']);
const IMPORT_WORKER_COUNTS = values['import-workers'].split(',').filter(Boolean).map(Number);
const mainFile = path.resolve(import.meta.dirname, '../apps/server/src/main.ts');

if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL must name a PostgreSQL server (a fresh database is made on it)');
  process.exit(1);
}

type Worker = { child: ChildProcess; url: string; output: () => string; stop: () => Promise<void> };

async function startWorker(system: TestSystem, name: string): Promise<Worker> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      TUNEDROP_ROLE: 'worker',
      DATABASE_URL: system.config.DATABASE_URL,
      APP_SECRET: system.config.appSecret,
      APP_URL: system.config.appUrl,
      // The same DATA_DIR as the bench's own system: the releases' files are in its local storage.
      DATA_DIR: system.dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      JOBS_CONCURRENCY_DELIVERY_SEND: String(CONCURRENCY),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const worker: Worker = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${output}`);
    const status = await fetch(`${worker.url}/api/health/ready`)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return worker;
    if (Date.now() > deadline) throw new Error(`${name} not ready: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function deliveriesBench(system: TestSystem, sftpRoot: string, artistId: string) {
  const ids: string[] = [];
  for (let i = 0; i < RELEASES; i++) {
    const { releaseId } = await createTestRelease(system, artistId, {
      status: 'approved',
      trackCount: 1,
      distributionStores: ['spotify'],
      releaseDate: '2099-01-01',
    });
    ids.push(releaseId);
  }
  const rates = new Map<number, number>();
  console.info(
    `\n1. ${RELEASES} single-track deliveries to a local SFTP server (concurrency ${CONCURRENCY} per worker)`,
  );
  for (const count of WORKER_COUNTS) {
    await system.db.delete(deliveries);
    await system.db.execute(sql`delete from pgboss.job where name like 'delivery.%'`);
    fs.rmSync(path.join(sftpRoot, 'topology'), { recursive: true, force: true });
    fs.mkdirSync(path.join(sftpRoot, 'topology'));
    const workers = await Promise.all(
      Array.from({ length: count }, (_, i) => startWorker(system, `worker-${i + 1}`)),
    );
    const started = performance.now();
    for (const id of ids) await queueNewDeliveries(system.db, id);
    await until(
      async () => {
        const [row] = await system.db
          .select({ n: sql<number>`count(*)::int` })
          .from(deliveries)
          .where(eq(deliveries.state, 'delivered'));
        return (row?.n ?? 0) >= RELEASES;
      },
      60 * 60_000,
      `${RELEASES} deliveries with ${count} workers`,
    );
    const minutes = (performance.now() - started) / 60_000;
    const perMinute = RELEASES / minutes;
    rates.set(count, perMinute);
    const ratio = perMinute / (rates.get(WORKER_COUNTS[0] ?? 1) ?? perMinute);
    console.info(
      `  ${count} worker${count === 1 ? ' ' : 's'}: ${(minutes * 60).toFixed(1)} s, ${perMinute.toFixed(0)} releases/min, ×${ratio.toFixed(2)} of ${WORKER_COUNTS[0]}`,
    );
    await Promise.all(workers.map((worker) => worker.stop()));
  }
  await system.db.delete(deliveries).where(inArray(deliveries.releaseId, ids));
}

async function importBench(system: TestSystem, adminCookie: string, isrc: string) {
  console.info(
    `\n2. a ${IMPORT_LINES.toLocaleString('en')}-line royalty report: upload (202), read and stage, post`,
  );
  const header =
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
  for (const count of IMPORT_WORKER_COUNTS) {
    const store = `Bench${count}`;
    const line = `2025-05-02\t2025-03\t${store}\tBench\tSong\t${isrc}\t\t10\t100\tSong\tUS\t0\t0.01`;
    const report = `${header}\n${`${line}\n`.repeat(IMPORT_LINES)}`;
    const workers = await Promise.all(
      Array.from({ length: count }, (_, i) => startWorker(system, `worker-${i + 1}`)),
    );
    const started = performance.now();
    const uploaded = await system.request(`/api/admin/royalties/imports?filename=bench-${count}.tsv`, {
      method: 'POST',
      cookie: adminCookie,
      headers: { 'content-type': 'application/octet-stream' },
      body: report,
    });
    if (uploaded.status !== 202)
      throw new Error(`upload answered ${uploaded.status}: ${await uploaded.text()}`);
    const { id } = (await uploaded.json()) as { id: string };
    const accepted = performance.now();
    const phase = async () =>
      (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0]?.phase;
    await until(async () => (await phase()) === 'ready', 60 * 60_000, 'staged');
    const staged = performance.now();
    const posting = await system.request(`/api/admin/royalties/imports/${id}/post`, {
      method: 'POST',
      cookie: adminCookie,
    });
    if (posting.status !== 202) throw new Error(`post answered ${posting.status}: ${await posting.text()}`);
    await until(async () => (await phase()) === 'posted', 60 * 60_000, 'posted');
    const posted = performance.now();
    const rate = (ms: number) => `${Math.round(IMPORT_LINES / (ms / 1000)).toLocaleString('en')} lines/s`;
    console.info(
      `  ${count} worker${count === 1 ? ' ' : 's'}: upload ${((accepted - started) / 1000).toFixed(1)} s, read+stage ${((staged - accepted) / 1000).toFixed(1)} s (${rate(staged - accepted)}), post ${((posted - staged) / 1000).toFixed(1)} s (${rate(posted - staged)}), total ${((posted - started) / 1000).toFixed(1)} s`,
    );
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

async function main() {
  const sftp = await startSftpServer();
  const system = await createTestSystem({ LOG_LEVEL: 'silent', RATE_LIMITS: 'off' });
  try {
    console.info(
      `Topology bench: ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(1)}, Node ${process.version}`,
    );
    const artist = await createTestUser(system, { email: `topology-${Date.now()}@example.com` });
    await createTarget(system.db, system.config, {
      name: 'Topology SFTP',
      url: sftp.url('topology'),
      privateKey: sftp.privateKey,
      hostKey: sftp.hostKeyFingerprint(),
      dpid: 'PADPIDA2009101501Y',
      platforms: 'all',
      profile: 'release',
    });
    if (RELEASES > 0 && WORKER_COUNTS.length > 0) await deliveriesBench(system, sftp.root, artist.userId);
    if (IMPORT_LINES > 0 && IMPORT_WORKER_COUNTS.length > 0) {
      const admin = await system.signedInUser({ roles: ['admin'], email: `admin-${Date.now()}@example.com` });
      const isrc = 'QZBNC2400001';
      await createTestRelease(system, artist.userId, { status: 'live', isrcs: [isrc] });
      await importBench(system, admin.cookie, isrc);
    }
  } finally {
    await system.close();
    await sftp.stop();
  }
}

await main();
