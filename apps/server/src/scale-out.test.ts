/**
 * The production topology as plain processes (issue 24, record 160): 2 web and 2 worker processes
 * (`TUNEDROP_ROLE`, `main.ts` under tsx) on one fresh PostgreSQL database, the S3 test server as the
 * bucket and a real sshd as the delivery targets' store. What it proves:
 * (a) 50 releases approved, each approval sent twice at once, one to each web instance → exactly one
 *     package per release and target on the SFTP store, delivered by the workers;
 * (c) an upload whose PATCH requests alternate between the two web instances, one killed (SIGKILL)
 *     halfway through a PATCH → resumed on the other, the stored bytes identical (MD5).
 * (b) a worker killed (SIGKILL) in the middle of a 200,000-line royalty import → the import completes
 *     once on the other workers, every line staged and posted once, the ledger exact to the cent;
 * PostgreSQL only (PGlite belongs to one process): it runs in CI's server suite on PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, profiles, releases, royaltyImports, uploads } from './db/schema';
import { rows } from './lib/sql';
import { staff } from './test-support/admin-fixtures';
import { chunk, riff } from './test-support/builder-fixtures';
import { createTestRelease } from './test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from './test-support/harness';
import { makeWav } from './test-support/media';
import { type S3TestServer, startS3TestServer } from './test-support/s3-server';
import { freePort, readDeliveries, type SftpServer, startSftpServer } from './test-support/sftp';

const isPostgres = Boolean(process.env.DATABASE_URL);
const mainFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
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

async function startInstance(name: string, role: 'web' | 'worker'): Promise<Instance> {
  const port = await freePort();
  const dataDir = path.join(workDir, name);
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
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
      ...s3.env,
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

/** pg-boss's own statement that fails (and retries) runs past their expiry, as its maintenance does. */
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  failJobsByTimeout(schema: string): string;
};

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
        return answers.map((answer) => answer.status);
      }),
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

  it('(b) a worker killed (SIGKILL) mid-way through a 200,000-line import: it completes once, every line once, exact cents', async () => {
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
    // One worker alone takes the import, so the one killed is the one running it.
    const [first, second] = workers as [Instance, Instance];
    await second.stop();
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
    const deadline = Date.now() + 120_000;
    for (;;) {
      const row = await rowOf();
      if (row && row.linesRead >= 20_000) {
        expect(row.phase).not.toBe('ready');
        break;
      }
      if (Date.now() > deadline) throw new Error(`the import did not start: ${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.kill();
    const atKill = await rowOf();
    expect(atKill?.linesRead).toBeLessThan(count + 1);
    expect(atKill?.phase).not.toBe('ready');

    // Two fresh workers; the killed run's job is failed and retried once its expiry passes (pg-boss's
    // maintenance; the test moves its start back rather than waiting its 10 minutes).
    workers = await Promise.all([startInstance('worker-3', 'worker'), startInstance('worker-4', 'worker')]);
    await Promise.all(workers.map((instance) => waitReady(instance)));
    await system.db.execute(
      sql`update pgboss.job set started_on = now() - interval '1 day' where name = 'royalties.import' and state = 'active'`,
    );
    await system.db.execute(sql.raw(plans.failJobsByTimeout('pgboss')));
    await waitFor(async () => (await rowOf())?.phase === 'ready', 150_000, 'the import to be staged');
    expect(await rowOf()).toMatchObject({ status: 'staged', lineCount: count });

    const posted = await call(web2, `/api/admin/royalties/imports/${id}/post`, {
      method: 'POST',
      cookie: people.admin.cookie,
    });
    expect(posted.status).toBe(202);
    await waitFor(async () => (await rowOf())?.phase === 'posted', 150_000, 'the import to be posted');
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
  }, 360_000);

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
    const stalled = new ReadableStream<Uint8Array>({
      async pull(control) {
        if (sent >= MiB) {
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
    await waitFor(async () => sent >= MiB, 10_000, 'the PATCH to reach web-1');
    await new Promise((resolve) => setTimeout(resolve, 300));
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
});
