/**
 * `ledger:verify` (issue 36, docs/money.md): the journal against itself and against every figure kept
 * beside it. Each check is one query; a difference is reported with what the journal says and what the
 * cached or recorded figure says. Read-only: it fixes nothing (a correction is a new transaction).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { allowLongStatements } from '../../db/long-statements';
import { rows, run } from '../../lib/sql';

type LedgerDifference = { check: string; what: string; journal: string; recorded: string };
export type LedgerVerification = {
  transactions: number;
  entries: number;
  differences: LedgerDifference[];
  /** Account totals as the journal reads them (credit accounts credit-positive). */
  totals: { account: string; balance: string }[];
};

type Row = { what: string; journal: string; recorded: string };

/** Each check: a name and a query answering the rows that disagree (what, journal, recorded). */
const CHECKS: { check: string; query: ReturnType<typeof sql> }[] = [
  {
    check: 'balanced',
    query: sql`
      select 'transaction ' || t.id || ' (' || t.kind || ')' as what,
             coalesce(trim_scale(sum(e.amount))::text, 'no entries') as journal, '0' as recorded
        from journal_transactions t
        left join journal_entries e on e.transaction_id = t.id
       group by t.id, t.kind
      having count(e.id) = 0 or sum(e.amount) <> 0`,
  },
  {
    check: 'available balance',
    query: sql`
      with j as (
        select subject as user_id, -100 * sum(amount) as cents from journal_entries
         where account = 'artist_payable' group by subject
      )
      select coalesce(p.email, j.user_id) as what, trim_scale(coalesce(j.cents, 0))::text as journal,
             coalesce(p.balance_cents, 0)::text as recorded
        from profiles p full join j on j.user_id = p.id
       where coalesce(j.cents, 0) <> coalesce(p.balance_cents, 0)`,
  },
  {
    check: 'pending balance',
    query: sql`
      with j as (
        select subject as user_id, -100 * sum(amount) as cents from journal_entries
         where account = 'withdrawals_payable' group by subject
      )
      select coalesce(p.email, j.user_id) as what, trim_scale(coalesce(j.cents, 0))::text as journal,
             coalesce(p.pending_balance_cents, 0)::text as recorded
        from profiles p full join j on j.user_id = p.id
       where coalesce(j.cents, 0) <> coalesce(p.pending_balance_cents, 0)`,
  },
  {
    check: 'held shares',
    query: sql`
      with j as (
        select subject as payee_id, -100 * sum(amount) as cents from journal_entries
         where account = 'payee_held' group by subject
      ),
      h as (
        select payee_id::text as payee_id, sum(cents) as cents from split_settlements
         where held and released_to is null group by payee_id
      )
      select 'payee ' || coalesce(p.email, coalesce(h.payee_id, j.payee_id)) as what,
             trim_scale(coalesce(j.cents, 0))::text as journal, coalesce(h.cents, 0)::text as recorded
        from h full join j on j.payee_id = h.payee_id
        left join split_payees p on p.id::text = coalesce(h.payee_id, j.payee_id)
       where coalesce(j.cents, 0) <> coalesce(h.cents, 0)`,
  },
  {
    check: 'open suspense',
    query: sql`
      with j as (
        select subject as import_id, -sum(amount) as usd from journal_entries
         where account = 'suspense' group by subject
      ),
      s as (
        select import_id::text as import_id, sum(amount_usd) as usd from royalty_suspense_lines
         where state = 'open' group by import_id
      )
      select 'report ' || coalesce(i.file_name, coalesce(s.import_id, j.import_id)) as what,
             trim_scale(coalesce(j.usd, 0))::text as journal, trim_scale(coalesce(s.usd, 0))::text as recorded
        from s full join j on j.import_id = s.import_id
        left join royalty_imports i on i.id::text = coalesce(s.import_id, j.import_id)
       where coalesce(j.usd, 0) <> coalesce(s.usd, 0)`,
  },
  {
    check: 'operator fee',
    query: sql`
      select 'fee income' as what,
             trim_scale(coalesce((select -sum(amount) from journal_entries where account = 'fee_income'), 0))::text as journal,
             trim_scale(coalesce((select sum(cents) from operator_revenue where kind = 'fee'), 0) / 100.0)::text as recorded
       where coalesce((select -sum(amount) from journal_entries where account = 'fee_income'), 0)
          <> coalesce((select sum(cents) from operator_revenue where kind = 'fee'), 0) / 100.0`,
  },
  {
    check: 'operator revenue',
    query: sql`
      select 'released suspense' as what,
             trim_scale(coalesce((select -sum(amount) from journal_entries where account = 'operator_revenue'), 0))::text as journal,
             trim_scale(coalesce((select sum(amount_usd) from operator_revenue where kind = 'suspense_release'), 0))::text as recorded
       where coalesce((select -sum(amount) from journal_entries where account = 'operator_revenue'), 0)
          <> coalesce((select sum(amount_usd) from operator_revenue where kind = 'suspense_release'), 0)`,
  },
  {
    check: 'rounding residue',
    query: sql`
      select 'postings residue' as what,
             trim_scale(coalesce((select -sum(amount) from journal_entries where account = 'rounding_residue'), 0))::text as journal,
             trim_scale(coalesce((select sum(residue) from royalty_imports where status = 'posted'), 0))::text as recorded
       where coalesce((select -sum(amount) from journal_entries where account = 'rounding_residue'), 0)
          <> coalesce((select sum(residue) from royalty_imports where status = 'posted'), 0)`,
  },
  {
    // Per report, from the lines: gross USD (earnings + suspense lines) is the store's receivable, and
    // gross = credited + held + fee + suspense + residue.
    check: 'report gross',
    query: sql`
      with e as (select import_id, sum(amount_usd) as usd from royalty_earnings group by import_id),
      s as (select import_id, sum(amount_usd) as usd from royalty_suspense_lines group by import_id),
      j as (
        select subject as import_id, sum(amount) as usd from journal_entries
         where account = 'store_receivable' group by subject
      )
      select 'report ' || i.file_name as what, trim_scale(coalesce(j.usd, 0))::text as journal,
             trim_scale(coalesce(e.usd, 0) + coalesce(s.usd, 0))::text as recorded
        from royalty_imports i
        left join e on e.import_id = i.id
        left join s on s.import_id = i.id
        left join j on j.import_id = i.id::text
       where i.suspense_of is null and (i.status = 'posted' or j.usd is not null)
         and coalesce(j.usd, 0) <> coalesce(e.usd, 0) + coalesce(s.usd, 0)`,
  },
  {
    check: 'report identity',
    query: sql`
      with e as (select import_id, sum(amount_usd) as usd from royalty_earnings group by import_id),
      p as (select import_id, sum(cents) as credited, sum(fee_cents) as fee from royalty_postings group by import_id),
      h as (select import_id, sum(cents) as held from split_settlements where held group by import_id),
      r as (select import_id, sum(held_cents) as held from contract_reserves group by import_id)
      select 'report ' || i.file_name || ': gross = credited + held + reserved + fee + suspense + residue' as what,
             trim_scale((coalesce(p.credited, 0) + coalesce(h.held, 0) + coalesce(r.held, 0) + coalesce(p.fee, 0))
                        / 100.0 + coalesce(i.residue, 0))::text as journal,
             trim_scale(coalesce(e.usd, 0))::text as recorded
        from royalty_imports i
        left join e on e.import_id = i.id
        left join p on p.import_id = i.id
        left join h on h.import_id = i.id
        left join r on r.import_id = i.id
       where i.status = 'posted'
         and coalesce(e.usd, 0) <> (coalesce(p.credited, 0) + coalesce(h.held, 0) + coalesce(r.held, 0)
                                    + coalesce(p.fee, 0)) / 100.0 + coalesce(i.residue, 0)`,
  },
  {
    // Contract reserves (record 287): per contract, the journal's reserve_held = held − released parts.
    check: 'contract reserves',
    query: sql`
      with j as (
        select subject as contract_id, -100 * sum(amount) as cents from journal_entries
         where account = 'reserve_held' group by subject
      ),
      r as (
        select r.contract_id::text as contract_id,
               sum(r.held_cents) - coalesce(sum(x.released), 0) as cents
          from contract_reserves r
          left join lateral (
            select sum(cents) as released from contract_reserve_releases
             where reserve_id = r.id and released_at is not null
          ) x on true
         group by r.contract_id
      )
      select 'contract ' || coalesce(c.name, coalesce(r.contract_id, j.contract_id)) as what,
             trim_scale(coalesce(j.cents, 0))::text as journal, coalesce(r.cents, 0)::text as recorded
        from r full join j on j.contract_id = r.contract_id
        left join contracts c on c.id::text = coalesce(r.contract_id, j.contract_id)
       where coalesce(j.cents, 0) <> coalesce(r.cents, 0)`,
  },
];

