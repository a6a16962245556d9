/**
 * Royalty reserves (issue 39, record 287): what a posting held back (apply.ts) is released to the payee in
 * parts, one per statement month of the term's schedule. A daily job (and `contracts:release-reserves`)
 * releases every part due by the current month: per contract, one `reserve_release` journal transaction
 * moving the cents from `reserve_held` to the payee's `artist_payable`, through the one balance path.
 */
import { centsToDecimal } from '@tunedrop/shared/money';
import type { StatementReserves } from '@tunedrop/shared/schemas/royalty-statements';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { rows, run } from '../../lib/sql';
import { applyBalanceChanges } from '../wallet';

/** Releases take this advisory lock: two runs at once release each part once. */
const RESERVE_RELEASE_LOCK_KEY = 1_702_040;

export type ReserveReleaseResult = { contracts: number; parts: number; cents: number };

/**
 * Releases every unreleased part due in or before the month of `asOf` (the clock when absent). `asOf`
 * also dates the journal transactions and log rows: tests and the journeys' fixtures step through months.
 */
export async function releaseDueReserves(db: Db, asOf?: Date): Promise<ReserveReleaseResult> {
  return db.transaction(async (tx) => {
    await run(tx, sql`select pg_advisory_xact_lock(${RESERVE_RELEASE_LOCK_KEY})`);
    const now = asOf ? sql`${asOf.toISOString()}::timestamptz` : sql`clock_timestamp()`;
    const due = await rows<{
      contractId: string;
      contractName: string;
      payeeUserId: string;
      parts: number | string;
      cents: number | string;
    }>(
      tx,
      sql`
        with due as (
          update contract_reserve_releases x set released_at = ${now}
            from contract_reserves r
           where r.id = x.reserve_id and x.released_at is null
             and x.due_month <= date_trunc('month', ${now} at time zone 'UTC')::date
          returning r.contract_id, r.payee_user_id, x.cents
        )
        select d.contract_id, c.name as contract_name, d.payee_user_id, count(*) as parts, sum(d.cents) as cents
          from due d join contracts c on c.id = d.contract_id
         group by d.contract_id, c.name, d.payee_user_id
         order by c.name, d.contract_id`,
    );
    let cents = 0;
    for (const row of due) {
      const amount = Number(row.cents);
      cents += amount;
      if (amount === 0) continue;
      await applyBalanceChanges(
        tx,
        [
          {
            userId: row.payeeUserId,
            balanceDeltaCents: amount,
            addsPositiveDifferenceToEarnings: true,
            updateType: 'reserve_release',
            notes: `Reserve released: contract “${row.contractName}”`,
            counterEntries: [
              { account: 'reserve_held', subject: row.contractId, amount: centsToDecimal(amount) },
            ],
          },
        ],
        {
          reference: { type: 'contract', id: row.contractId },
          memo: `Reserve released: contract “${row.contractName}”`,
          ...(asOf ? { at: asOf } : {}),
        },
      );
    }
    return {
      contracts: due.length,
      parts: due.reduce((sum, row) => sum + Number(row.parts), 0),
      cents,
    };
  });
}

/**
 * A payee's reserves in one statement month (YYYY-MM, UTC): held by the month's postings, released in the
 * month, and the balance still held at its end; null when the payee never had a reserve by then.
 */
export async function reserveSummary(
  db: DbOrTx,
  payeeUserId: string,
  period: string,
): Promise<StatementReserves | null> {
  const start = sql`((${period} || '-01')::date::timestamp at time zone 'UTC')`;
  const end = sql`(${start} + interval '1 month')`;
  const [found] = await rows<{
    reserves: number | string;
    heldCents: number | string;
    releasedCents: number | string;
    balanceCents: number | string;
  }>(
    db,
    sql`
      select count(*) filter (where r.created_at < ${end}) as reserves,
             coalesce(sum(r.held_cents) filter (where r.created_at >= ${start} and r.created_at < ${end}), 0)
               as held_cents,
             coalesce(sum(x.released), 0) as released_cents,
             coalesce(sum(r.held_cents) filter (where r.created_at < ${end}), 0)
               - coalesce(sum(x.released_before_end), 0) as balance_cents
        from contract_reserves r
        left join lateral (
          select sum(cents) filter (where released_at >= ${start} and released_at < ${end}) as released,
                 sum(cents) filter (where released_at < ${end}) as released_before_end
            from contract_reserve_releases where reserve_id = r.id
        ) x on true
       where r.payee_user_id = ${payeeUserId}`,
  );
  if (!found || Number(found.reserves) === 0) return null;
  return {
    heldCents: Number(found.heldCents),
    releasedCents: Number(found.releasedCents),
    balanceCents: Number(found.balanceCents),
  };
}
