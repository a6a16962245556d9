/**
 * lib/job-tables.ts reads and writes pg-boss's `job` table directly (record 257). This fails when an
 * upgrade of pg-boss changes that table's columns, its states or their order (`state < 'active'`), or the
 * unique indexes the fetch relies on: read job-tables.ts against the new version, then update this.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { inlineJob } from '../test-support/jobs';
import { createJobEngine } from './jobs';
import { createLogger } from './logger';
import { rows } from './sql';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
}, 60_000);

afterAll(async () => {
  await system?.close();
});

describe("pg-boss's job table, as lib/job-tables.ts uses it", () => {
  it('has the columns and types the statements name', async () => {
    const columns = await rows<{ columnName: string; dataType: string }>(
      system.db,
      sql`select column_name, data_type from information_schema.columns
           where table_schema = 'pgboss' and table_name = 'job' order by column_name`,
    );
    expect(columns).toEqual(
      [
        ['completed_on', 'timestamp with time zone'],
        ['created_on', 'timestamp with time zone'],
        ['data', 'jsonb'],
        ['dead_letter', 'text'],
        ['expire_in', 'interval'],
        ['id', 'uuid'],
        ['keep_until', 'timestamp with time zone'],
        ['name', 'text'],
        ['output', 'jsonb'],
        ['policy', 'text'],
        ['priority', 'integer'],
        ['retry_backoff', 'boolean'],
        ['retry_count', 'integer'],
        ['retry_delay', 'integer'],
        ['retry_limit', 'integer'],
        ['singleton_key', 'text'],
        ['singleton_on', 'timestamp without time zone'],
        ['start_after', 'timestamp with time zone'],
        ['started_on', 'timestamp with time zone'],
        ['state', 'USER-DEFINED'],
      ].map(([columnName, dataType]) => ({ columnName, dataType })),
    );
  });

  it('has its states in the order the statements compare them', async () => {
    const states = await rows<{ state: string }>(
      system.db,
      sql`select unnest(enum_range(null::pgboss.job_state))::text as state`,
    );
    expect(states.map((row) => row.state)).toEqual([
      'created',
      'retry',
      'active',
      'completed',
      'cancelled',
      'failed',
    ]);
  });

  it("keeps one active run per key of a singleton or stately queue (the fetch's skip relies on it)", async () => {
    // Each queue is a partition of pgboss.job with its own indexes: a web engine creates one.
    const shaped = inlineJob({ name: 'test.shape', payload: z.object({}), async run() {} });
    const web = createJobEngine({
      role: 'web',
      jobs: [shaped],
      deps: {},
      logger: createLogger('silent'),
      database: system.database,
      databaseUrl: system.config.DATABASE_URL,
    });
    await web.start();
    await web.stop();
    const indexes = await rows<{ definition: string }>(
      system.db,
      sql`select pg_get_indexdef(i.indexrelid) as definition
            from pg_index i join pg_inherits p on p.inhrelid = i.indrelid
           where p.inhparent = 'pgboss.job'::regclass and i.indisunique
           order by 1`,
    );
    const text = indexes.map((row) => row.definition).join('\n');
    expect(text).toMatch(
      /\(name, COALESCE\(singleton_key, ''::text\)\) WHERE \(\(state = 'active'.*'singleton'/,
    );
    expect(text).toMatch(
      /\(name, state, COALESCE\(singleton_key, ''::text\)\) WHERE \(\(state <= 'active'.*'stately'/,
    );
  });
});
