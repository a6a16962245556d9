/**
 * The finance overview (issue 25, record 189): per posted report and per period, what came in (gross in
 * the report currency and in USD), what the operator kept (fee), what was credited to balances, held for
 * pending invitations, booked to suspense and left as rounding residue; withdrawals paid and pending; and
 * the liability to artists (balances + pending withdrawals + held shares) beside the same figure from the
 * ledger. `audit:balances` checks the same identities (financeIdentities).
 *
 * Identity per report: gross USD = (credited + held + fee) / 100 + suspense + residue, exactly.
 */
import { toCsv } from '@tunedrop/shared/csv';
import {
  addDecimal,
  centsToDecimal,
  decimalToCents,
  isZeroDecimal,
  type ReportCents,
  reportCents,
  subtractDecimal,
} from '@tunedrop/shared/money';
import type {
  FinanceLiability,
  FinanceOverview,
  FinancePeriodRow,
  FinanceReportRow,
} from '@tunedrop/shared/schemas/finance';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { firstRow, rows } from '../../lib/sql';
import { accountTotals } from '../ledger';

/** A whole-cent journal balance (USD text) in cents. */
const journalCents = (usd: string) => Number(decimalToCents(usd) ?? 0n);

type ReportSqlRow = {
  importId: string;
  fileName: string;
  period: string;
  postedAt: Date | string;
  currency: string;
  rate: string;
  grossReport: string;
  grossUsd: string;
  feeCents: string | number;
  creditedCents: string | number;
  heldCents: string | number;
  suspenseUsd: string;
  residueUsd: string;
  differenceUsd: string;
};

/**
 * One row per posted report, from the books: the earnings lines (matched, exact, in the report currency
 * and in USD), the suspense lines (unmatched, record 188), the postings (credited, fee), the held
 * settlements and the report's residue. A suspense assignment (an import with `suspense_of`) brings no
 * new money: its gross is 0 and its suspense is minus what it paid out of suspense.
 */
const REPORTS_SQL = sql`
    with e as (
      select import_id, sum(amount) as amount, sum(amount_usd) as usd from royalty_earnings group by import_id
    ),
    s as (
      select import_id, sum(amount) as amount, sum(amount_usd) as usd from royalty_suspense_lines group by import_id
    ),
    p as (
      select import_id, sum(cents) as credited, sum(fee_cents) as fee from royalty_postings group by import_id
    ),
    -- Held: split shares for pending invitations and contract reserves (record 287), both not credited.
    h as (
      select import_id, sum(cents) as held
        from (select import_id, cents from split_settlements where held
              union all
              select import_id, held_cents from contract_reserves) x
       group by import_id
    ),
    r as (
      select i.id, i.file_name, i.posted_at, coalesce(i.currency, 'USD') as currency,
             coalesce(i.exchange_rate, 1) as rate, i.suspense_of is not null as is_assignment,
             coalesce(to_char(i.period_start, 'YYYY-MM'), to_char(i.posted_at, 'YYYY-MM')) as period,
             coalesce(e.amount, 0) as matched_report, coalesce(e.usd, 0) as matched_usd,
             coalesce(s.amount, 0) as suspense_report, coalesce(s.usd, 0) as suspense_usd,
             coalesce(p.credited, 0) as credited, coalesce(p.fee, 0) as fee, coalesce(h.held, 0) as held,
             coalesce(i.residue, 0) as residue
        from royalty_imports i
        left join e on e.import_id = i.id
        left join s on s.import_id = i.id
        left join p on p.import_id = i.id
        left join h on h.import_id = i.id
       where i.status = 'posted'
    )
    select id as import_id, file_name, period, posted_at, currency, trim_scale(rate)::text as rate,
           trim_scale(case when is_assignment then 0 else matched_report + suspense_report end)::text as gross_report,
           trim_scale(case when is_assignment then 0 else matched_usd + suspense_usd end)::text as gross_usd,
           fee as fee_cents, credited as credited_cents, held as held_cents,
           trim_scale(case when is_assignment then -matched_usd else suspense_usd end)::text as suspense_usd,
           trim_scale(residue)::text as residue_usd,
           trim_scale(matched_usd - (credited + held + fee) / 100.0 - residue)::text as difference_usd
      from r
     order by posted_at desc, id`;

