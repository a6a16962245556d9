/**
 * The pool's connections with timeouts (record 223). The server ends a statement after
 * `statement_timeout` and a transaction left idle after `idle_in_transaction_session_timeout`; neither
 * helps when the server or the network in between stops answering (a host gone, a proxy that hangs), so
 * the client also gives up on an answer a second after the server would have, and destroys that
 * connection: a connection whose question is still unanswered can never be used again, and given back to
 * the pool it would fail every later query on it the same slow way.
 *
 * A job whose statements legitimately run longer (a posting chunk, a migration) raises both limits for
 * its own transaction with `allowLongStatements` (long-statements.ts).
 */
import pg from 'pg';

/**
 * Timeouts of a PostgreSQL pool (record 223), in milliseconds; 0 turns one off. PGlite is in-process:
 * none of them applies there (no connection to open or lose; its single-threaded WebAssembly build never
 * interrupts a running statement, so `statement_timeout` is not even honoured).
 */
export type DatabaseTimeouts = {
  /**
   * Opening a connection. Waiting for a free connection of a busy pool is allowed this plus the statement
   * limit and its grace: a burst of requests queues as before, and a pool whose connections all hang still
   * frees them by then (a wait of only this limit answered 503 to the 100 approvals of the scale-out test).
   */
  connectMs: number;
  /**
   * The server's `statement_timeout`; the client also gives up on an answer this long plus a second after
   * the question (a server or network that stopped answering), and drops that connection.
   */
  statementMs: number;
  /** The server's `idle_in_transaction_session_timeout`: a transaction left open ends, its locks freed. */
  idleInTransactionMs: number;
  /** The statement limit of a transaction that called allowLongStatements (jobs' long steps). */
  longStatementMs: number;
};

/** How long after the server's own limit the client stops waiting for an answer. */
export const READ_GRACE_MS = 1000;

/** The pg.Pool options for these timeouts. */
export function poolTimeouts(
  timeouts: DatabaseTimeouts,
): pg.PoolConfig & { longStatementMs: number; openConnectionMs: number } {
  const readMs = timeouts.statementMs > 0 ? timeouts.statementMs + READ_GRACE_MS : 0;
  return {
    // Not pg's: the pool hands its options to each TimedClient, which keeps these two.
    longStatementMs: timeouts.longStatementMs,
    openConnectionMs: timeouts.connectMs,
    // pg-pool's limit covers the wait in its queue too; the client's own connect limit is openConnectionMs.
    connectionTimeoutMillis: timeouts.connectMs > 0 ? timeouts.connectMs + readMs : 0,
    // pg sends these two as start-up parameters of every connection; 0 leaves the server's default.
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    query_timeout: readMs,
  };
}

/** A query's config as pg accepts it: text, a config object, or a submittable (a COPY stream). */
type QueryConfigLike = { query_timeout?: number; submit?: unknown };

export class TimedClient extends pg.Client {
  /**
   * Set by allowLongStatements for the rest of the transaction (null: the pool's query_timeout); cleared
   * when the connection goes back to the pool.
   */
  readTimeoutMs: number | null = null;
  /** The pool's DATABASE_LONG_STATEMENT_TIMEOUT_MS (0: none). */
  readonly longStatementMs: number;

  constructor(config?: string | (pg.ClientConfig & { longStatementMs?: number; openConnectionMs?: number })) {
    super(
      typeof config === 'object' && config.openConnectionMs !== undefined
        ? { ...config, connectionTimeoutMillis: config.openConnectionMs }
        : config,
    );
    this.longStatementMs = typeof config === 'object' ? (config.longStatementMs ?? 0) : 0;
    // A checked-out connection has no listener of the pool's: a destroyed or broken connection would emit
    // an unhandled 'error' and end the process. Its queries report the error themselves.
    this.on('error', () => undefined);
  }

  // pg's query() has a dozen overloads; this keeps each as it is and only adds the timeout's clean-up.
  // biome-ignore lint/suspicious/noExplicitAny: the overloads' arguments are passed on untouched
  override query(...args: any[]): any {
    const [config] = args;
    if (this.readTimeoutMs !== null && config && typeof config === 'object') {
      const query = config as QueryConfigLike;
      if (typeof query.submit === 'function') query.query_timeout = this.readTimeoutMs;
      else args[0] = { ...query, query_timeout: this.readTimeoutMs };
    } else if (this.readTimeoutMs !== null && typeof config === 'string') {
      args[0] = { text: config, query_timeout: this.readTimeoutMs };
    }
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const result = (super.query as (...rest: any[]) => unknown)(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === 'Query read timeout') this.abandon();
      });
    }
    return result;
  }

  /** Destroys the socket: queued queries fail at once, and the pool drops this connection on release. */
  abandon(): void {
    const connection = (this as unknown as { connection?: { stream?: { destroy(error?: Error): void } } })
      .connection;
    connection?.stream?.destroy();
  }
}
