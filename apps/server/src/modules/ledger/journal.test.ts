/**
 * The journal's rules as the database holds them (migration 0067), on PGlite and PostgreSQL alike:
 * append-only, entries only in their transaction's database transaction, balanced or refused at commit;
 * a correction names the transaction it corrects (migration 0084).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, run } from '../../lib/sql';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { accountBalance, accountTotals, recordTransaction } from '.';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

/** The database's own words when it refuses (drizzle wraps them in a "Failed query" error). */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return `${(error as Error).message} ${cause?.message ?? ''}`;
  }
  return 'accepted';
}

/** A journal amount ('12.34', '-1') in cents, exactly. */
const toCents = (amount: string) => Math.round(Number(amount) * 100);

const countEntries = async (transactionId: string) => {
  const [row] = await rows<{ n: string }>(
    system.db,
    sql`select count(*)::text as n from journal_entries where transaction_id = ${transactionId}`,
  );
  return Number(row?.n);
};

describe('the money journal', () => {
  it('commits a balanced transaction, and balances are its sums', async () => {
    const user = randomUUID();
    // The totals span the whole file's journal: compared with before, so any case may run first.
    const before = (await accountTotals(system.db)).manual_adjustments;
    const id = await recordTransaction(system.db, {
      kind: 'manual_adjustment',
      reference: { type: 'user', id: user },
      memo: 'test',
      entries: [
        { account: 'manual_adjustments', amount: '12.34' },
        { account: 'artist_payable', subject: user, amount: '-12.34' },
      ],
    });
    expect(id).not.toBeNull();
    expect(await countEntries(id ?? '')).toBe(2);
    expect(await accountBalance(system.db, 'artist_payable', user)).toBe('12.34');
    const after = (await accountTotals(system.db)).manual_adjustments;
    expect(toCents(after) - toCents(before)).toBe(1234);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of entries and transactions', async () => {
    const user = randomUUID();
    const id = await recordTransaction(system.db, {
      kind: 'manual_adjustment',
      entries: [
        { account: 'manual_adjustments', amount: '1' },
        { account: 'artist_payable', subject: user, amount: '-1' },
      ],
    });
    const appendOnly = /append-only/;
    expect(await refusal(run(system.db, sql`update journal_entries set amount = amount * 2`))).toMatch(
      appendOnly,
    );
    expect(
      await refusal(run(system.db, sql`delete from journal_entries where transaction_id = ${id}`)),
    ).toMatch(appendOnly);
    expect(
      await refusal(run(system.db, sql`update journal_transactions set memo = 'x' where id = ${id}`)),
    ).toMatch(appendOnly);
    expect(await refusal(run(system.db, sql`delete from journal_transactions where id = ${id}`))).toMatch(
      appendOnly,
    );
    expect(await refusal(run(system.db, sql`truncate journal_entries, journal_transactions`))).toMatch(
      appendOnly,
    );
    expect(await countEntries(id ?? '')).toBe(2);
    expect(await accountBalance(system.db, 'artist_payable', user)).toBe('1');
  });

  it('refuses at commit an unbalanced or empty transaction written around recordTransaction', async () => {
    const adjustments = async () =>
      (
        await rows<{ n: string }>(
          system.db,
          sql`select count(*)::text as n from journal_transactions where kind = 'manual_adjustment'`,
        )
      )[0]?.n;
    const before = await adjustments();
    const unbalanced = system.db.transaction(async (tx) => {
      const [row] = await rows<{ id: string }>(
        tx,
        sql`insert into journal_transactions (kind) values ('manual_adjustment') returning id`,
      );
      await run(
        tx,
        sql`insert into journal_entries (transaction_id, account, amount) values
              (${row?.id}, 'fee_income', -5), (${row?.id}, 'rounding_residue', 4.99)`,
      );
    });
    expect(await refusal(unbalanced)).toMatch(/out of balance by -0.01 USD/);
    const empty = run(system.db, sql`insert into journal_transactions (kind) values ('manual_adjustment')`);
    expect(await refusal(empty)).toMatch(/has no entries/);
    expect(await adjustments()).toBe(before);
  });

  it('refuses entries written in another database transaction than their journal transaction', async () => {
    const id = await recordTransaction(system.db, {
      kind: 'manual_adjustment',
      entries: [
        { account: 'fee_income', amount: '-2' },
        { account: 'rounding_residue', amount: '2' },
      ],
    });
    const later = run(
      system.db,
      sql`insert into journal_entries (transaction_id, account, amount) values
            (${id}, 'fee_income', -1), (${id}, 'rounding_residue', 1)`,
    );
    expect(await refusal(later)).toMatch(/database transaction of their journal transaction/);
    expect(await countEntries(id ?? '')).toBe(2);
  });

  it('refuses a fraction of a cent on an account a person withdraws from', async () => {
    const direct = system.db.transaction(async (tx) => {
      const [row] = await rows<{ id: string }>(
        tx,
        sql`insert into journal_transactions (kind) values ('manual_adjustment') returning id`,
      );
      await run(
        tx,
        sql`insert into journal_entries (transaction_id, account, subject, amount) values
              (${row?.id}, 'artist_payable', 'someone', -0.005), (${row?.id}, 'rounding_residue', null, 0.005)`,
      );
    });
    expect(await refusal(direct)).toMatch(/journal_entries_whole_cents/);
    await expect(
      recordTransaction(system.db, {
        kind: 'manual_adjustment',
        entries: [
          { account: 'artist_payable', subject: 'someone', amount: '-0.005' },
          { account: 'rounding_residue', amount: '0.005' },
        ],
      }),
    ).rejects.toThrow(/whole cents/);
  });

  it('recordTransaction refuses unbalanced input before the database does, and writes nothing for zero legs', async () => {
    await expect(
      recordTransaction(system.db, {
        kind: 'manual_adjustment',
        entries: [
          { account: 'fee_income', amount: '-1.10' },
          { account: 'rounding_residue', amount: '1.1000001' },
        ],
      }),
    ).rejects.toThrow(/sum to 0.0000001 USD/);
    expect(
      await recordTransaction(system.db, {
        kind: 'manual_adjustment',
        entries: [{ account: 'fee_income', amount: '0' }],
      }),
    ).toBeNull();
  });

  it('keeps a transaction in a savepoint that rolls back out of the books', async () => {
    const before = await accountBalance(system.db, 'rounding_residue');
    await system.db.transaction(async (tx) => {
      await tx
        .transaction(async (inner) => {
          await recordTransaction(inner, {
            kind: 'manual_adjustment',
            entries: [
              { account: 'fee_income', amount: '-7' },
              { account: 'rounding_residue', amount: '7' },
            ],
          });
          throw new Error('undo');
        })
        .catch(() => undefined);
    });
    expect(await accountBalance(system.db, 'rounding_residue')).toBe(before);
  });

  it('refuses a correction that names nothing it corrects, by recordTransaction and by the database', async () => {
    const legs = [
      { account: 'fee_income' as const, amount: '-3' },
      { account: 'rounding_residue' as const, amount: '3' },
    ];
    const count = async (kind: string) =>
      (
        await rows<{ n: string }>(
          system.db,
          sql`select count(*)::text as n from journal_transactions where kind = ${kind}`,
        )
      )[0]?.n;
    const corrections = await count('correction');
    await expect(recordTransaction(system.db, { kind: 'correction', entries: legs })).rejects.toThrow(
      /a correction must name the transaction it corrects/,
    );
    // Written by hand, the database refuses it too, whatever its entries.
    const direct = system.db.transaction(async (tx) => {
      const [row] = await rows<{ id: string }>(
        tx,
        sql`insert into journal_transactions (kind) values ('correction') returning id`,
      );
      await run(
        tx,
        sql`insert into journal_entries (transaction_id, account, amount) values
              (${row?.id}, 'fee_income', -3), (${row?.id}, 'rounding_residue', 3)`,
      );
    });
    expect(await refusal(direct)).toMatch(/journal_transactions_corrects_check/);
    expect(await count('correction')).toBe(corrections);

    // Only a correction names a transaction it corrects.
    const residue = await accountBalance(system.db, 'rounding_residue');
    const original = await recordTransaction(system.db, { kind: 'manual_adjustment', entries: legs });
    expect(original).not.toBeNull();
    await expect(
      recordTransaction(system.db, { kind: 'manual_adjustment', correctsId: original, entries: legs }),
    ).rejects.toThrow(/only a correction names a transaction it corrects/);
    const naming = run(
      system.db,
      sql`insert into journal_transactions (kind, corrects_id) values ('manual_adjustment', ${original})`,
    );
    expect(await refusal(naming)).toMatch(/journal_transactions_corrects_check/);

    // A correction naming its transaction is accepted: it undoes it, and the original stays as it was.
    const correction = await recordTransaction(system.db, {
      kind: 'correction',
      correctsId: original,
      memo: 'test: undo the adjustment',
      entries: [
        { account: 'fee_income', amount: '3' },
        { account: 'rounding_residue', amount: '-3' },
      ],
    });
    expect(correction).not.toBeNull();
    const [written] = await rows<{ corrects: string }>(
      system.db,
      sql`select corrects_id::text as corrects from journal_transactions where id = ${correction}`,
    );
    expect(written?.corrects).toBe(original);
    expect(await countEntries(original ?? '')).toBe(2);
    expect(toCents(await accountBalance(system.db, 'rounding_residue'))).toBe(toCents(residue));
  });
});
