/**
 * One owner for the embedded database, with real processes: the server (main.ts) on a PGlite DATA_DIR
 * and the CLI (cli.ts) beside it, as the README's "Make an admin" steps run them.
 * - CLI commands made while the server runs are seen at once over HTTP and survive restarts;
 * - a second server on the same DATA_DIR refuses with one line naming the owner's PID;
 * - SIGTERM releases the lock and removes the socket;
 * - bad input handed over the socket exits non-zero with a clear message;
 * - after a kill -9 in the middle of writes the CLI (no server) takes over the stale lock and opens the
 *   database directly, every acknowledged write is there, audit:balances is clean, the server restarts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSocketFile } from './cli-socket';
import { openDatabase } from './db/client';
import { LOCK_FILE } from './db/data-dir-lock';
import { profiles, user } from './db/schema';
import { cookieFrom } from './test-support/auth-fixtures';
import { seedPgliteDataDir } from './test-support/harness';
import { bundledServer } from './test-support/server-bundle';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-owner-'));
const admin = { email: 'ada@example.com', password: 'Adm1n!Passw0rd' };
const children = new Set<ChildProcess>();

// An installed DATA_DIR (the migrated template): initdb and the migrations on a fresh one are
// cli-database.test.ts's and data-dir-permissions.test.ts's.
beforeAll(() => seedPgliteDataDir(dataDir), 60_000);
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const envFor = (port: number) => ({
  ...process.env,
  DATABASE_URL: '',
  DATA_DIR: dataDir,
  PORT: String(port),
  APP_URL: `http://127.0.0.1:${port}`,
  APP_SECRET: 'cli-owner-test-secret-0123456789abcdef',
  NODE_ENV: 'test',
  LOG_LEVEL: 'info',
  RATE_LIMITS: 'off',
});

type Running = {
  child: ChildProcess;
  port: number;
  base: string;
  log: () => string;
  exited: Promise<number | null>;
};

function spawnServer(port: number): Running {
  const child = spawn(process.execPath, [bundledServer('main')], {
    env: envFor(port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let log = '';
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, port, base: `http://127.0.0.1:${port}`, log: () => log, exited };
}

async function startServer(): Promise<Running> {
  const server = spawnServer(await freePort());
  // On a busy 2-core CI machine (the suites run side by side there) a start has taken over 60 s (under tsx,
  // before the bundle), so the deadline and the tests' timeouts leave room for it.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${server.base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return server;
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy:\n${server.log()}`);
}

type CliRun = { code: number | null; stdout: string; stderr: string; database?: string };

/** Runs `npm run cli -- …` as the README does (the bundled dist/cli.js), from the repository root. */
function cli(...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundledServer('cli'), ...args], {
      env: envFor(0),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      // Every command first names its database on stderr (issue 22, finding 17); kept apart here.
      const [first = '', ...rest] = stderr.trim().split('\n');
      const named = first.startsWith('Database: ');
      resolve({
        code,
        stdout: stdout.trim(),
        stderr: (named ? rest.join('\n') : stderr).trim(),
        ...(named ? { database: first.slice('Database: '.length) } : {}),
      });
    });
  });
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return cookieFrom(response);
}

async function walletBalanceCents(base: string, cookie: string): Promise<number> {
  const response = await fetch(`${base}/api/wallet`, { headers: { cookie, origin: base } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { balanceCents: number }).balanceCents;
}

const lockPid = () => {
  const file = path.join(dataDir, LOCK_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number }).pid : null;
};

const commandsRunByServer = (log: string) =>
  log.split('\n').filter((line) => line.includes('"msg":"running a CLI command"')).length;

let server: Running;
/** The admin's balance in cents as the last acknowledged CLI write left it (or one in flight at a crash). */
let expectedBalances: number[] = [];

