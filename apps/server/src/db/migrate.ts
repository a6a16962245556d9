/** Applies the committed SQL migrations under an advisory lock, so instances starting together do not race. */
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrationsFolder } from '../lib/paths';
import { rows, run } from '../lib/sql';
import type { Database } from './client';

export { migrationsFolder };

const MIGRATION_LOCK_ID = 7_412_001;

export async function runMigrations(database: Database, folder: string = migrationsFolder): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  await database.db.transaction(async (tx) => {
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
    }
  });
}