export async function verifyLedger(db: Db): Promise<LedgerVerification> {
  return db.transaction(async (tx) => {
    // One snapshot for every check, however long the journal and whatever is written meanwhile.
    await run(tx, sql`set transaction isolation level repeatable read, read only`);
    await allowLongStatements(tx);
    const [counts] = await rows<{ transactions: string; entries: string }>(
      tx,
      sql`select (select count(*) from journal_transactions)::text as transactions,
                 (select count(*) from journal_entries)::text as entries`,
    );
    const differences: LedgerDifference[] = [];
    for (const { check, query } of CHECKS) {
      const found = await rows<Row>(tx, query);
      for (const row of found) differences.push({ check, ...row });
    }
    const totals = await rows<{ account: string; balance: string }>(
      tx,
      sql`select account,
                 trim_scale(case when account in ('store_receivable', 'manual_adjustments') then 1 else -1 end
                            * sum(amount))::text as balance
            from journal_entries group by account order by account`,
    );
    return {
      transactions: Number(counts?.transactions ?? 0),
      entries: Number(counts?.entries ?? 0),
      differences,
      totals,
    };
  });
}

/** What `ledger:verify` prints: a line per difference (at most 200), then the account totals. */
export function describeVerification(result: LedgerVerification): string[] {
  const shown = result.differences
    .slice(0, 200)
    .map((d) => `  ${d.check}: ${d.what}: journal ${d.journal}, recorded ${d.recorded}`);
  const more =
    result.differences.length > shown.length
      ? [`  ... and ${result.differences.length - shown.length} more`]
      : [];
  return [
    result.differences.length === 0
      ? `Journal: ${result.transactions} transactions, ${result.entries} entries; every check holds.`
      : `Journal: ${result.transactions} transactions, ${result.entries} entries; ${result.differences.length} difference(s):`,
    ...shown,
    ...more,
    'Accounts (USD):',
    ...result.totals.map((t) => `  ${t.account}: ${t.balance}`),
  ];
}
