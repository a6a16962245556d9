/**
 * The server as production runs it (the bundle of record 093), for tests that start it as a process: a
 * bundled start takes about 1 s, a start through tsx 4-8 s (it compiles and resolves ~400 modules), and
 * these tests start it dozens of times on each database. Built when a source is newer than it, into
 * dist/test-bundle (not dist/ itself, which the journeys' build rewrites while a test may be starting it),
 * under a lock between the test processes of both suites.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '../..');
const outdir = path.join(serverDir, 'dist', 'test-bundle');
const lockDir = path.join(
  os.tmpdir(),
  `tunedrop-test-bundle-${Buffer.from(serverDir).toString('hex').slice(-32)}.lock`,
);
/** A lock older than this was left by a killed build (a build takes well under a minute). */
const STALE_LOCK_MS = 5 * 60_000;

let isBuilt = false;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock(work: () => void): void {
  const deadline = Date.now() + 2 * STALE_LOCK_MS;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`the test bundle's lock ${lockDir} is still held`);
      else sleepSync(200);
    }
  }
  try {
    work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** The path of a bundled entry (`main`, `main-e2e` or `cli`), built first when a source is newer. */
export function bundledServer(entry: 'main' | 'main-e2e' | 'cli'): string {
  if (!isBuilt) {
    withLock(() => {
      const built = spawnSync(process.execPath, [path.join(serverDir, 'build.mjs'), '--if-stale'], {
        env: { ...process.env, TUNEDROP_BUILD_OUTDIR: outdir },
        encoding: 'utf8',
      });
      if (built.status !== 0) throw new Error(`the server bundle did not build:\n${built.stderr}`);
    });
    isBuilt = true;
  }
  return path.join(outdir, `${entry}.js`);
}