describe('CLI next to a running server on embedded PGlite', () => {
  it('runs user:create, role:grant and balance:set through the running server; a second server refuses', async () => {
    server = await startServer();
    expect(lockPid()).toBe(server.child.pid);
    expect(fs.statSync(cliSocketFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(cliSocketFile(dataDir))).mode & 0o777).toBe(0o700);

    const second = spawnServer(await freePort());
    const created = await cli(
      'user:create',
      '--email',
      admin.email,
      '--password',
      admin.password,
      '--name',
      'Ada Admin',
      '--artist',
      'Ada',
      '--plan',
      'pro',
      '--verified',
      '--active',
    );
    expect(created).toMatchObject({
      code: 0,
      stderr: '',
      database: `embedded, in ${dataDir} (run by the server, PID ${server.child.pid})`,
    });
    expect(created.stdout).toMatch(
      /^Created user ada@example\.com \(.+\), plan pro, email verified, subscription active for a month$/,
    );
    expect(await cli('role:grant', admin.email, 'admin')).toMatchObject({
      code: 0,
      stdout: `Granted admin to ${admin.email}`,
      stderr: '',
    });
    expect(await cli('balance:set', admin.email, '12.34')).toMatchObject({
      code: 0,
      stdout: `Balance of ${admin.email}: $0.00 -> $12.34`,
      stderr: '',
    });
    expectedBalances = [1234];
    expect(commandsRunByServer(server.log())).toBe(3);

    // Seen at once by the running server: the user signs in, is an admin, and sees the balance.
    const cookie = await signIn(server.base, admin.email, admin.password);
    expect(await walletBalanceCents(server.base, cookie)).toBe(1234);
    const adminPage = await fetch(`${server.base}/api/admin/users?q=ada`, { headers: { cookie } });
    expect(adminPage.status).toBe(200);

    expect(await second.exited).toBe(1);
    expect(second.log().trim()).toMatch(
      new RegExp(
        `^DATA_DIR ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another Tunedrop server \\(PID ${server.child.pid}, since .+\\); stop it or set DATA_DIR to another directory$`,
      ),
    );
    expect(lockPid()).toBe(server.child.pid);
  }, 300_000);

  it('answers bad input handed to the server with a non-zero exit and a clear message', async () => {
    const before = commandsRunByServer(server.log());
    const [unknownUser, badAmount, duplicate] = await Promise.all([
      cli('balance:set', 'nobody@example.com', '5'),
      cli('balance:set', admin.email, '1.234'),
      cli(
        'user:create',
        ...['--email', admin.email, '--password', 'Another!Pass1', '--name', 'A', '--artist', 'A'],
      ),
    ]);
    expect(unknownUser).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'Error: no user with email nobody@example.com',
    });
    expect(badAmount).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'Error: AMOUNT must be a non-negative number with at most 2 decimals',
    });
    expect(duplicate).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `Error: ${admin.email} is already registered`,
    });
    expect(commandsRunByServer(server.log())).toBe(before + 3);
    // Malformed flags are refused before anything is handed over.
    const badFlag = await cli('role:grant', admin.email, 'admin', '--force');
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("Unknown option '--force'");
    expect(commandsRunByServer(server.log())).toBe(before + 3);
  }, 180_000);

  it('after a kill -9 mid-write the CLI opens the database itself, every acknowledged write is there', async () => {
    const signedUp: string[] = [];
    let isStopping = false;
    const signUps = async (worker: number) => {
      for (let n = 0; !isStopping; n += 1) {
        const email = `crash-${worker}-${n}@example.com`;
        const response = await fetch(`${server.base}/api/auth/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: server.base },
          body: JSON.stringify({
            email,
            fullName: 'Crash Test',
            artistName: 'CT',
            password: 'Str0ng!Tunes',
            confirmPassword: 'Str0ng!Tunes',
            plan: 'basic',
          }),
        }).catch(() => null);
        if (!response) return;
        if (response.status === 201) signedUp.push(email);
      }
    };
    let acknowledged = 1234;
    let inFlight: number | null = null;
    const balanceWrites = async () => {
      for (let cents = 100; !isStopping; cents += 100) {
        inFlight = cents;
        const result = await cli('balance:set', admin.email, (cents / 100).toFixed(2));
        if (result.code === 0) acknowledged = cents;
        else expect(result.stderr).toMatch(/stopped before answering|lost the connection/);
      }
    };
    const writers = [signUps(1), signUps(2), balanceWrites()];
    const start = Date.now();
    while ((signedUp.length < 4 || acknowledged === 1234) && Date.now() - start < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    server.child.kill('SIGKILL');
    isStopping = true;
    expect(await server.exited).toBeNull();
    await Promise.all(writers);
    expect(signedUp.length).toBeGreaterThanOrEqual(4);
    expectedBalances = inFlight === null ? [acknowledged] : [acknowledged, inFlight];

    // The crashed server's lock and socket are still there; the CLI takes over and runs directly.
    const audit = await cli('audit:balances');
    expect(audit.stderr).toBe('');
    expect(audit.database).toBe(`embedded, in ${dataDir}`);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/^Checked \d+ profiles: every balance matches its records\.$/m);
    expect(audit.stdout).toMatch(/: reconciles\.$/m);
    expect(lockPid()).toBeNull();

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db
        .select({ email: user.email })
        .from(user)
        .where(inArray(user.email, signedUp));
      expect(rows.map((row) => row.email).sort()).toEqual([...signedUp].sort());
      const [adminRow] = await database.db
        .select({ balanceCents: profiles.balanceCents })
        .from(profiles)
        .innerJoin(user, eq(user.id, profiles.id))
        .where(eq(user.email, admin.email));
      expect(expectedBalances).toContain(Number(adminRow?.balanceCents));
      expectedBalances = [Number(adminRow?.balanceCents)];
    } finally {
      await database.close();
    }
  }, 300_000);

  it('restarts cleanly after the crash: the CLI-made admin signs in and sees the balance', async () => {
    server = await startServer();
    const cookie = await signIn(server.base, admin.email, admin.password);
    expect(await walletBalanceCents(server.base, cookie)).toBe(expectedBalances[0]);
    // A clean stop releases the lock and removes the socket.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(lockPid()).toBeNull();
    expect(fs.existsSync(cliSocketFile(dataDir))).toBe(false);
  }, 240_000);
});