async function reportRows(db: DbOrTx): Promise<FinanceReportRow[]> {
  const found = await rows<ReportSqlRow>(db, REPORTS_SQL);
  return found.map((row) => ({
    importId: row.importId,
    fileName: row.fileName,
    period: row.period,
    postedAt: new Date(row.postedAt).toISOString(),
    currency: row.currency,
    rate: row.rate,
    grossReport: row.grossReport,
    grossUsd: row.grossUsd,
    feeCents: Number(row.feeCents),
    creditedCents: Number(row.creditedCents),
    heldCents: Number(row.heldCents),
    suspenseUsd: row.suspenseUsd,
    residueUsd: row.residueUsd,
    differenceUsd: row.differenceUsd,
    cents: reportCents({
      grossUsd: row.grossUsd,
      feeCents: Number(row.feeCents),
      creditedCents: Number(row.creditedCents),
      heldCents: Number(row.heldCents),
      suspenseUsd: row.suspenseUsd,
    }),
  }));
}

const NO_CENTS: ReportCents = {
  grossCents: 0,
  feeCents: 0,
  creditedCents: 0,
  heldCents: 0,
  suspenseCents: 0,
  roundingCents: 0,
};

/**
 * What the operator owes artists, read from the journal (issue 36, record 241): artist payable, withdrawals
 * payable and payee held; beside it the same figure from the balance log and the pending requests, an
 * independent record (ledger:verify proves the profiles' cached columns equal to the journal).
 */
export async function liability(db: DbOrTx): Promise<FinanceLiability> {
  const journal = await accountTotals(db);
  const row = await firstRow<Record<string, string | number>>(
    db,
    sql`
      select (select coalesce(sum(new_balance_cents - old_balance_cents), 0) from balance_updates_log) as logged,
             (select coalesce(sum(amount_cents), 0) from withdrawal_requests where status = 'pending') as requested`,
  );
  const balancesCents = journalCents(journal.artist_payable);
  const pendingWithdrawalsCents = journalCents(journal.withdrawals_payable);
  const heldSharesCents = journalCents(journal.payee_held);
  const totalCents = balancesCents + pendingWithdrawalsCents + heldSharesCents;
  const ledgerCents = Number(row?.logged ?? 0) + Number(row?.requested ?? 0) + heldSharesCents;
  return {
    balancesCents,
    pendingWithdrawalsCents,
    heldSharesCents,
    totalCents,
    ledgerCents,
    reconciles: totalCents === ledgerCents,
  };
}

