/**
 * Raw SQL, where the query builder cannot say it (window functions, generate_series, array_agg in a
 * filter...): one typed helper instead of casting `db.execute` results by hand in every service.
 */
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/**
 * Runs `query` and returns its rows typed as `Row`. Both drivers (PGlite, node-postgres) answer
 * `{ rows }`; the row type is the caller's promise about the select list, so keep the two side by side.
 * Numbers from count() and bigint columns arrive as strings on node-postgres: type them `string | number`
 * and convert with Number().
 */
export async function rows<Row extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
