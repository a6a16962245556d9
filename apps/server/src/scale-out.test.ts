/**
 * The production topology as plain processes (issue 24, record 160): 2 web and 2 worker processes
 * (`TUNEDROP_ROLE`, the bundled `main.js`) on one fresh PostgreSQL database, the S3 test server as the
 * bucket and a real sshd as the delivery targets' store. What it proves:
 * (a) 50 releases approved, each approval sent twice at once, one to each web instance → exactly one
 *     package per release and target on the SFTP store, delivered by the workers;
 * (d) a worker killed (SIGKILL) while it writes a package to a slow store → another release queued right
 *     after, while the dead run still holds its job, is delivered within 30 s, the killed delivery within
 *     2 minutes (its run taken over by the other worker once its heartbeat stopped, record 217), each
 *     package written once;
 * (c) an upload whose PATCH requests alternate between the two web instances, one killed (SIGKILL)
 *     halfway through a PATCH → resumed on the other, the stored bytes identical (MD5).
 * (b) a worker killed (SIGKILL) in each phase of a 200,000-line royalty import (reading, then checking, its
 *     last step) and again while it posts → each run taken over by another worker within a minute, the
 *     import staged and posted once, every line once, the ledger exact to the cent;
 * (e) a hung database (a TCP proxy that stops forwarding) under a web instance → /api/me answers 503
 *     within the configured timeouts, /metrics still answers, and the instance recovers when it resumes.
 * PostgreSQL only (PGlite belongs to one process): it runs in CI's server suite on PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryTargets, profiles, releases, royaltyImports, uploads } from './db/schema';
import { rows } from './lib/sql';
import { staff } from './test-support/admin-fixtures';
import { chunk, riff } from './test-support/builder-fixtures';
import { createTestRelease } from './test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from './test-support/harness';
import { makeWav } from './test-support/media';
import { type S3TestServer, startS3TestServer } from './test-support/s3-server';
import { bundledServer } from './test-support/server-bundle';
import { freePort, readDeliveries, type SftpServer, startSftpServer } from './test-support/sftp';

const isPostgres = Boolean(process.env.DATABASE_URL);
const MiB = 1024 * 1024;
const md5 = (body: Buffer) => createHash('md5').update(body).digest('hex');
const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');
const DPID = 'PADPIDA2009101501Y';

type Instance = {
  name: string;
  url: string;
  child: ChildProcess;
  /** The last lines it printed, for failure messages. */
  output: () => string;
  /** SIGKILL: no clean-up, connections and locks dropped as a crash would. */
  kill: () => Promise<void>;
  stop: () => Promise<void>;
};

let system: TestSystem;
let s3: S3TestServer;
let sftp: SftpServer;
let people: Awaited<ReturnType<typeof staff>>;
let workDir: string;
const instances: Instance[] = [];

