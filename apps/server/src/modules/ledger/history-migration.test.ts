/**
 * Migration 0070 (issue 36, record 246) on a database made by the release at migration 0066, with the
 * money history that release's own code wrote (PGlite, or PostgreSQL with DATABASE_URL): the upgrade turns
 * it into journal transactions, every figure stays as it was and ledger:verify finds nothing; one cent
 * tampered with makes the upgrade refuse, naming that account and its difference, and leaves the database
 * as it was; facts the journal already holds are not written twice.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pendingMigrations } from '../../db/migrate';
import { rows } from '../../lib/sql';
import {
  execScript,
  loadMoneyHistory,
  migrateUpTo,
  moneyFigures,
  openDatabaseAt,
  upgrade,
} from '../../test-support/money-history';
import { financeIdentities } from '../finance';
import { auditBalances } from '../wallet';
import { recordTransaction } from './record';
import { verifyLedger } from './verify';

const BEFORE_JOURNAL = '0066_release_update_tracks';
const OWNER = 'history.owner@example.com';

async function historyAt0066() {
  const old = await openDatabaseAt(BEFORE_JOURNAL);
  await loadMoneyHistory(old.database);
  return old;
}

const kindsOf = async (db: Parameters<typeof rows>[0]) =>
  Object.fromEntries(
    (
      await rows<{ kind: string; count: number }>(
        db,
        sql`select kind, count(*)::int as count from journal_transactions group by kind order by kind`,
      )
    ).map((row) => [row.kind, row.count]),
  );

describe('the money history migration', () => {
  it('turns every historical fact into its journal transaction, every figure unchanged', {
    timeout: 120_000,
  }, async () => {
    const old = await historyAt0066();
    try {
      const before = await moneyFigures(old.database);
      expect(before[`balance:${await ownerId(old.database.db)}`]).toBe('247.08');
      expect(await upgrade(old.database)).toBeGreaterThan(0);

      expect(await moneyFigures(old.database)).toEqual(before);
      const verification = await verifyLedger(old.database.db);
      expect(verification.differences).toEqual([]);
      expect(await kindsOf(old.database.db)).toEqual({
        royalty_posting: 3,
        suspense_assignment: 2,
        split_return: 1,
        split_release: 1,
        suspense_release: 1,
        manual_adjustment: 1,
        bulk_adjustment: 2,
        cli_adjustment: 1,
        withdrawal_request: 5,
        withdrawal_cancel: 1,
        withdrawal_reject: 1,
        withdrawal_paid: 1,
      });
      // The journal's own reading of the owner's accounts is what they see today.
      const [owner] = await rows<{ available: string; pending: string }>(
        old.database.db,
        sql`select trim_scale(-sum(amount) filter (where account = 'artist_payable'))::text as available,
                   trim_scale(-sum(amount) filter (where account = 'withdrawals_payable'))::text as pending
              from journal_entries where subject = (select id from profiles where email = ${OWNER})`,
      );
      expect(owner).toEqual({ available: '247.08', pending: '51.55' });
      // The old checks still hold on the upgraded database.
      expect((await auditBalances(old.database.db)).mismatches).toEqual([]);
      expect((await financeIdentities(old.database.db)).failures).toEqual([]);
    } finally {
      await old.close();
    }
  });

  it('refuses to finish when one account is a cent off, naming it, and changes nothing', {
    timeout: 120_000,
  }, async () => {
    const old = await historyAt0066();
    try {
      await execScript(
        old.database,
        `update profiles set balance_cents = balance_cents + 1 where email = '${OWNER}'`,
      );
      const refused = await upgrade(old.database).then(
        () => null,
        (error: unknown) => error,
      );
      const message = String((refused as { cause?: unknown } | null)?.cause ?? refused);
      expect(message).toContain("The money journal would not match today's figures: 1 account(s) differ");
      expect(message).toMatch(
        /artist_payable history\.owner@example\.com \([0-9a-f-]{36}\): journal 247\.08 USD, today 247\.09 USD, difference -0\.01 USD/,
      );
      // The whole upgrade rolled back: no journal, every migration after 0066 still pending.
      const [table] = await rows<{ name: string | null }>(
        old.database.db,
        sql`select to_regclass('journal_transactions')::text as name`,
      );
      expect(table?.name).toBeNull();
      expect((await pendingMigrations(old.database))[0]).toBe('0067_money_journal');
    } finally {
      await old.close();
    }
  });

  it('leaves out the facts the journal already holds', { timeout: 120_000 }, async () => {
    const old = await historyAt0066();
    try {
      // The journal's own migrations ran first and the app then journaled one of the history's facts (the
      // owner's pending withdrawal) itself: the history must not write it again.
      await migrateUpTo(old.database, '0067_money_journal');
      const [pending] = await rows<{ id: string; userId: string }>(
        old.database.db,
        sql`select w.id, w.user_id from withdrawal_requests w join profiles p on p.id = w.user_id
             where p.email = ${OWNER} and w.status = 'pending'`,
      );
      await old.database.db.transaction((tx) =>
        recordTransaction(tx, {
          kind: 'withdrawal_request',
          reference: { type: 'withdrawal_request', id: pending?.id ?? '' },
          entries: [
            { account: 'artist_payable', subject: pending?.userId ?? '', amount: '51.55' },
            { account: 'withdrawals_payable', subject: pending?.userId ?? '', amount: '-51.55' },
          ],
        }),
      );
      await upgrade(old.database);
      expect((await verifyLedger(old.database.db)).differences).toEqual([]);
      expect((await kindsOf(old.database.db)).withdrawal_request).toBe(5);
    } finally {
      await old.close();
    }
  });
});

async function ownerId(db: Parameters<typeof rows>[0]): Promise<string> {
  const [row] = await rows<{ id: string }>(db, sql`select id from profiles where email = ${OWNER}`);
  return row?.id ?? '';
}
