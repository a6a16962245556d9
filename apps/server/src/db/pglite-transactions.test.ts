/**
 * PGlite is one connection: a CLI command run by the server shares it with the requests. This proves
 * what db/client.ts relies on: a query issued while another caller's transaction is open waits for
 * that transaction to end instead of running inside it (where a rollback would undo it).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPgliteTemplate } from '../test-support/harness';
import { type Database, openDatabase } from './client';

// Both drivers answer raw SQL with { rows }; the common Db type leaves the result untyped.
const labelsOf = (result: unknown) => (result as { rows: { label: string }[] }).rows.map((row) => row.label);

let database: Database;
beforeAll(async () => {
  // Any PGlite will do: the migrated template opens in a second where a new database runs initdb.
  database = await openDatabase({ dataDir: 'memory://', pgliteTemplate: await migratedPgliteTemplate() });
  await database.db.execute(sql`create table probe (label text not null)`);
});
afterAll(async () => {
  await database.close();
});

describe('one PGlite instance shared by concurrent callers', () => {
  it('runs an outside write after an open transaction ends, so that transaction’s rollback keeps it', async () => {
    const { db } = database;
    const events: string[] = [];
    let markInsideStarted: () => void = () => undefined;
    const insideStarted = new Promise<void>((resolve) => {
      markInsideStarted = resolve;
    });
    let markOutsideIssued: () => void = () => undefined;
    const outsideIssued = new Promise<void>((resolve) => {
      markOutsideIssued = resolve;
    });
    const rolledBack = db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into probe (label) values ('inside')`);
        markInsideStarted();
        // The outside write and read are asked for while this transaction is open; its next statements
        // go after them, so one that was not held back would be done before the transaction ends.
        await outsideIssued;
        for (let round = 0; round < 3; round += 1) await tx.execute(sql`select 1`);
        events.push('transaction ends');
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await insideStarted;
    const outside = db.execute(sql`insert into probe (label) values ('outside')`).then(() => {
      events.push('outside write done');
    });
    const reader = db.execute(sql`select label from probe order by label`).then((result) => {
      events.push('outside read done');
      return labelsOf(result);
    });
    markOutsideIssued();
    expect(await rolledBack).toBe('roll back');
    await outside;
    // The read waited too: it never saw the transaction's uncommitted row.
    expect(await reader).toEqual(['outside']);
    expect(events).toEqual(['transaction ends', 'outside write done', 'outside read done']);
    expect(labelsOf(await db.execute(sql`select label from probe`))).toEqual(['outside']);
  });
});
