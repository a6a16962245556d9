/** Applies the committed SQL migrations under an advisory lock, so instances starting together do not race. */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrationsFolder } from '../lib/paths';
import { rows, run } from '../lib/sql';
import type { Database } from './client';
import { allowLongStatements } from './long-statements';

export { migrationsFolder };

const MIGRATION_LOCK_ID = 7_412_001;

/** Applies every migration not recorded yet; returns how many it applied. */
export async function runMigrations(database: Database, folder: string = migrationsFolder): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  let count = 0;
  await database.db.transaction(async (tx) => {
    // A migration may rebuild an index of millions of rows, and another instance may wait here for this
    // one's: no statement limit for this transaction (record 223).
    await allowLongStatements(tx, 0);
    // Held until the transaction ends; a second instance waits here, then finds nothing left to apply.
    await run(tx, sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await run(tx, sql`create schema if not exists drizzle`);
    await run(
      tx,
      sql`create table if not exists drizzle.__drizzle_migrations (
      id serial primary key, hash text not null, created_at bigint)`,
    );
    const appliedRows = await rows<{ createdAt: string | number }>(
      tx,
      sql`select created_at from drizzle.__drizzle_migrations`,
    );
    // A migration is known by its journal time, not compared with the newest one: a migration merged
    // with an older time than one already applied (two branches) still runs.
    const applied = new Set(appliedRows.map((row) => Number(row.createdAt)));
    for (const migration of migrations) {
      if (applied.has(migration.folderMillis)) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await run(tx, sql.raw(statement));
      }
      await run(
        tx,
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
      count += 1;
    }
  });
  return count;
}

/**
 * The journal's tags (`0042_name`) of the migrations this database has not applied, oldest first; every
 * one when it was never migrated. Reads only (production instances check, the migrate role applies).
 */
export async function pendingMigrations(
  database: Database,
  folder: string = migrationsFolder,
): Promise<string[]> {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const [table] = await rows<{ name: string | null }>(
    database.db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`,
  );
  const applied = table?.name
    ? new Set(
        (
          await rows<{ createdAt: string | number }>(
            database.db,
            sql`select created_at from drizzle.__drizzle_migrations`,
          )
        ).map((row) => Number(row.createdAt)),
      )
    : new Set<number>();
  return journal.entries.filter((entry) => !applied.has(entry.when)).map((entry) => entry.tag);
}

/** An instance that may not migrate (production on PostgreSQL) found migrations to apply (record 224). */
export class UnmigratedDatabaseError extends Error {}

export function unmigratedMessage(pending: readonly string[]): string {
  const what =
    pending.length > 0
      ? `${pending.length} migration${pending.length === 1 ? ' is' : 's are'} pending (newest ${pending.at(-1)})`
      : "the job engine's schema is missing or older than this version";
  return `The database is not migrated: ${what}. In production (NODE_ENV=production with DATABASE_URL) instances do not migrate it themselves: run this version once with TUNEDROP_ROLE=migrate, then start the web and worker instances.`;
}
