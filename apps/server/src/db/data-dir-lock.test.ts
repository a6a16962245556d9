/**
 * The DATA_DIR owner lock: one holder at a time (in this process and across real processes racing for
 * it), the holder named in the refusal, stale locks (dead PID, reused PID, a taker that died) taken
 * over, and exactly one winner when several processes take over the same stale lock at once.
 */
import { type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, dataDirLockHolder, LOCK_FILE } from './data-dir-lock';

const lockModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data-dir-lock.ts');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-lock-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let counter = 0;
const freshDir = () => {
  const dir = path.join(root, `d${++counter}`);
  fs.mkdirSync(dir);
  return dir;
};

/** The PID of a process that has exited (so it is not alive). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

const writeLock = (dir: string, content: object, name = LOCK_FILE) =>
  fs.writeFileSync(path.join(dir, name), JSON.stringify(content));

const readLock = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number; nonce: string };

describe('DATA_DIR lock in one process', () => {
  it('refuses a second holder with a line naming the PID, and is free again after release', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir, 'server');
    expect(readLock(dir).pid).toBe(process.pid);
    let refusal: unknown;
    try {
      acquireDataDirLock(dir, 'cli');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toBe(
      `DATA_DIR ${dir} is in use by another Tunedrop server (PID ${process.pid}, since ${lock.holder.startedAt}); stop it or set DATA_DIR to another directory`,
    );
    expect(dataDirLockHolder(dir)?.pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(dataDirLockHolder(dir)).toBeNull();
    acquireDataDirLock(dir, 'server').release();
  });

  it('takes over a lock whose process is gone', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid(), nonce: 'dead-owner', role: 'server', startedAt: 'x' });
    const lock = acquireDataDirLock(dir, 'server');
    expect(readLock(dir)).toMatchObject({ pid: process.pid, nonce: lock.holder.nonce });
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    lock.release();
  });

  it('takes over a lock whose PID was reused (our own PID not held here, or another start time)', () => {
    const dir = freshDir();
    // A container restart gives the new server the dead one's PID.
    writeLock(dir, { pid: process.pid, nonce: 'before-restart', role: 'server', startedAt: 'x' });
    acquireDataDirLock(dir, 'server').release();
    // A live process that is not the one that wrote the lock (its start time differs).
    writeLock(dir, { pid: process.ppid, nonce: 'reused', role: 'server', startedAt: 'x', processStart: '1' });
    acquireDataDirLock(dir, 'server').release();
  });

  it('takes over when an earlier taker died half-way, leaving no takeover files behind', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid(), nonce: 'gen1', role: 'server', startedAt: 'x' });
    writeLock(
      dir,
      { pid: deadPid(), nonce: 'taker', role: 'cli', startedAt: 'x' },
      `${LOCK_FILE}.takeover-gen1`,
    );
    const lock = acquireDataDirLock(dir, 'cli');
    expect(readLock(dir).nonce).toBe(lock.holder.nonce);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    lock.release();
  });

  it('takes over an unreadable lock once it is no longer being written', () => {
    const dir = freshDir();
    const file = path.join(dir, LOCK_FILE);
    fs.writeFileSync(file, '');
    const aMinuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(file, aMinuteAgo, aMinuteAgo);
    const lock = acquireDataDirLock(dir, 'server');
    expect(readLock(dir).nonce).toBe(lock.holder.nonce);
    lock.release();
  });

  it('keeps a live holder even when its lock is old', () => {
    const dir = freshDir();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeLock(dir, { pid: sleeper.pid, nonce: 'alive', role: 'server', startedAt: '2020-01-01T00:00:00Z' });
      expect(() => acquireDataDirLock(dir, 'server')).toThrow(`PID ${sleeper.pid}`);
      expect(readLock(dir).nonce).toBe('alive');
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});

/** The first whole line `child` prints that passes `test` (rejects if it exits first). */
function lineFrom(child: ChildProcessByStdio<Writable, Readable, null>, test: (line: string) => boolean) {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk;
      const line = out.split('\n').slice(0, -1).find(test);
      if (line === undefined) return;
      child.stdout.off('data', onData);
      resolve(line);
    };
    child.stdout.on('data', onData);
    child.on('exit', () => reject(new Error(`exited before the line: ${out}`)));
  });
}

/**
 * Starts `count` processes that all try to take the lock at the same moment (once every one is ready, a
 * `go` line to each); returns their reports. A winner holds the lock until every report is in.
 */
async function race(dir: string, count: number): Promise<string[]> {
  const script = `
    const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
    const { createInterface } = await import('node:readline');
    const input = createInterface({ input: process.stdin });
    const closed = new Promise((resolve) => input.once('close', resolve));
    const go = new Promise((resolve) => input.once('line', resolve));
    console.log('ready');
    await go;
    try {
      acquireDataDirLock(${JSON.stringify(dir)}, 'server');
      console.log('won ' + process.pid);
      await closed;
    } catch (error) {
      console.log('lost ' + error.message);
    }
    process.exit(0);`;
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  await Promise.all(children.map((child) => lineFrom(child, (line) => line === 'ready')));
  const reports = children.map((child) => lineFrom(child, (line) => /^(won|lost) /.test(line)));
  for (const child of children) child.stdin.write('go\n');
  const lines = await Promise.all(reports);
  for (const child of children) child.stdin.end();
  await Promise.all(exited);
  return lines;
}

describe('DATA_DIR lock across processes', () => {
  it('exactly one of several processes wins a free lock, and exactly one wins a stale one', async () => {
    const free = freshDir();
    const stale = freshDir();
    writeLock(stale, { pid: deadPid(), nonce: 'crashed', role: 'server', startedAt: 'x' });
    const [onFree, onStale] = await Promise.all([race(free, 3), race(stale, 3)]);
    for (const reports of [onFree, onStale]) {
      const winners = reports.filter((line) => line.startsWith('won '));
      expect(winners, reports.join('\n')).toHaveLength(1);
      const winnerPid = (winners[0] as string).slice(4);
      for (const line of reports.filter((report) => !report.startsWith('won '))) {
        expect(line).toContain(`is in use by another Tunedrop server (PID ${winnerPid},`);
      }
    }
  }, 60_000);
});
