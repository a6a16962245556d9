/**
 * Reads answered from memory on the embedded database (issue 42, record 305). On PGlite the server owns its
 * database alone (data-dir-lock.ts; the CLI of a running server runs inside it, cli-socket.ts), so every
 * change to the app's tables passes through this process's Drizzle instances, whose logger (query-count.ts)
 * calls `noteStatement`: any statement that is not a plain read starts a new epoch, and an entry is answered
 * only in the epoch it was read in; each write and each transaction starts one more epoch when it ends
 * (client.ts), so a read that ran before a write, in whatever order their statements were queued, is not
 * answered after it. Coarse on purpose: one
 * write anywhere empties every cache, so nothing subtle decides what a write touches. Writes outside Drizzle
 * call `noteWrite` (the royalty COPY); pg-boss's own statements touch only its schema, which no cached read
 * reads. On PostgreSQL (several processes share the database) nothing is cached.
 */
let writeEpoch = 0;

/** Statements that may change data although they start with SELECT (sequences, row locks, notifications). */
const WRITING_SELECT =
  /\b(?:nextval|setval|pg_advisory\w*|pg_notify|set_config|lo_\w+)\s*\(|\bfor\s+(?:update|no\s+key|share|key\s+share)\b|\b(?:insert|update|delete|merge)\b/i;

export function isPlainRead(statement: string): boolean {
  return /^\s*\(?\s*select\b/i.test(statement) && !WRITING_SELECT.test(statement);
}

/** Drizzle's logger, before each statement runs: one that may write starts a new epoch. */
export function noteStatement(statement: string): void {
  if (!isPlainRead(statement)) writeEpoch += 1;
}

/** A write or a transaction has ended (client.ts), or the app's tables were changed outside Drizzle. */
export function noteWrite(): void {
  writeEpoch += 1;
}

const MAX_ENTRIES = 10_000;

/**
 * A cached answer is shared by every request that reads it: frozen (with the objects and arrays it holds,
 * one level down), so code that changes it in place throws instead of changing another request's answer.
 */
function frozen<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  for (const field of Object.values(value)) {
    if (field !== null && typeof field === 'object' && !(field instanceof Date)) Object.freeze(field);
  }
  return Object.freeze(value);
}

type Cache = { epoch: number; entries: Map<string, unknown> };
/** By Drizzle instance (a database's `db`; a transaction's is never enabled): typed loosely, as client.ts imports this file. */
const caches = new WeakMap<object, Cache>();

/** Turns the cache on for one database: the embedded one, owned by this process alone. */
export function enableReadCache(db: object): void {
  caches.set(db, { epoch: writeEpoch, entries: new Map() });
}

/**
 * `read()`'s answer for `key`, from memory when nothing was written since it was read; always `read()` on a
 * database without a cache and in a transaction. Answers must not depend on the time (callers compare
 * expiry dates themselves).
 */
export async function cachedRead<T>(db: object, key: string, read: () => Promise<T>): Promise<T> {
  const cache = caches.get(db);
  if (!cache) return read();
  if (cache.epoch !== writeEpoch) {
    cache.entries.clear();
    cache.epoch = writeEpoch;
  }
  if (cache.entries.has(key)) return cache.entries.get(key) as T;
  const epoch = writeEpoch;
  const value = await read();
  if (epoch === writeEpoch && cache.epoch === epoch) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(key, frozen(value));
  }
  return value;
}
