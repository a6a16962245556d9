/**
 * Bulk staging with COPY … FROM STDIN (text format), about ten times cheaper for the server than a
 * multi-row INSERT of the same rows (decision 114): on PostgreSQL through pg-copy-streams, on PGlite
 * through COPY FROM '/dev/blob' (decision 166). The statement's column list and each row's values come
 * from one list of {column, value} pairs, so a column can never be written into its neighbour.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from '../../db/client';
import { noteWrite } from '../../db/read-cache';

export type CopyValue = string | number | boolean | null;

/** One column of a COPY: its name in the table and how a row gives its value. */
export type CopyColumn<Row> = { column: string; value: (row: Row) => CopyValue };

const SPECIAL = /[\\\t\n\r]/;
/** A value in COPY text format (\N for null; backslash, tab and line breaks escaped; booleans t/f). */
export function copyValue(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value !== 'string') return String(value);
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (char) =>
    char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r',
  );
}

/** One row in COPY text format, its values in the order of `columns`, ending in \n. */
export function copyRow<Row>(columns: readonly CopyColumn<Row>[], row: Row): string {
  let text = '';
  let separator = '';
  for (const column of columns) {
    text += separator + copyValue(column.value(row));
    separator = '\t';
  }
  return `${text}\n`;
}

export type CopySink = {
  /** Sends rows already in COPY text format (from copyRow with the sink's columns), as text or UTF-8. */
  write: (rows: string | Uint8Array) => Promise<void>;
  close: () => Promise<void>;
};

/** The driver under `db`: drizzle keeps its client as `$client`, a pg.Pool or else a PGlite instance. */
function driverOf(db: Db): pg.Pool | PGlite {
  const client: unknown = '$client' in db ? db.$client : null;
  if (client instanceof pg.Pool) return client;
  // PGlite is imported lazily by db/client.ts, so there is no class here to test it against.
  return client as PGlite;
}

/** Whether `db` is PostgreSQL (a pool: other requests have their own connections) rather than PGlite. */
export function isPostgres(db: Db): boolean {
  return driverOf(db) instanceof pg.Pool;
}

/** A COPY sink into `table` with the given columns on whichever database `db` is. */
export async function openCopySink<Row>(
  db: Db,
  table: string,
  columns: readonly CopyColumn<Row>[],
): Promise<CopySink> {
  const names = columns.map((column) => column.column).join(', ');
  const client = driverOf(db);
  if (client instanceof pg.Pool) {
    const connection = await client.connect();
    let isBroken = false;
    return {
      write: async (rows) => {
        if (rows.length === 0) return;
        const bytes =
          typeof rows === 'string'
            ? Buffer.from(rows, 'utf8')
            : Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength);
        try {
          const copy = connection.query(copyFrom(`copy ${table} (${names}) from stdin`));
          // The stream finishes once the server has confirmed the COPY (CommandComplete).
          await pipeline(Readable.from([bytes]), copy);
        } catch (error) {
          isBroken = true;
          throw error;
        }
      },
      // A connection whose COPY failed mid-protocol is not given back to the pool.
      close: async () => connection.release(isBroken ? new Error('copy failed') : undefined),
    };
  }
  const statement = `copy ${table} (${names}) from '/dev/blob'`;
  return {
    write: async (rows) => {
      if (rows.length === 0) return;
      try {
        await client.query(statement, [], { blob: new Blob([rows]) });
      } finally {
        noteWrite();
      }
    },
    close: async () => undefined,
  };
}
