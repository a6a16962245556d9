/**
 * Raw SQL, where the query builder cannot say it (window functions, generate_series, array_agg in a
 * filter, DDL, advisory locks...): the one place that calls `db.execute` (record 167; `npm run lint`
 * fails on `.execute(` anywhere else in production code, scripts/check-raw-sql.mjs).
 */
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/** What both drivers answer (node-postgres QueryResult, PGlite Results): rows keyed by column name. */
type RawResult = { rows: Record<string, unknown>[] };

/** `owner_name` → `ownerName` (a name without underscores stays as it is). */
export function camelCaseName(name: string): string {
  return name.replace(/_+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

async function execute(db: DbOrTx, query: SQL): Promise<RawResult> {
  // Drizzle types execute() by driver (PgQueryResultHKT); both drivers answer `{ rows }`.
  return (await db.execute(query)) as unknown as RawResult;
}

/**
 * Runs `query` and returns its rows with column names in camelCase (`owner_name` is read as
 * `ownerName`), typed as `Row`: the row type is the caller's promise about the select list, so keep
 * the two side by side. Numbers from count() and bigint columns arrive as strings on node-postgres:
 * type them `string | number` and convert with Number().
 */
export async function rows<Row extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = await execute(db, query);
  return result.rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(raw)) row[camelCaseName(name)] = value;
    // The caller's promise about its select list (see above).
    return row as Row;
  });
}

/**
 * Runs `query` and returns its rows as the driver answers them (column names unchanged): for pg-boss's
 * `db` adapter (lib/job-client.ts), which reads its own column names.
 */
export async function driverRows(db: DbOrTx, query: SQL): Promise<Record<string, unknown>[]> {
  return (await execute(db, query)).rows;
}

/** The first row of `query` (see rows()), or undefined when it answers none. */
export async function firstRow<Row extends Record<string, unknown>>(
  db: DbOrTx,
  query: SQL,
): Promise<Row | undefined> {
  return (await rows<Row>(db, query))[0];
}

/** Runs a statement whose rows nobody reads (DDL, a lock, an update without returning). */
export async function run(db: DbOrTx, query: SQL): Promise<void> {
  await execute(db, query);
}
