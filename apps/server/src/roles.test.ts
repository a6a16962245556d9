/**
 * TUNEDROP_ROLE (record 156) with real processes: a web instance enqueues but runs no job, a worker
 * runs them and serves no API (only its probes and /metrics); without DATABASE_URL only `all` starts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, checkJobsConcurrencyNames, parseConfig } from './config';
import { type Database, openDatabase } from './db/client';
import { mailOutbox } from './db/schema';
import { enqueueMail } from './infra/mail/mail';
import { jobConcurrency } from './server';
import { bundledServer } from './test-support/server-bundle';
import { freePort } from './test-support/sftp';

const baseUrl = process.env.DATABASE_URL;
const secret = 'roles-test-secret-0123456789abcdefghij';
const children: ChildProcess[] = [];
const dirs: string[] = [];
let dropDatabase: (() => Promise<void>) | null = null;
let database: Database | null = null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await database?.close();
  await dropDatabase?.();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-roles-'));
  dirs.push(dir);
  return dir;
}

function start(role: 'web' | 'worker', port: number, databaseUrl: string, dir = dataDir()): ChildProcess {
  const child = spawn(process.execPath, [bundledServer('main')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TUNEDROP_ROLE: role,
      APP_SECRET: secret,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

async function waitFor(check: () => Promise<boolean>, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('timed out');
}

const healthy = (port: number) => () =>
  fetch(`http://127.0.0.1:${port}/api/health`).then((response) => response.ok);

describe('roles', () => {
  it('JOBS_CONCURRENCY_<QUEUE> and _<MODULE> set runs per queue; a bad value is refused at start', () => {
    const config = parseConfig({ JOBS_CONCURRENCY_DELIVERY: '3', JOBS_CONCURRENCY_DELIVERY_ACKS: '0' });
    expect(jobConcurrency(['delivery.send', 'delivery.acks', 'mail.send'], config.jobsConcurrency)).toEqual({
      'delivery.send': 3,
      'delivery.acks': 0,
    });
    expect(() => parseConfig({ JOBS_CONCURRENCY_MAIL: 'two' })).toThrow(ConfigError);
    expect(() => parseConfig({ JOBS_CONCURRENCY_MAIL: 'two' })).toThrow(
      'JOBS_CONCURRENCY_MAIL: must be a whole number from 0 to 100',
    );
  });

  it('a JOBS_CONCURRENCY_* that names no queue or module is refused at start, in one line naming it', () => {
    const queues = ['delivery.send', 'royalties.import'];
    expect(() =>
      checkJobsConcurrencyNames(
        parseConfig({ JOBS_CONCURRENCY_DELIVERY_SEND: '2', JOBS_CONCURRENCY_ROYALTIES: '1' }),
        queues,
      ),
    ).not.toThrow();
    expect(() =>
      checkJobsConcurrencyNames(parseConfig({ JOBS_CONCURRENCY_DELIVERY_SNED: '2' }), queues),
    ).toThrow(
      'Invalid configuration: JOBS_CONCURRENCY_DELIVERY_SNED: no such queue or module (known: DELIVERY, DELIVERY_SEND, ROYALTIES, ROYALTIES_IMPORT)',
    );
    const result = spawnSync(process.execPath, [bundledServer('main')], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir(), JOBS_CONCURRENCY_DELIVERY_SNED: '2' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Invalid configuration: JOBS_CONCURRENCY_DELIVERY_SNED: no such queue or module \(known: /,
    );
  }, 60_000);

  it('without DATABASE_URL, web and worker are refused with a clear message', () => {
    const result = spawnSync(process.execPath, [bundledServer('main')], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        TUNEDROP_ROLE: 'worker',
        DATA_DIR: dataDir(),
        APP_SECRET: secret,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('TUNEDROP_ROLE=worker');
    expect(result.stderr).toContain('DATABASE_URL');
  }, 60_000);

  it.skipIf(!baseUrl)(
    'a web instance enqueues and runs nothing; a worker runs the job and answers only its probes',
    async () => {
      const name = `tunedrop_roles_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      dropDatabase = async () => {
        const client = new pg.Client({ connectionString: baseUrl });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      };
      const url = new URL(baseUrl as string);
      url.pathname = `/${name}`;
      const webPort = await freePort();
      const workerPort = await freePort();
      // Without SMTP_URL each instance writes mail to the outbox of its own DATA_DIR: where a message
      // lands says which instance ran its job.
      const webDir = dataDir();
      const workerDir = dataDir();
      const outbox = (dir: string) => {
        try {
          return fs.readdirSync(path.join(dir, 'outbox')).filter((file) => file.endsWith('.eml'));
        } catch {
          return [];
        }
      };

      start('web', webPort, url.toString(), webDir);
      await waitFor(healthy(webPort));
      database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
      const recipients = ['someone@example.com', 'someone-else@example.com', 'a-third@example.com'];
      for (const to of recipients) await enqueueMail(database.db, { to, subject: 'Hello', text: 'Hi' });
      const statuses = async () =>
        (await (database as Database).db.select({ status: mailOutbox.status }).from(mailOutbox)).map(
          (row) => row.status,
        );
      expect(await statuses()).toEqual(['pending', 'pending', 'pending']);

      // The messages wait for a worker (the web instance had them for the worker's whole start, several
      // polls of 2 s); once it has sent them all, every one is in the worker's outbox and none in the web's.
      start('worker', workerPort, url.toString(), workerDir);
      await waitFor(async () => (await statuses()).every((status) => status === 'sent'));
      expect(outbox(workerDir)).toHaveLength(3);
      expect(outbox(webDir)).toEqual([]);
      const [row] = await database.db
        .select({ status: mailOutbox.status })
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, 'someone@example.com'));
      expect(row?.status).toBe('sent');

      expect((await fetch(`http://127.0.0.1:${workerPort}/api/health`)).status).toBe(200);
      for (const pathname of ['/api/releases', '/api/auth/get-session', '/']) {
        const response = await fetch(`http://127.0.0.1:${workerPort}${pathname}`);
        expect(response.status, pathname).toBe(404);
        expect(JSON.stringify(await response.json())).toContain('worker instance');
        expect(response.headers.get('x-request-id'), pathname).toMatch(/^[0-9a-f-]{36}$/);
      }
      // The web instance still serves the API.
      expect((await fetch(`http://127.0.0.1:${webPort}/api/auth/get-session`)).status).not.toBe(404);
    },
    120_000,
  );
});
