/** Two instances starting together against one PostgreSQL database: migrations run once, both start. */
import { randomUUID } from 'node:crypto';
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
