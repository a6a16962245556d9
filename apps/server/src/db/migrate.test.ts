/**
 * Two instances starting together against one PostgreSQL database: migrations run once, both start. A
 * migration merged with an older journal time than one already applied still runs.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { runMigrations } from './migrate';

const baseUrl = process.env.DATABASE_URL;

describe.skipIf(!baseUrl)('migrations on PostgreSQL', () => {
  it('two instances migrating at once both succeed and apply each migration once', async () => {
    const name = `tunedrop_migrate_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(baseUrl ?? '');
    url.pathname = `/${name}`;
    const [a, b] = await Promise.all([
      openDatabase({ databaseUrl: url.toString(), dataDir: '' }),
      openDatabase({ databaseUrl: url.toString(), dataDir: '' }),
    ]);
    try {
      await Promise.all([runMigrations(a), runMigrations(b)]);
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const applied = await client.query('select hash from drizzle.__drizzle_migrations');
      const hashes = applied.rows.map((row: { hash: string }) => row.hash);
      expect(new Set(hashes).size).toBe(hashes.length);
      const tables = await client.query(
        "select count(*)::int as n from information_schema.tables where table_name = 'profiles'",
      );
      expect(tables.rows[0].n).toBe(1);
      await client.end();
    } finally {
      await a.close();
      await b.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});

describe('migrations added out of order', () => {
  it('a migration whose journal time is older than one already applied still runs, and none runs twice', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-migrations-'));
    const write = (entries: { idx: number; when: number; tag: string; sql: string }[]) => {
      fs.mkdirSync(path.join(folder, 'meta'), { recursive: true });
      for (const entry of entries) fs.writeFileSync(path.join(folder, `${entry.tag}.sql`), entry.sql);
      fs.writeFileSync(
        path.join(folder, 'meta', '_journal.json'),
        JSON.stringify({
          version: '7',
          dialect: 'postgresql',
          entries: entries.map(({ idx, when, tag }) => ({ idx, version: '7', when, tag, breakpoints: true })),
        }),
      );
    };
    const later = { idx: 1, when: 2_000, tag: '0001_later', sql: 'create table later_one (id int);' };
    const merged = { idx: 0, when: 1_000, tag: '0000_merged', sql: 'create table merged_one (id int);' };
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      write([later]);
      await runMigrations(database, folder);
      write([merged, later]);
      await runMigrations(database, folder);
      await runMigrations(database, folder);
      const tables = await database.db.execute(
        sql`select table_name from information_schema.tables where table_name in ('later_one', 'merged_one') order by 1`,
      );
      expect(
        (tables as unknown as { rows: { table_name: string }[] }).rows.map((row) => row.table_name),
      ).toEqual(['later_one', 'merged_one']);
    } finally {
      await database.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