async function startInstance(
  name: string,
  role: 'web' | 'worker',
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const dataDir = path.join(workDir, name);
  let output = '';
  const child = spawn(process.execPath, [bundledServer('main')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      NODE_ENV: 'test',
      TUNEDROP_ROLE: role,
      DATABASE_URL: system.config.DATABASE_URL,
      APP_SECRET: system.config.appSecret,
      APP_URL: system.config.appUrl,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      JOBS_CONCURRENCY_DELIVERY_SEND: '2',
      // The stores' sshd listens on loopback, refused to targets by default (record 227).
      DELIVERY_ALLOWED_HOSTS: '127.0.0.1',
      ...s3.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const instance: Instance = {
    name,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  instances.push(instance);
  return instance;
}

/** Ready means: database reachable, migrations applied, job engine started (record 159). */
async function waitReady(instance: Instance, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (instance.child.exitCode !== null) {
      throw new Error(`${instance.name} exited (${instance.child.exitCode}): ${instance.output()}`);
    }
    const status = await fetch(`${instance.url}/api/health/ready`)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${instance.name} not ready: ${instance.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function call(instance: Instance, url: string, init: RequestInit & { cookie: string }): Promise<Response> {
  const { cookie, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set('origin', system.config.appUrl);
  headers.set('cookie', cookie);
  return fetch(`${instance.url}${url}`, { ...rest, headers });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const logs = instances.map((entry) => `--- ${entry.name}\n${entry.output()}`).join('\n');
      throw new Error(`timed out waiting for ${what}\n${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let web1: Instance;
let web2: Instance;
let workers: Instance[];

/**
 * A TCP proxy to `port` that passes uploads at `bytesPerSecond` (downloads at full speed): a slow store.
 * `uploaded()` counts the bytes passed so far.
 */
async function startThrottle(port: number, bytesPerSecond: number) {
  let uploaded = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', close);
      socket.on('error', close);
    }
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      uploaded += chunk.length;
      upstream.write(chunk);
      client.pause();
      setTimeout(() => client.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
  });
  const listenPort = await freePort();
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  return {
    port: listenPort,
    uploaded: () => uploaded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A TCP proxy to PostgreSQL that stops forwarding on hang(): every byte either way is then dropped while the
 * sockets stay open, as when the database's host or the network to it stops answering (record 223).
 */
async function startHangingProxy(target: URL) {
  let isHung = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (data) => {
      if (!isHung) upstream.write(data);
    });
    upstream.on('data', (data) => {
      if (!isHung) client.write(data);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const through = new URL(target);
  through.host = `127.0.0.1:${port}`;
  return {
    url: through.toString(),
    hang: () => {
      isHung = true;
    },
    resume: () => {
      isHung = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!isPostgres)('2 web and 2 worker processes on one PostgreSQL', () => {
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-scale-out-'));
    [s3, sftp] = await Promise.all([startS3TestServer(), startSftpServer()]);
    system = await createTestSystem(s3.env);
    people = await staff(system);
    const settings = await system.request('/api/admin/settings', {
      method: 'PUT',
      cookie: people.admin.cookie,
      json: {
        isrcRegistrant: 'qz-abc',
        upcPrefix: '0614141',
        ddexSenderPartyId: 'PADPIDA2013042401U',
        ddexSenderName: 'Tunedrop',
      },
    });
    expect(settings.status).toBe(200);
    for (const store of ['store-a', 'store-b']) {
      fs.mkdirSync(path.join(sftp.root, store));
      const target = await system.request('/api/admin/delivery/targets', {
        method: 'POST',
        cookie: people.admin.cookie,
        json: {
          name: store,
          url: sftp.url(store),
          privateKey: sftp.privateKey,
          hostKey: sftp.hostKeyFingerprint(),
          dpid: DPID,
          platforms: 'all',
          profile: 'release',
        },
      });
      expect(target.status, JSON.stringify(await readJson(target.clone()))).toBe(201);
    }
    const started = await Promise.all([
      startInstance('web-1', 'web'),
      startInstance('web-2', 'web'),
      startInstance('worker-1', 'worker'),
      startInstance('worker-2', 'worker'),
    ]);
    [web1, web2] = started;
    workers = started.slice(2);
    await Promise.all(started.map((instance) => waitReady(instance)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop().catch(() => undefined)));
    await system?.close();
    await Promise.all([s3?.close(), sftp?.stop()]);
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it('(a) 50 releases, each approved twice at once on both web instances: one package per release and target', async () => {
    const releaseIds: string[] = [];
    for (let i = 0; i < 50; i++) {
      const { releaseId } = await createTestRelease(system, people.artist.userId, {
        status: 'pending',
        trackCount: 1,
        title: `Scale ${i}`,
      });
      releaseIds.push(releaseId);
    }
    const statuses = await Promise.all(
      releaseIds.map(async (releaseId) => {
        const answers = await Promise.all(
          [web1, web2].map((instance) =>
            call(instance, `/api/admin/releases/${releaseId}/approve`, {
              method: 'POST',
              cookie: people.moderator.cookie,
            }),
          ),
        );
        return Promise.all(
          answers.map(async (answer) =>
            [200, 409].includes(answer.status) ? answer.status : `${answer.status} ${await answer.text()}`,
          ),
        );
      }),
    );
    const unexpected = statuses.flat().filter((status) => typeof status === 'string');
    expect(unexpected, instances.map((entry) => `--- ${entry.name}\n${entry.output()}`).join('\n')).toEqual(
      [],
    );
    for (const pair of statuses) {
      // One approval wins; the other finds the release already approved (or, approving the same state, is a no-op).
      expect(pair).toContain(200);
      for (const status of pair) expect([200, 409]).toContain(status);
    }
    // A web instance runs no jobs: only the workers deliver.
    await waitFor(
      async () => {
        const rows = await system.db
          .select({ state: deliveries.state })
          .from(deliveries)
          .where(inArray(deliveries.releaseId, releaseIds));
        return rows.length === 100 && rows.every((row) => row.state === 'delivered');
      },
      120_000,
      '100 deliveries delivered',
    );
    const upcs = await system.db
      .select({ upc: releases.upc })
      .from(releases)
      .where(inArray(releases.id, releaseIds));
    expect(upcs).toHaveLength(50);
    for (const store of ['store-a', 'store-b']) {
      const packages = readDeliveries(path.join(sftp.root, store));
      const perRelease = upcs.map(
        ({ upc }) => packages.filter((pkg) => pkg.xml.includes(`<ICPN>${upc}</ICPN>`)).length,
      );
      expect(perRelease).toEqual(upcs.map(() => 1));
      expect(packages).toHaveLength(50);
    }
  }, 180_000);

  it('(d) a worker killed (SIGKILL) mid-delivery: a release queued right after is delivered within 30 s, the killed one within 2 minutes, each package once', async () => {
    // A store behind a throttling proxy, so the kill lands while the package is being written.
    const slow = await startThrottle(sftp.port, 96 * 1024);
    try {
      fs.mkdirSync(path.join(sftp.root, 'store-slow'));
      const target = await system.request('/api/admin/delivery/targets', {
        method: 'POST',
        cookie: people.admin.cookie,
        json: {
          name: 'store-slow',
          url: sftp.url('store-slow').replace(`:${sftp.port}/`, `:${slow.port}/`),
          privateKey: sftp.privateKey,
          hostKey: sftp.hostKeyFingerprint(),
          dpid: DPID,
          platforms: 'all',
          profile: 'release',
        },
      });
      expect(target.status, JSON.stringify(await readJson(target.clone()))).toBe(201);
      const approve = async (title: string, instance: Instance) => {
        const { releaseId } = await createTestRelease(system, people.artist.userId, {
          status: 'pending',
          trackCount: 3,
          title,
        });
        const answer = await call(instance, `/api/admin/releases/${releaseId}/approve`, {
          method: 'POST',
          cookie: people.moderator.cookie,
        });
        expect(answer.status).toBe(200);
        return releaseId;
      };
      const deliveredOf = async (releaseId: string) => {
        const found = await system.db
          .select({ state: deliveries.state })
          .from(deliveries)
          .where(eq(deliveries.releaseId, releaseId));
        return found.length === 3 && found.every((row) => row.state === 'delivered');
      };

      const killedRelease = await approve('Killed mid-delivery', web1);
      // The worker whose run is writing the slow store's package (its heartbeat row names its pid).
      const writer = async () => {
        const [row] = await rows<{ worker: string }>(
          system.db,
          sql`select r.worker from job_runs r
              join pgboss.job j on j.id = r.job_id and j.started_on = r.started_on and j.state = 'active'
              join deliveries d on d.id = (j.data->>'deliveryId')::uuid
              join delivery_targets t on t.id = d.target_id and t.name = 'store-slow'
              where j.name = 'delivery.send' and d.release_id = ${killedRelease} and d.state = 'uploading'`,
        );
        const pid = Number(row?.worker.split('/')[1]);
        return workers.find((instance) => instance.child.pid === pid);
      };
      let victim: Instance | undefined;
      await waitFor(
        async () => {
          victim = slow.uploaded() > 128 * 1024 ? await writer() : undefined;
          return victim !== undefined;
        },
        60_000,
        'the slow package to be half-written',
      );
      const survivor = workers.find((instance) => instance !== victim) as Instance;
      await (victim as Instance).kill();
      const killedAt = Date.now();

      // The later release is queued while the dead run still holds its job (not yet taken over), so its
      // delivery shows that no delivery waits on a dead worker.
      expect(await writer(), 'the killed run still active under the dead worker').toBe(victim);
      const laterRelease = await approve('Queued after the kill', web2);
      const queuedAt = Date.now();
      await waitFor(() => deliveredOf(laterRelease), 30_000, 'the later release to be delivered within 30 s');
      const laterSeconds = (Date.now() - queuedAt) / 1000;
      expect(laterSeconds).toBeLessThan(30);
      await waitFor(() => deliveredOf(killedRelease), 120_000, 'the killed delivery within 2 minutes');
      const killedSeconds = (Date.now() - killedAt) / 1000;
      expect(killedSeconds).toBeLessThan(120);
      console.info(
        `scale-out (d): release queued after the kill delivered in ${laterSeconds.toFixed(1)} s, the killed one in ${killedSeconds.toFixed(1)} s`,
      );

      const upcs = await system.db
        .select({ upc: releases.upc })
        .from(releases)
        .where(inArray(releases.id, [killedRelease, laterRelease]));
      for (const store of ['store-a', 'store-b', 'store-slow']) {
        const packages = readDeliveries(path.join(sftp.root, store));
        expect(
          upcs.map(({ upc }) => packages.filter((pkg) => pkg.xml.includes(`<ICPN>${upc}</ICPN>`)).length),
          store,
        ).toEqual([1, 1]);
      }
      // The survivor took the run over and counted it; its /metrics shows the queues' oldest jobs.
      const metrics = await (await fetch(`${survivor.url}/metrics`)).text();
      // The victim ran up to two sends at once (the queue's concurrency): each of its runs is counted lost once.
      const lost = /^tunedrop_job_failures_total\{queue="delivery.send",reason="worker_lost"\} (\d+)$/m.exec(
        metrics,
      );
      expect(Number(lost?.[1])).toBeGreaterThanOrEqual(1);
      expect(Number(lost?.[1])).toBeLessThanOrEqual(2);
      expect(metrics).toMatch(/^tunedrop_job_oldest_waiting_seconds\{queue="delivery.send"\} \d/m);
      expect(metrics).toMatch(/^tunedrop_job_oldest_active_seconds\{queue="delivery.send"\} \d/m);
      workers = [survivor];
      await system.db
        .update(deliveryTargets)
        .set({ enabled: false })
        .where(eq(deliveryTargets.name, 'store-slow'));
    } finally {
      await slow.close();
    }
  }, 240_000);

  it('(b) a worker killed (SIGKILL) in each phase of a 200,000-line import and in its posting: another worker takes each run over within a minute, and it completes once, every line once, exact cents', async () => {
    const isrc = 'QZSCL2400001';
    const artist = await system.signedInUser({ plan: 'basic', artistName: 'Scale' });
    await createTestRelease(system, artist.userId, { status: 'live', isrcs: [isrc] });
    const header =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
    // The report names the artist as seeded: another name on an artist's own code is a sanity warning once the
    // operator's ISRC registrant is set (record 187), and posting would wait for it to be accepted.
    const line = `2025-05-02\t2025-03\tSpotify\tScale\tSong\t${isrc}\t\t10\t100\tSong\tUS\t0\t0.01`;
    const count = 200_000;
    const report = [header, ...Array.from({ length: count }, () => line)].join('\n');
    // Two live workers at every kill, so the survivor's heartbeat sweep is what takes the run over (record 217).
    const alive = workers.filter(
      (instance) => instance.child.exitCode === null && instance.child.signalCode === null,
    );
    const spare = async (name: string) => {
      const started = await startInstance(name, 'worker');
      await waitReady(started);
      alive.push(started);
    };
    while (alive.length < 2) await spare(`worker-${instances.length + 1}`);

    const uploaded = await call(web1, '/api/admin/royalties/imports?filename=scale-out.tsv', {
      method: 'POST',
      cookie: people.admin.cookie,
      headers: { 'content-type': 'application/octet-stream' },
      body: report,
    });
    expect(uploaded.status).toBe(202);
    const { id } = (await uploaded.json()) as { id: string };
    const rowOf = async () =>
      (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0];
    /** The worker process whose heartbeat row holds the running job of `queue` for this import. */
    const runnerOf = async (queue: string) => {
      const [row] = await rows<{ worker: string }>(
        system.db,
        sql`select r.worker from job_runs r
            join pgboss.job j on j.id = r.job_id and j.started_on = r.started_on and j.state = 'active'
            where j.name = ${queue} and j.data->>'importId' = ${id}`,
      );
      return row ? Number(row.worker.split('/')[1]) : null;
    };
    // Locks the test holds on the tables the next steps write: a step waits inside its phase (its
    // transaction open, the COPY or statement sent), and the worker is killed right there. Two holders, so
    // the checking phase is held before the reading phase is let go (a run taken over may read the rest
    // and check it while the spare worker starts).
    const holders = [0, 1].map(() => new pg.Client({ connectionString: system.config.DATABASE_URL }));
    const [holder, checkingHolder] = holders as [pg.Client, pg.Client];
    await Promise.all(holders.map((client) => client.connect()));
    const takeovers: Record<string, number> = {};
    const killWhileWaitingOn = async (phase: string, queue: string, table: string, held: pg.Client) => {
      await waitFor(
        async () =>
          (
            await rows<{ n: number }>(
              system.db,
              sql`select count(*)::int as n from pg_locks where not granted and relation = ${table}::regclass`,
            )
          )[0]?.n === 1,
        120_000,
        `the ${phase} step to wait on ${table}`,
      );
      const pid = await runnerOf(queue);
      const victim = alive.find((instance) => instance.child.pid === pid);
      expect(victim, `the ${phase} run's worker`).toBeDefined();
      await (victim as Instance).kill();
      const killedAt = Date.now();
      alive.splice(alive.indexOf(victim as Instance), 1);
      await held.query('rollback');
      // Taken over: a run of the same job on another worker.
      await waitFor(
        async () => {
          const runner = await runnerOf(queue);
          return runner !== null && runner !== pid;
        },
        90_000,
        `the ${phase} run to be taken over`,
      );
      takeovers[phase] = Math.round((Date.now() - killedAt) / 1000);
      expect(Date.now() - killedAt, `${phase} taken over within a minute`).toBeLessThan(60_000);
      await spare(`worker-${instances.length + 1}`);
    };
    try {
      // Reading: killed with a batch of lines on its way.
      await waitFor(async () => ((await rowOf())?.linesRead ?? 0) >= 20_000, 120_000, 'the import to start');
      await checkingHolder.query('begin');
      await checkingHolder.query('lock table royalty_import_summaries in share mode');
      await holder.query('begin');
      await holder.query('lock table royalty_import_lines in share mode');
      await killWhileWaitingOn('reading', 'royalties.import', 'royalty_import_lines', holder);
      // Checking (the last step): killed inside its one transaction, after every line was staged.
      await killWhileWaitingOn('checking', 'royalties.import', 'royalty_import_summaries', checkingHolder);
      // Staged, then its stored file removed (the clean-up step).
      await waitFor(
        async () => {
          const row = await rowOf();
          return row?.phase === 'ready' && row.fileKey === null;
        },
        150_000,
        'the import to be staged',
      );
      expect(await rowOf()).toMatchObject({ status: 'staged', lineCount: count });

      // Posting: killed while it writes the earnings lines.
      await holder.query('begin');
      await holder.query('lock table royalty_earnings in share mode');
      const posted = await call(web2, `/api/admin/royalties/imports/${id}/post`, {
        method: 'POST',
        cookie: people.admin.cookie,
      });
      expect(posted.status).toBe(202);
      await killWhileWaitingOn('posting', 'royalties.post', 'royalty_earnings', holder);
      await waitFor(async () => (await rowOf())?.phase === 'posted', 150_000, 'the import to be posted');
    } finally {
      for (const client of holders) {
        await client.query('rollback').catch(() => undefined);
        await client.end();
      }
    }
    console.info(`scale-out (b): runs taken over after a SIGKILL in (s): ${JSON.stringify(takeovers)}`);
    expect(await rowOf()).toMatchObject({ status: 'posted', lineCount: count, linesPosted: count });
    for (const table of ['royalty_import_lines', 'royalty_earnings']) {
      const [counted] = await rows<{ n: number; d: number }>(
        system.db,
        sql`select count(*)::int as n, count(distinct line_no)::int as d from ${sql.raw(table)} where import_id = ${id}`,
      );
      expect(counted, table).toEqual({ n: count, d: count });
    }
    const [balance] = await system.db
      .select({ cents: profiles.balanceCents })
      .from(profiles)
      .where(eq(profiles.id, artist.userId));
    expect(balance?.cents).toBe(count);
    workers = alive;
  }, 600_000);

  it('(c) an upload alternating between the web instances resumes on one when the other is killed mid-PATCH, byte-identical', async () => {
    const plain = makeWav({ seconds: (16 * MiB) / 176_400, sampleRate: 44_100, bitDepth: 16, channels: 2 });
    const body = riff([chunk('fmt ', plain.subarray(20, 36)), chunk('data', plain.subarray(44))]);
    const cookie = people.artist.cookie;
    const created = await call(web1, '/api/uploads', {
      method: 'POST',
      cookie,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(body.length),
        'Upload-Metadata': `filename ${b64('Scale Mix.wav')},kind ${b64('audio')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location') ?? '', 'http://x').pathname;
    const id = location.split('/').pop() as string;
    const tus = (offset: number) => ({
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    });
    const headOffset = async (instance: Instance) => {
      const head = await call(instance, location, {
        method: 'HEAD',
        cookie,
        headers: { 'Tus-Resumable': '1.0.0' },
      });
      expect(head.status).toBe(200);
      return Number(head.headers.get('upload-offset'));
    };
    const slice = 3 * MiB;
    let offset = 0;
    for (const [instance, other] of [
      [web1, web2],
      [web2, web1],
    ] as const) {
      const response = await call(instance, location, {
        method: 'PATCH',
        cookie,
        headers: tus(offset),
        body: body.subarray(offset, offset + slice),
      });
      expect(response.status).toBe(204);
      offset = Number(response.headers.get('upload-offset'));
      expect(await headOffset(other)).toBe(offset);
    }
    expect(offset).toBe(2 * slice);

    // web-1 takes the next PATCH, receives part of it and is killed (SIGKILL) while the rest is on its way.
    let sent = 0;
    let isStalled = false;
    const stalled = new ReadableStream<Uint8Array>({
      async pull(control) {
        if (sent >= MiB) {
          // web-1 has taken the first MiB and asks for more, which never comes.
          isStalled = true;
          await new Promise(() => undefined);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
        const end = Math.min(sent + 128 * 1024, slice);
        control.enqueue(body.subarray(offset + sent, offset + end));
        sent = end;
      },
    });
    const dying = call(web1, location, {
      method: 'PATCH',
      cookie,
      headers: tus(offset),
      body: stalled,
      duplex: 'half',
    } as RequestInit & { cookie: string }).catch(() => null);
    await waitFor(async () => isStalled, 10_000, 'web-1 to take the first MiB of the PATCH');
    await web1.kill();
    expect(await dying).toBeNull();

    // web-2 answers the offset in the bucket and takes the rest.
    offset = await headOffset(web2);
    expect(offset).toBe(2 * slice);
    while (offset < body.length) {
      const response = await call(web2, location, {
        method: 'PATCH',
        cookie,
        headers: tus(offset),
        body: body.subarray(offset, offset + slice),
      });
      expect(response.status, web2.output()).toBe(204);
      offset = Number(response.headers.get('upload-offset'));
    }
    await waitFor(
      async () => {
        const [row] = await system.db.select().from(uploads).where(eq(uploads.id, id));
        return row?.status === 'checked';
      },
      20_000,
      'the upload to be checked',
    );
    const stored = await system.storage.get(id).then(async ({ body: stream }) => {
      const parts: Buffer[] = [];
      for await (const part of stream) parts.push(part as Buffer);
      return Buffer.concat(parts);
    });
    expect(stored.length).toBe(body.length);
    expect(md5(stored)).toBe(md5(body));
  }, 120_000);

  it('(e) a hung database under a web instance: /api/me answers 503 within the timeouts, /metrics still answers, and it recovers', async () => {
    const STATEMENT_MS = 2000;
    const CONNECT_MS = 2000;
    const proxy = await startHangingProxy(new URL(system.config.DATABASE_URL ?? ''));
    try {
      const web3 = await startInstance('web-3', 'web', {
        DATABASE_URL: proxy.url,
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
      });
      await waitReady(web3);
      const me = () => call(web3, '/api/me', { cookie: people.artist.cookie });
      expect((await me()).status).toBe(200);

      proxy.hang();
      const asked = Date.now();
      const answer = await me();
      const seconds = (Date.now() - asked) / 1000;
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('database_unavailable');
      // A pooled connection: the statement limit and the client's one-second grace; a new one: the connect
      // limit; the worst case of record 223 is their sum (a wait for a free connection of a busy pool).
      expect(seconds).toBeLessThan((STATEMENT_MS + CONNECT_MS + 1000) / 1000);
      const metricsAsked = Date.now();
      const metrics = await fetch(`${web3.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^tunedrop_database_up 0$/m);
      const metricsSeconds = (Date.now() - metricsAsked) / 1000;
      expect((await fetch(`${web3.url}/api/health/ready`)).status).toBe(503);
      console.info(
        `scale-out (e): hung database: /api/me 503 in ${seconds.toFixed(1)} s, /metrics 200 in ${metricsSeconds.toFixed(1)} s`,
      );

      proxy.resume();
      await waitFor(async () => (await me()).status === 200, 30_000, '/api/me to answer again');
      await web3.stop();
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