async function periodRows(db: DbOrTx, reports: FinanceReportRow[]): Promise<FinancePeriodRow[]> {
  const withdrawals = await rows<{ period: string; paid: string | number; pending: string | number }>(
    db,
    sql`
      select to_char(coalesce(case when status = 'completed' then processed_at end, requested_at), 'YYYY-MM') as period,
             coalesce(sum(amount_cents) filter (where status = 'completed'), 0) as paid,
             coalesce(sum(amount_cents) filter (where status = 'pending'), 0) as pending
        from withdrawal_requests
       where status in ('completed', 'pending')
       group by 1`,
  );
  const byPeriod = new Map<string, FinancePeriodRow>();
  const periodOf = (period: string): FinancePeriodRow => {
    let row = byPeriod.get(period);
    if (!row) {
      row = {
        period,
        reports: 0,
        grossUsd: '0',
        feeCents: 0,
        creditedCents: 0,
        heldCents: 0,
        suspenseUsd: '0',
        residueUsd: '0',
        cents: { ...NO_CENTS },
        withdrawalsPaidCents: 0,
        withdrawalsPendingCents: 0,
      };
      byPeriod.set(period, row);
    }
    return row;
  };
  for (const report of reports) {
    const row = periodOf(report.period);
    row.reports += 1;
    row.grossUsd = addDecimal(row.grossUsd, report.grossUsd);
    row.feeCents += report.feeCents;
    row.creditedCents += report.creditedCents;
    row.heldCents += report.heldCents;
    row.suspenseUsd = addDecimal(row.suspenseUsd, report.suspenseUsd);
    row.residueUsd = addDecimal(row.residueUsd, report.residueUsd);
    for (const key of Object.keys(NO_CENTS) as (keyof ReportCents)[]) row.cents[key] += report.cents[key];
  }
  for (const withdrawal of withdrawals) {
    const row = periodOf(withdrawal.period);
    row.withdrawalsPaidCents += Number(withdrawal.paid);
    row.withdrawalsPendingCents += Number(withdrawal.pending);
  }
  return [...byPeriod.values()].sort((a, b) => b.period.localeCompare(a.period));
}

export async function financeOverview(db: DbOrTx): Promise<FinanceOverview> {
  const reports = await reportRows(db);
  const revenue = await firstRow<{ released: string | number }>(
    db,
    sql`
      select coalesce(sum(cents) filter (where kind = 'suspense_release'), 0) as released
        from operator_revenue`,
  );
  // The fee from the journal (whole cents); released suspense stays the rows' cents, truncated per line
  // (the journal keeps its exact USD).
  const feeCents = journalCents((await accountTotals(db)).fee_income);
  const suspenseReleasedCents = Number(revenue?.released ?? 0);
  return {
    reports,
    periods: await periodRows(db, reports),
    liability: await liability(db),
    operatorRevenue: { feeCents, suspenseReleasedCents, totalCents: feeCents + suspenseReleasedCents },
  };
}

/** The overview as one CSV: a section per report, per period, then the liability (amounts in USD). */
export function financeCsv(overview: FinanceOverview): string {
  const header = [
    'Section',
    'Report',
    'Period',
    'Currency',
    'Rate',
    'Gross (report currency)',
    'Gross USD',
    'Fee USD',
    'Credited USD',
    'Held USD',
    'Suspense USD',
    'Rounding residue USD',
    'Withdrawals paid USD',
    'Withdrawals pending USD',
    'Difference USD',
  ];
  const reportLines = overview.reports.map((r) => [
    'Report',
    r.fileName,
    r.period,
    r.currency,
    r.rate,
    r.grossReport,
    r.grossUsd,
    centsToDecimal(r.feeCents),
    centsToDecimal(r.creditedCents),
    centsToDecimal(r.heldCents),
    r.suspenseUsd,
    r.residueUsd,
    '',
    '',
    r.differenceUsd,
  ]);
  const periodLines = overview.periods.map((p) => [
    'Period',
    `${p.reports} report${p.reports === 1 ? '' : 's'}`,
    p.period,
    'USD',
    '',
    '',
    p.grossUsd,
    centsToDecimal(p.feeCents),
    centsToDecimal(p.creditedCents),
    centsToDecimal(p.heldCents),
    p.suspenseUsd,
    p.residueUsd,
    centsToDecimal(p.withdrawalsPaidCents),
    centsToDecimal(p.withdrawalsPendingCents),
    '',
  ]);
  const l = overview.liability;
  const liabilityLines = [
    ['Liability', 'Balances', '', 'USD', '', '', centsToDecimal(l.balancesCents)],
    ['Liability', 'Pending withdrawals', '', 'USD', '', '', centsToDecimal(l.pendingWithdrawalsCents)],
    ['Liability', 'Held shares', '', 'USD', '', '', centsToDecimal(l.heldSharesCents)],
    ['Liability', 'Total', '', 'USD', '', '', centsToDecimal(l.totalCents)],
    ['Liability', 'Ledger', '', 'USD', '', '', centsToDecimal(l.ledgerCents)],
  ];
  return toCsv(header, [...reportLines, ...periodLines, ...liabilityLines]);
}

