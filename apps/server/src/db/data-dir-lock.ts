/**
 * One owner for an embedded (PGlite) data directory: an exclusive lock file `DATA_DIR/tunedrop.lock`
 * holding the owner's PID. PGlite itself writes a fake postmaster PID, so without this a second
 * process would open the same directory and lose or corrupt data.
 *
 * - Create is atomic: the lock's full content is written to a private temporary file first, then
 *   hard-linked to the lock name (`link` fails with EEXIST when a lock exists), so nobody ever reads
 *   a half-written lock. (Where hard links are not supported: `open(…, 'wx')`, and an unreadable lock
 *   younger than 10 s counts as being written.)
 * - A lock whose process is gone is stale (PID not alive, or alive but started at another time: a
 *   reused PID, as after a container restart). Taking a stale lock over is a compare-and-swap: the
 *   taker must first create `tunedrop.lock.takeover-<nonce of the stale lock>` (itself a lock, so a
 *   taker that died is taken over the same way), then re-reads the lock and, if it still is that stale
 *   generation, renames its own lock over it. Two racers cannot both win: only the holder of the
 *   takeover file for a generation may replace that generation.
 * - Released (removed, if still ours) on close and on process exit.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorCode } from '../lib/error-fields';

export type LockRole = 'server' | 'cli';

export type LockHolder = {
  pid: number;
  nonce: string;
  role: LockRole | 'unknown';
  startedAt: string;
  /** /proc/<pid>/stat start time (Linux), to tell a live owner from a reused PID. */
  processStart: string | null;
};

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const what = holder.role === 'unknown' ? 'process' : holder.role === 'cli' ? 'CLI command' : 'server';
    super(
      `DATA_DIR ${dataDir} is in use by another Tunedrop ${what} (PID ${holder.pid}, since ${holder.startedAt}); stop it or set DATA_DIR to another directory`,
    );
    this.name = 'DataDirLockedError';
  }
}

export type DataDirLock = { path: string; holder: LockHolder; release: () => void };

export const LOCK_FILE = 'tunedrop.lock';

/** Nonces of the locks this process holds (a PID equal to ours is only alive if it is one of these). */
const heldNonces = new Set<string>();

function processStartOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); fields after the command name, which may contain spaces, start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(holder: LockHolder): boolean {
  if (holder.pid === process.pid) return heldNonces.has(holder.nonce);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if (errorCode(error) !== 'EPERM') return false;
  }
  if (holder.processStart) {
    const now = processStartOf(holder.pid);
    if (now !== null && now !== holder.processStart) return false;
  }
  return true;
}

function readHolder(file: string): LockHolder | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.nonce === 'string') {
      return {
        pid: parsed.pid,
        nonce: parsed.nonce,
        role: parsed.role === 'server' || parsed.role === 'cli' ? parsed.role : 'unknown',
        startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : 'unknown',
        processStart: typeof parsed.processStart === 'string' ? parsed.processStart : null,
      };
    }
  } catch {
    // Not ours or damaged: fall through.
  }
  // Unreadable content cannot name a live owner; give it a nonce from its inode so takeover stays a CAS.
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  return { pid: 0, nonce: `ino${stat.ino}`, role: 'unknown', startedAt: 'unknown', processStart: null };
}

/** Writes content to a private temporary file beside `file` and returns its path. */
function writeTemp(file: string, holder: LockHolder): string {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(holder), { mode: 0o600, flag: 'wx' });
  return temp;
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Creates `file` with the holder's content unless it exists; false when it exists. */
function createExclusive(file: string, holder: LockHolder): boolean {
  const temp = writeTemp(file, holder);
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    const code = errorCode(error) ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  // A file system without hard links: exclusive create, then write (readers wait while it is empty).
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, JSON.stringify(holder));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function isRecent(file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && Date.now() - stat.mtimeMs < 10_000;
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Acquires `file` for `holder`, taking over a stale lock. Returns null on success, or the live holder.
 * `depth` bounds the chain of takeover files (each level needs a taker that died mid-takeover).
 */
function acquireFile(file: string, holder: LockHolder, depth = 0): LockHolder | null {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (createExclusive(file, holder)) return null;
    const current = readHolder(file);
    if (!current) continue; // released in between: try again
    if (current.pid !== 0 && isAlive(current)) return current;
    if (current.pid === 0 && isRecent(file)) {
      // Unreadable and brand new: a creator without hard links may still be writing it.
      sleepSync(50);
      continue;
    }
    if (depth >= 5) throw new Error(`cannot take over the stale lock ${file}`);
    // Stale: only the holder of the takeover file for this generation may replace it.
    const takeover = `${file}.takeover-${current.nonce.replace(/[^A-Za-z0-9-]/g, '')}`;
    const taker = acquireFile(takeover, holder, depth + 1);
    if (taker) {
      // A live process is taking it over right now; it finishes within moments.
      sleepSync(20);
      continue;
    }
    try {
      const again = readHolder(file);
      if (again?.nonce === current.nonce) {
        const mine = writeTemp(file, holder);
        try {
          fs.renameSync(mine, file);
        } catch (error) {
          fs.rmSync(mine, { force: true });
          throw error;
        }
        return null;
      }
      // Someone replaced or released that generation first: start over.
    } finally {
      fs.rmSync(takeover, { force: true });
    }
  }
  throw new Error(`cannot acquire the lock ${file}`);
}

/** Takes the exclusive lock on dataDir or throws DataDirLockedError naming the live holder. */
export function acquireDataDirLock(dataDir: string, role: LockRole): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  const holder: LockHolder = {
    pid: process.pid,
    nonce: randomUUID(),
    role,
    startedAt: new Date().toISOString(),
    processStart: processStartOf(process.pid),
  };
  heldNonces.add(holder.nonce);
  let live: LockHolder | null;
  try {
    live = acquireFile(file, holder);
  } catch (error) {
    heldNonces.delete(holder.nonce);
    throw error;
  }
  if (live) {
    heldNonces.delete(holder.nonce);
    throw new DataDirLockedError(path.resolve(dataDir), live);
  }
  let isReleased = false;
  const release = () => {
    if (isReleased) return;
    isReleased = true;
    process.off('exit', release);
    heldNonces.delete(holder.nonce);
    // Remove it only while it is still ours.
    if (readHolder(file)?.nonce === holder.nonce) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return { path: file, holder, release };
}

/** The current live holder of dataDir's lock, or null when none (a stale lock counts as none). */
export function dataDirLockHolder(dataDir: string): LockHolder | null {
  const holder = readHolder(path.join(dataDir, LOCK_FILE));
  return holder && holder.pid !== 0 && isAlive(holder) ? holder : null;
}
