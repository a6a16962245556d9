/** lib/sql.ts on the test's database (PGlite or PostgreSQL): what a caller of rows(), firstRow() and run() gets. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { camelCaseName, firstRow, rows, run } from './sql';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
}, 60_000);

afterAll(async () => {
  await system?.close();
});

describe('raw SQL helper', () => {
  it('names columns in camelCase and leaves values alone', async () => {
    const found = await rows<{ ownerName: string; lineNo: number; plain: string; snakeValue: string }>(
      system.db,
      sql`select 'Ada' as owner_name, 3 as line_no, 'x' as plain, 'keep_me' as snake_value
          union all select 'Bo', 4, 'y', 'also_kept'`,
    );
    expect(found).toEqual([
      { ownerName: 'Ada', lineNo: 3, plain: 'x', snakeValue: 'keep_me' },
      { ownerName: 'Bo', lineNo: 4, plain: 'y', snakeValue: 'also_kept' },
    ]);
  });

  it('answers the first row, or undefined when there is none', async () => {
    expect(await firstRow<{ createdAt: number }>(system.db, sql`select 1 as created_at`)).toEqual({
      createdAt: 1,
    });
    expect(await firstRow(system.db, sql`select 1 as one where false`)).toBeUndefined();
  });

  it('runs statements whose rows nobody reads', async () => {
    // One transaction: on PostgreSQL's pool a temporary table lives on one connection.
    const found = await system.db.transaction(async (tx) => {
      await run(tx, sql`create temporary table sql_helper_probe (some_value int) on commit drop`);
      await run(tx, sql`insert into sql_helper_probe values (7)`);
      return rows(tx, sql`select some_value from sql_helper_probe`);
    });
    expect(found).toEqual([{ someValue: 7 }]);
  });

  it('camelCases names the way a reader expects', () => {
    expect(['owner_name', 'id', 'free_access', 'period_2024_q1', 'already'].map(camelCaseName)).toEqual([
      'ownerName',
      'id',
      'freeAccess',
      'period2024Q1',
      'already',
    ]);
  });
});
