/**
 * Issue 22, finding 17: the CLI names the database it works on, and a command that needs existing data
 * refuses a DATA_DIR with no database (non-zero exit, nothing created) instead of reporting on a new,
 * empty one. Run as real processes, as `npm run cli` runs them.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledServer } from './test-support/server-bundle';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-db-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

type Run = { code: number | null; stdout: string; stderr: string };

function cli(args: string[], options: { cwd?: string; env?: Record<string, string>; umask?: string } = {}) {
  const { DATA_DIR: _ignored, ...inherited } = process.env;
  const command = `umask ${options.umask ?? '022'} && exec "${process.execPath}" "${bundledServer('cli')}" "$@"`;
  return new Promise<Run>((resolve, reject) => {
    const child = spawn('sh', ['-c', command, 'cli', ...args], {
      cwd: options.cwd ?? base,
      env: { ...inherited, DATABASE_URL: '', APP_SECRET: '', NODE_ENV: 'test', ...options.env },
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
    child.on('exit', (code) => resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
}

describe('the CLI and the database it opens', () => {
  it('run in another folder, audit:balances refuses with a clear message and creates nothing', async () => {
    const elsewhere = fs.mkdtempSync(path.join(base, 'elsewhere-'));
    const result = await cli(['audit:balances'], { cwd: elsewhere });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `Error: there is no database in DATA_DIR ${path.join(elsewhere, 'data')}, so audit:balances has nothing to work on; run the CLI from the folder the server runs in, or set DATA_DIR (or DATABASE_URL) to the server's. Nothing was created.`,
    );
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  }, 60_000);

  it('refuses the other commands that need existing data the same way', async () => {
    const dataDir = path.join(base, 'never-made');
    const results = await Promise.all([
      cli(['codes:backfill'], { env: { DATA_DIR: dataDir } }),
      cli(['role:grant', 'a@example.com', 'admin'], { env: { DATA_DIR: dataDir } }),
    ]);
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Error: there is no database in DATA_DIR .*never-made, so /);
    }
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('user:create sets a new install up under any umask: names the database, and every file is private', async () => {
    const dataDir = path.join(base, 'fresh');
    const created = await cli(
      [
        'user:create',
        '--email',
        'ada@example.com',
        '--password',
        'Adm1n!Passw0rd',
        '--name',
        'Ada',
        '--artist',
        'Ada',
      ],
      { env: { DATA_DIR: dataDir }, umask: '000' },
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toBe(`Database: embedded, in ${dataDir}`);
    expect(created.stdout).toMatch(/^Created user ada@example\.com /);
    const loose: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (fs.lstatSync(file).mode & 0o077) loose.push(file);
        if (entry.isDirectory()) walk(file);
      }
    };
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    walk(dataDir);
    expect(loose).toEqual([]);
    expect(fs.statSync(path.join(dataDir, 'app-secret')).mode & 0o777).toBe(0o600);

    const audit = await cli(['audit:balances'], { env: { DATA_DIR: dataDir } });
    expect(audit).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^Checked 1 profiles: every balance matches its records\.\n/),
      stderr: `Database: embedded, in ${dataDir}`,
    });
    expect(audit.stdout).toContain('Liability to artists: balances 0.00');

    // A DATA_DIR an earlier version left open: the CLI (no server running) tightens it and says so.
    spawnSync('chmod', ['-R', 'go+rwX', dataDir]);
    expect(fs.statSync(path.join(dataDir, 'app-secret')).mode & 0o777).toBe(0o666);
    const again = await cli(['audit:balances'], { env: { DATA_DIR: dataDir } });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(
        `^Warning: DATA_DIR ${dataDir}: \\d+ folder\\(s\\) and file\\(s\\) could be read or written by other users; made private`,
      ),
    );
    loose.length = 0;
    walk(dataDir);
    expect(loose).toEqual([]);
  }, 120_000);

  it('on PostgreSQL names the server and database without the password', async () => {
    const result = await cli(['audit:balances'], {
      env: {
        DATABASE_URL: 'postgres://tunedrop:hunter2-secret@127.0.0.1:1/royalties',
        APP_SECRET: 'a-set-secret-for-this-test-0123456789',
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe('Database: PostgreSQL tunedrop@127.0.0.1:1/royalties');
    expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
  }, 60_000);
});
