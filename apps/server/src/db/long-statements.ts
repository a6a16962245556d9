/**
 * Longer statement limits for one transaction (record 223). Every connection starts with the pool's
 * `statement_timeout` (DATABASE_STATEMENT_TIMEOUT_MS), sized for requests; work that legitimately runs
 * longer statements (a posting chunk of 250,000 lines, a migration) raises it for its own transaction:
 * `SET LOCAL`, so it ends with the transaction, and the client's read timeout with it.
 */
import { sql } from 'drizzle-orm';
import { run } from '../lib/sql';
import type { Tx } from './client';
import { READ_GRACE_MS, TimedClient } from './timed-client';

/**
 * Lets the statements of `tx` run up to `ms` (default DATABASE_LONG_STATEMENT_TIMEOUT_MS; 0: no limit)
 * until it commits or rolls back. On PGlite it does nothing: statements there are never interrupted.
 */
export async function allowLongStatements(tx: Tx, limitMs?: number): Promise<void> {
  // Drizzle keeps the transaction's connection as its session's client (not part of its typed API).
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  if (!(client instanceof TimedClient)) return;
  const ms = limitMs ?? client.longStatementMs;
  await run(tx, sql`select set_config('statement_timeout', ${String(ms)}, true)`);
  // Cleared when the connection goes back to the pool (db/client.ts).
  // pg reads a query_timeout of 0 as "the pool's", so no limit is the longest timer Node keeps.
  client.readTimeoutMs = ms > 0 ? ms + READ_GRACE_MS : 2 ** 31 - 1;
}
