/**
 * Opens the database: PGlite in DATA_DIR/db by default (one process at a time: see data-dir-lock.ts),
 * a node-postgres pool when DATABASE_URL is set.
 *
 * PGlite is a single connection. Every top-level query/exec of a PGlite instance runs under its
 * transaction mutex, and `transaction()` holds that mutex until COMMIT/ROLLBACK (PGlite 0.5.16,
 * `_runExclusiveTransaction`; Drizzle's PGlite session maps `db.transaction` onto it). So on one
 * instance the queries of concurrent requests and CLI commands run one after another and never land
 * inside another caller's open transaction (pglite-transactions.test.ts proves it).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { keepPrivateUnder } from '../lib/private-dir';
import { acquireDataDirLock, type LockRole } from './data-dir-lock';
import { queryCountLogger } from './query-count';
import { enableReadCache, isPlainRead, noteWrite } from './read-cache';
import * as schema from './schema';
import { type DatabaseTimeouts, poolTimeouts, TimedClient } from './timed-client';

export type { DatabaseTimeouts };

export type Schema = typeof schema;
/** The common Postgres database type both drivers satisfy; queries take this (or a transaction). */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

/**
 * Callback for LISTEN; returns a function that stops listening. On PostgreSQL a dropped listening
 * connection is re-opened with backoff, and onReconnect runs once it listens again (notifications sent
 * while it was down are lost, so callers re-read what they show).
 */
export type Listen = (
  channel: string,
  onPayload: (payload: string) => void,
  onReconnect?: () => void,
) => Promise<() => Promise<void>>;

/** The database and its driver's client (the job engine, /metrics and test templates read the client). */
export type Database = {
  db: Db;
  listen: Listen;
  close: () => Promise<void>;
} & ({ kind: 'pglite'; client: PGlite } | { kind: 'postgres'; pool: pg.Pool });

export type OpenOptions = {
  timeouts?: DatabaseTimeouts | undefined;
  databaseUrl?: string | undefined;
  dataDir: string;
  /** A dumped PGlite data directory to start from (tests reuse one migrated copy). */
  pgliteTemplate?: Blob | undefined;
  /**
   * Who takes the exclusive lock on dataDir (PGlite on disk only): a second opener gets a
   * DataDirLockedError naming the holder. Default 'server'.
   */
  lockRole?: LockRole | undefined;
};

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.timeouts);
  // `memory://` keeps the embedded database in memory (unit and API tests).
  if (options.dataDir === 'memory://') return openPglite(null, options.pgliteTemplate);
  const lock = acquireDataDirLock(options.dataDir, options.lockRole ?? 'server');
  try {
    const database = await openPglite(path.join(options.dataDir, 'db'));
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Dumps an in-memory PGlite database as an uncompressed tarball (used for test templates). */
export async function dumpPglite(database: Database): Promise<Blob> {
  if (database.kind !== 'pglite') throw new Error('only a PGlite database can be dumped');
  return database.client.dumpDataDir('none');
}

async function openPostgres(url: string, timeouts: DatabaseTimeouts | undefined): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    Client: TimedClient,
    ...(timeouts ? poolTimeouts(timeouts) : {}),
  });
  // A transaction's longer limits (allowLongStatements) end with it.
  pool.on('release', (_error, client) => {
    if (client instanceof TimedClient) client.readTimeoutMs = null;
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries in flight report their own errors.
  });
  // Fail early with a clear error when the server cannot be reached.
  const probe = await pool.connect();
  probe.release();
  const db = drizzleNodePg(pool, { schema, logger: queryCountLogger }) as unknown as Db;
  const listen: Listen = async (channel, onPayload, onReconnect) => {
    const quoted = `"${channel.replace(/"/g, '')}"`;
    const handler = (message: pg.Notification) => {
      if (message.channel === channel) onPayload(message.payload ?? '');
    };
    let client: pg.PoolClient | null = null;
    let isStopped = false;
    let retry: NodeJS.Timeout | undefined;
    // A checked-out pg client has no 'error' listener of the pool's: without this one a dropped
    // connection (server restart, terminated backend) would crash the process.
    const onError = (error: Error) => {
      const broken = client;
      client = null;
      if (!broken) return;
      broken.off('notification', handler);
      broken.release(error);
      scheduleReconnect(500);
    };
    const connect = async () => {
      const next = await pool.connect();
      next.on('error', onError);
      next.on('notification', handler);
      try {
        await next.query(`listen ${quoted}`);
      } catch (error) {
        next.off('notification', handler);
        next.release(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
      client = next;
    };
    const scheduleReconnect = (delayMs: number) => {
      if (isStopped) return;
      retry = setTimeout(() => {
        connect().then(
          () => onReconnect?.(),
          () => scheduleReconnect(Math.min(delayMs * 2, 30_000)),
        );
      }, delayMs);
      retry.unref();
    };
    await connect();
    return async () => {
      isStopped = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      if (!current) return;
      current.off('notification', handler);
      await current.query(`unlisten ${quoted}`).catch(() => undefined);
      current.off('error', onError);
      current.release();
    };
  };
  return { db, kind: 'postgres', pool, listen, close: () => pool.end() };
}

async function openPglite(dir: string | null, template?: Blob): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  // Trigram search indexes (migration 0008); PostgreSQL has pg_trgm in its contrib, PGlite ships it apart.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const extensions = { pg_trgm };
  if (dir) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // PGlite chmods its files 0666 itself, whatever the umask (see lib/private-dir.ts).
    keepPrivateUnder(dir);
  }
  const client = dir
    ? await PGlite.create({ dataDir: dir, extensions })
    : await PGlite.create(template ? { loadDataDir: template, extensions } : { extensions });
  const db = drizzlePglite(noteWritesOf(client), { schema, logger: queryCountLogger }) as unknown as Db;
  enableReadCache(db);
  const listen: Listen = async (channel, onPayload) => {
    const unsubscribe = await client.listen(channel, onPayload);
    return async () => unsubscribe();
  };
  return { db, kind: 'pglite', client, listen, close: () => client.close() };
}

/**
 * The PGlite client as Drizzle uses it: a new read-cache epoch also once each write and each transaction has
 * ended (read-cache.ts), so a read that ran before a write cannot stay cached past it, whatever the order in
 * which their statements were queued.
 */
function noteWritesOf(client: PGlite): PGlite {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'transaction') {
        return async (...args: unknown[]) => {
          try {
            return await value.apply(target, args);
          } finally {
            noteWrite();
          }
        };
      }
      if (property === 'query' || property === 'exec') {
        return async (...args: unknown[]) => {
          try {
            return await value.apply(target, args);
          } finally {
            if (property === 'exec' || !isPlainRead(String(args[0]))) noteWrite();
          }
        };
      }
      return value.bind(target);
    },
  });
}
