/**
 * pg-boss's public API over our own database connections (record 257): `jobDb(tx)` is the `db` adapter
 * pg-boss's `send`, `complete`, `fail`, `cancel`... take in their options (`{ db }`), made over a Drizzle
 * database or transaction on either driver, so a job is written in the caller's transaction.
 * `jobClient` is a pg-boss instance that is never started: it only runs those calls through the adapter
 * it is handed (the engine's own started instance keeps the schema, the queues, cron and maintenance).
 */
import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { DbOrTx } from '../db/client';
import { driverRows } from './sql';

/** pg-boss's schema (created and migrated by pg-boss itself, record 155). */
export const SCHEMA = 'pgboss';

/**
 * pg-boss's `$n` placeholders as Drizzle parameters (a missing one is null). Each value is one parameter
 * (an array stays one array parameter, as `$2::uuid[]` wants); an object is sent as JSON text.
 */
export function withParams(text: string, values: readonly unknown[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    const value = values[Number(match[1]) - 1] ?? null;
    const isJson =
      typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
    chunks.push(sql`${sql.param(isJson ? JSON.stringify(value) : value)}`);
    last = (match.index ?? 0) + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks, sql.raw(''));
}

/** pg-boss's `db` adapter over `db` (the app's database or the caller's open transaction). */
export function jobDb(db: DbOrTx): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      return { rows: await driverRows(db, withParams(text, values)) };
    },
  };
}

/**
 * The instance whose methods we call with `{ db: jobDb(tx) }`. It is never started and has no
 * connection of its own: a call without a `db` fails at once rather than reaching another database.
 */
export const jobClient = new PgBoss({
  schema: SCHEMA,
  db: {
    executeSql: () => Promise.reject(new Error('jobClient is used only with { db: jobDb(tx) }')),
  },
  migrate: false,
  supervise: false,
  schedule: false,
});