export type FinanceIdentityFailure = { what: string; expected: string; found: string };

/**
 * The identities `audit:balances` checks (the overview's figures, from the earnings lines): per report, gross
 * USD = credited + held + fee + suspense + residue; each fee line equals its posting's fee; the liability
 * equals the ledger. Returns the report figures and liability too, to print.
 */
export async function financeIdentities(db: DbOrTx): Promise<{
  reports: FinanceReportRow[];
  liability: FinanceLiability;
  failures: FinanceIdentityFailure[];
}> {
  const reports = await reportRows(db);
  const failures: FinanceIdentityFailure[] = [];
  for (const report of reports) {
    if (!isZeroDecimal(report.differenceUsd)) {
      failures.push({
        what: `${report.fileName} (${report.period}): gross ${report.grossUsd} USD = credited + held + fee + suspense + residue`,
        expected: report.grossUsd,
        found: subtractDecimal(report.grossUsd, report.differenceUsd),
      });
    }
  }
  const fees = await rows<{ fileName: string; posted: string | number; booked: string | number }>(
    db,
    sql`
      select i.file_name, coalesce(p.fee, 0) as posted, coalesce(o.fee, 0) as booked
        from royalty_imports i
        left join (select import_id, sum(fee_cents) as fee from royalty_postings group by import_id) p on p.import_id = i.id
        left join (select import_id, sum(cents) as fee from operator_revenue where kind = 'fee' group by import_id) o
               on o.import_id = i.id
       where coalesce(p.fee, 0) <> coalesce(o.fee, 0)`,
  );
  for (const fee of fees) {
    failures.push({
      what: `${fee.fileName}: fee booked to operator revenue = fee kept by the postings`,
      expected: centsToDecimal(Number(fee.posted)),
      found: centsToDecimal(Number(fee.booked)),
    });
  }
  const owed = await liability(db);
  if (!owed.reconciles) {
    failures.push({
      what: 'liability to artists (balances + pending withdrawals + held shares) = ledger',
      expected: centsToDecimal(owed.ledgerCents),
      found: centsToDecimal(owed.totalCents),
    });
  }
  return { reports, liability: owed, failures };
}

/** The identities as `audit:balances` prints them: one line per report (the newest 50), then the liability. */
export function describeFinance(finance: Awaited<ReturnType<typeof financeIdentities>>): string[] {
  const lines = finance.reports
    .slice(0, 50)
    .map(
      (r) =>
        `  ${r.fileName} (${r.period}): gross ${r.grossUsd} USD = credited ${centsToDecimal(r.creditedCents)} + held ${centsToDecimal(r.heldCents)} + fee ${centsToDecimal(r.feeCents)} + suspense ${r.suspenseUsd} + residue ${r.residueUsd}${isZeroDecimal(r.differenceUsd) ? '' : ` (off by ${r.differenceUsd})`}`,
    );
  const l = finance.liability;
  return [
    `Reports: ${finance.reports.length} posted${finance.reports.length > 50 ? ' (the newest 50 below)' : ''}; gross USD = credited + held + fee + suspense + residue for ${finance.reports.filter((r) => isZeroDecimal(r.differenceUsd)).length}.`,
    ...lines,
    `Liability to artists: balances ${centsToDecimal(l.balancesCents)} + pending withdrawals ${centsToDecimal(l.pendingWithdrawalsCents)} + held shares ${centsToDecimal(l.heldSharesCents)} = ${centsToDecimal(l.totalCents)} USD; ledger ${centsToDecimal(l.ledgerCents)} USD: ${l.reconciles ? 'reconciles' : 'DOES NOT reconcile'}.`,
  ];
}
