/**
 * A database as an earlier release left it (issue 36, record 246): migrated only up to a given migration
 * (PGlite in memory, or a new database on the PostgreSQL server of DATABASE_URL), then filled with the
 * money history that release's own code wrote (money-history-0066.sql), so the history migration and
 * ledger:verify can be run against real old data, and the figures read before and after.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client';
import { migrationsFolder, runMigrations } from '../db/migrate';
import { rows } from '../lib/sql';

export type OldDatabase = { database: Database; close: () => Promise<void> };

type MigrationJournal = { entries: { idx: number; tag: string }[] } & Record<string, unknown>;

/** A copy of the migrations folder that ends at `lastTag` ("0066_release_update_tracks"). */
function migrationsUpTo(lastTag: string): string {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
  ) as MigrationJournal;
  const last = journal.entries.find((entry) => entry.tag === lastTag);
  if (!last) throw new Error(`no migration ${lastTag}`);
  const entries = journal.entries.filter((entry) => entry.idx <= last.idx);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-migrations-'));
  fs.mkdirSync(path.join(folder, 'meta'));
  fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) {
    fs.copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  return folder;
}

/** Applies the migrations up to `lastTag` that this database has not applied yet. */
export async function migrateUpTo(database: Database, lastTag: string): Promise<number> {
  const folder = migrationsUpTo(lastTag);
  try {
    return await runMigrations(database, folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** A new database migrated up to `lastTag` and no further. */
export async function openDatabaseAt(lastTag: string): Promise<OldDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  let drop = async () => {};
  let database: Database;
  if (baseUrl) {
    const name = `tunedrop_history_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    drop = async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  } else {
    database = await openDatabase({ dataDir: 'memory://' });
  }
  await migrateUpTo(database, lastTag);
  return {
    database,
    async close() {
      await database.close();
      await drop();
    },
  };
}

/** Runs a script of many statements (the simple query protocol on both drivers). */
export async function execScript(database: Database, script: string): Promise<void> {
  if (database.kind === 'pglite') await database.client.exec(script);
  else await database.pool.query(script);
}

/** Fills a database at migration 0066 with the money history made by that release. */
export async function loadMoneyHistory(database: Database): Promise<void> {
  await execScript(
    database,
    fs.readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), 'money-history-0066.sql'),
      'utf8',
    ),
  );
}

/** Applies every migration after the ones this database has (the upgrade); returns how many ran. */
export function upgrade(database: Database): Promise<number> {
  return runMigrations(database);
}

/**
 * Today's money figures as the pre-journal tables state them, each a decimal text in USD, keyed
 * "what:subject": what a history migration must leave unchanged and what the journal must equal.
 */
export async function moneyFigures(database: Database): Promise<Record<string, string>> {
  const found = await rows<{ key: string; usd: string }>(
    database.db,
    sql`
      select 'balance:' || id as key, trim_scale(balance_cents / 100.0)::text as usd from profiles
      union all
      select 'pending:' || id, trim_scale(pending_balance_cents / 100.0)::text from profiles
      union all
      select 'held:' || payee_id, trim_scale(sum(cents) / 100.0)::text
        from split_settlements where held and released_to is null group by payee_id
      union all
      select 'suspense:' || import_id, trim_scale(sum(amount_usd))::text
        from royalty_suspense_lines where state = 'open' group by import_id
      union all
      select 'fees', trim_scale(coalesce(sum(cents), 0) / 100.0)::text from operator_revenue where kind = 'fee'
      union all
      select 'released', trim_scale(coalesce(sum(amount_usd), 0))::text
        from operator_revenue where kind = 'suspense_release'
      union all
      select 'residue', trim_scale(coalesce(sum(residue), 0))::text from royalty_imports where status = 'posted'
      union all
      select 'paid', trim_scale(coalesce(sum(amount_cents), 0) / 100.0)::text
        from withdrawal_requests where status = 'completed'`,
  );
  return Object.fromEntries(found.map((row) => [row.key, row.usd]));
}
