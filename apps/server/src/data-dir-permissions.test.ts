/**
 * Issue 22, finding 3: DATA_DIR is private to the server's user whatever the umask. The real server
 * (main.ts) starts under `umask 000` on a DATA_DIR an earlier version left world-readable; afterwards
 * every folder is 0700 and every file 0600 (the embedded database, the outbox mail, uploads), the log
 * says what was tightened, and user `nobody` can neither read a mail nor write a database file.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledServer } from './test-support/server-bundle';

const hasRunuser = spawnSync('runuser', ['--help']).status === 0 && process.getuid?.() === 0;
if (!hasRunuser) {
  console.warn(
    '\n!!! data-dir-permissions.test.ts: runuser is missing (or not root): the "as another user" checks are SKIPPED !!!\n',
  );
}

// A world-traversable parent, so only DATA_DIR's own modes stand between another user and the files.
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-perms-'));
fs.chmodSync(base, 0o755);
const dataDir = path.join(base, 'data');
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(base, { recursive: true, force: true });
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

/** Every entry under dir (symbolic links not followed) with its permission bits. */
function modes(dir: string): { file: string; mode: number; isDirectory: boolean }[] {
  const found: { file: string; mode: number; isDirectory: boolean }[] = [];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const file = path.join(current, entry.name);
      const stat = fs.lstatSync(file);
      if (stat.isSymbolicLink()) continue;
      found.push({ file, mode: stat.mode & 0o777, isDirectory: stat.isDirectory() });
      if (stat.isDirectory()) walk(file);
    }
  };
  walk(dir);
  return found;
}

const asNobody = (...command: string[]) =>
  spawnSync('runuser', ['-u', 'nobody', '--', ...command], { encoding: 'utf8' });

describe('DATA_DIR is private', () => {
  it('the server started under umask 000 tightens an old loose DATA_DIR and creates everything 0700/0600', async () => {
    // What an earlier version under a loose umask left behind.
    fs.mkdirSync(path.join(dataDir, 'storage', 'someone'), { recursive: true });
    fs.mkdirSync(path.join(dataDir, 'outbox'));
    fs.writeFileSync(path.join(dataDir, 'storage', 'someone', 'old.wav'), 'RIFF');
    fs.writeFileSync(path.join(dataDir, 'outbox', 'old-reset.eml'), 'reset link');
    for (const dir of [
      dataDir,
      path.join(dataDir, 'storage'),
      path.join(dataDir, 'storage', 'someone'),
      path.join(dataDir, 'outbox'),
    ])
      fs.chmodSync(dir, 0o777);
    fs.chmodSync(path.join(dataDir, 'storage', 'someone', 'old.wav'), 0o666);
    fs.chmodSync(path.join(dataDir, 'outbox', 'old-reset.eml'), 0o644);

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const child = spawn('sh', ['-c', `umask 000 && exec "${process.execPath}" "${bundledServer('main')}"`], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        APP_SECRET: '',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: baseUrl,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        RATE_LIMITS: 'off',
      },
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
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 90_000;
      while (
        !(await fetch(`${baseUrl}/api/health`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`server did not start:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // A sign-up writes a verification mail (a bearer link) to the outbox.
      const signUp = await fetch(`${baseUrl}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({
          email: 'perms@example.com',
          fullName: 'Perm Test',
          artistName: 'PT',
          password: 'Str0ng!Tunes',
          confirmPassword: 'Str0ng!Tunes',
          plan: 'basic',
        }),
      });
      expect(signUp.status).toBe(201);
      const outbox = path.join(dataDir, 'outbox');
      let mail: string | undefined;
      while (!mail && Date.now() < deadline) {
        mail = fs
          .readdirSync(outbox)
          .find((name) => name.includes('perms@example.com') && name.endsWith('.eml'));
        if (!mail) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(mail).toBeDefined();
      const mailFile = path.join(outbox, mail ?? '');

      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      const entries = modes(dataDir);
      const loose = entries.filter((entry) => entry.mode & 0o077);
      expect(loose).toEqual([]);
      for (const entry of entries) {
        if (entry.isDirectory) expect(entry.mode, entry.file).toBe(0o700);
      }
      expect(entries.filter((entry) => !entry.isDirectory).length).toBeGreaterThan(900);
      expect(fs.statSync(path.join(dataDir, 'db', 'pg_hba.conf')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(mailFile).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, 'storage', 'someone', 'old.wav')).mode & 0o777).toBe(0o600);
      expect(log).toMatch(
        /"level":40,.*"msg":"DATA_DIR [^"]+: \d+ folder\(s\) and file\(s\) could be read or written by other users; made private/,
      );

      if (hasRunuser) {
        const readMail = asNobody('cat', mailFile);
        expect(readMail.status).not.toBe(0);
        expect(readMail.stderr).toContain('Permission denied');
        const writeDb = asNobody('sh', '-c', `echo x >> "${path.join(dataDir, 'db', 'PG_VERSION')}"`);
        expect(writeDb.status).not.toBe(0);
        expect(writeDb.stderr).toContain('Permission denied');
        const list = asNobody('ls', dataDir);
        expect(list.stderr).toContain('Permission denied');
        // The same user can read the parent: the refusal is DATA_DIR's own.
        expect(asNobody('ls', base).status).toBe(0);
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 180_000);
});
