/**
 * The artist's side (every plan): the ledger is the balance log read with its causes (royalty reports,
 * withdrawals with their status, admin adjustments), newest first, each with the balance after it; the
 * statements are the immutable earnings lines summed per period.
 */

import { formatCents } from '@tunedrop/shared';
import { type CsvCell, toCsv } from '@tunedrop/shared/csv';
import { decimalToCents } from '@tunedrop/shared/money';
import type {
  LedgerEntry,
  LedgerEntryKind,
  LedgerResponse,
  StatementPeriodsResponse,
} from '@tunedrop/shared/schemas/royalties';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { rows } from '../../lib/sql';
import { expenseStatementRows } from '../splits/statement';

const KIND_OF: Record<string, LedgerEntryKind> = {
  royalty_import: 'earnings',
  split_release: 'earnings',
  split_return: 'earnings',
  withdrawal_request: 'withdrawal',
  withdrawal_cancel: 'withdrawal_refund',
  withdrawal_refund: 'withdrawal_refund',
  manual: 'adjustment',
  bulk_csv: 'adjustment',
  cli: 'adjustment',
};

export async function getLedger(db: DbOrTx, userId: string, cursorText?: string): Promise<LedgerResponse> {
  const cursor = cursorText ? decodeCursor(cursorText) : null;
  const limit = ROYALTY_LIMITS.pageSize;
  const found = await rows<{
    id: string;
    updateType: string;
    oldBalanceCents: string | number;
    newBalanceCents: string | number;
    createdAt: string | Date;
    createdText: string;
    withdrawalStatus: string | null;
    periodStart: string | null;
    periodEnd: string | null;
    storeNames: string | null;
    notes: string | null;
  }>(
    db,
    sql`
      select b.id, b.update_type, b.old_balance_cents, b.new_balance_cents, b.created_at,
             b.created_at::text as created_text, w.status as withdrawal_status, b.notes,
             i.period_start::text as period_start, i.period_end::text as period_end,
             (select string_agg(distinct e.store, ', ') from royalty_earnings e
               where e.import_id = b.royalty_import_id and e.user_id = b.user_id) as store_names
        from balance_updates_log b
        left join withdrawal_requests w on w.id = b.withdrawal_request_id
        left join royalty_imports i on i.id = b.royalty_import_id
       where b.user_id = ${userId}
         ${cursor ? sql`and (b.created_at, b.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : sql``}
       order by b.created_at desc, b.id desc
       limit ${limit + 1}`,
  );
  const page = found.slice(0, limit);
  const items: LedgerEntry[] = page.map((row) => {
    const kind = KIND_OF[row.updateType] ?? 'adjustment';
    const amountCents = Number(row.newBalanceCents) - Number(row.oldBalanceCents);
    const period = row.periodStart ? row.periodStart.slice(0, 7) : null;
    const description =
      row.updateType === 'split_release' || row.updateType === 'split_return'
        ? (row.notes ?? 'Held split shares')
        : kind === 'earnings'
          ? `Royalties for ${period ?? 'the period'}${row.storeNames ? ` (${row.storeNames})` : ''}`
          : kind === 'withdrawal'
            ? 'Withdrawal request'
            : kind === 'withdrawal_refund'
              ? row.updateType === 'withdrawal_cancel'
                ? 'Withdrawal cancelled'
                : 'Withdrawal rejected, refunded'
              : row.updateType === 'bulk_csv'
                ? 'Balance adjustment (bulk CSV)'
                : 'Balance adjustment';
    return {
      id: row.id,
      kind,
      period: kind === 'earnings' ? period : null,
      description,
      amountCents,
      balanceCents: Number(row.newBalanceCents),
      status: kind === 'withdrawal' ? row.withdrawalStatus : null,
      createdAt: new Date(row.createdAt).toISOString(),
    };
  });
  const last = page[page.length - 1];
  return {
    items,
    nextCursor:
      found.length > limit && last ? encodeCursor({ createdAt: last.createdText, id: last.id }) : null,
  };
}

/**
 * Split shares of one user (decision 140), per period: as owner, each payee's share of their lines
 * (negative; shares held and later returned to the owner are not deducted); as an accepted payee, their
 * shares of others' lines (positive). Exact USD; `period` null for every period.
 */
function splitRowsSql(userId: string, period: string | null) {
  return sql`
    select a.period, -a.amount_usd as amount, 'to' as direction, p.email as party, r.title as release_title,
           r.upc, t.title as track_title, t.isrc, a.percent
      from split_allocations a
      join split_payees p on p.id = a.payee_id
      join split_settlements st on st.import_id = a.import_id and st.payee_id = a.payee_id
      left join releases r on r.id = a.release_id
      left join tracks t on t.id = a.track_id
     where a.owner_id = ${userId} and a.kind = 'share' and st.released_to is distinct from 'owner'
       ${period ? sql`and a.period = ${period}` : sql``}
    union all
    select a.period, a.amount_usd, 'from', u.email, r.title, r.upc, t.title, t.isrc, a.percent
      from split_payees p
      join split_allocations a on a.payee_id = p.id and a.kind = 'share'
      left join "user" u on u.id = a.owner_id
      left join releases r on r.id = a.release_id
      left join tracks t on t.id = a.track_id
     where p.user_id = ${userId} ${period ? sql`and a.period = ${period}` : sql``}`;
}

export async function getStatementPeriods(db: DbOrTx, userId: string): Promise<StatementPeriodsResponse> {
  const found = await rows<{ period: string; amount: string; lines: number | string; units: string }>(
    db,
    sql`
      select period, trunc(sum(amount), 2)::text as amount, count(*) filter (where is_line) as lines,
             trim_scale(sum(units))::text as units
        from (
          select period, amount_usd as amount, units, true as is_line from royalty_earnings where user_id = ${userId}
             -- A posting in progress has written lines of a report not posted yet (decision 162).
             and import_id in (select id from royalty_imports where status = 'posted')
          union all
          select period, amount, 0, false from (${splitRowsSql(userId, null)}) s
        ) x
       group by period order by period desc`,
  );
  return {
    items: found.map((row) => ({
      period: row.period,
      amountCents: Number(decimalToCents(row.amount) ?? 0n),
      lines: Number(row.lines),
      units: row.units,
    })),
  };
}

export type SplitStatementRow = {
  direction: 'to' | 'from';
  party: string;
  releaseTitle: string | null;
  upc: string | null;
  trackTitle: string | null;
  isrc: string | null;
  percent: string;
  amount: string;
};

/** The period's split shares summed per direction, party, release, track and percentage. */
export async function splitStatementRows(
  db: DbOrTx,
  userId: string,
  period: string,
): Promise<SplitStatementRow[]> {
  const found = await rows<{
    direction: 'to' | 'from';
    party: string;
    releaseTitle: string | null;
    upc: string | null;
    trackTitle: string | null;
    isrc: string | null;
    percent: string;
    amount: string;
  }>(
    db,
    sql`
      select direction, party, release_title, upc, track_title, isrc, percent::text as percent,
             trim_scale(sum(amount))::text as amount
        from (${splitRowsSql(userId, period)}) s
       group by direction, party, release_title, upc, track_title, isrc, percent
       order by direction, party, release_title, track_title`,
  );
  return found.map((row) => ({
    direction: row.direction,
    party: row.party,
    releaseTitle: row.releaseTitle,
    upc: row.upc,
    trackTitle: row.trackTitle,
    isrc: row.isrc,
    percent: row.percent,
    amount: row.amount,
  }));
}

/** The period's earnings by store, country, track and usage type, as CSV (exact USD amounts). */
export async function statementCsv(db: DbOrTx, userId: string, period: string): Promise<string | null> {
  const found = await rows<{
    store: string | null;
    country: string | null;
    usageType: string | null;
    releaseTitle: string | null;
    upc: string | null;
    trackTitle: string | null;
    isrc: string | null;
    units: string;
    amount: string;
  }>(
    db,
    sql`
      select e.store, e.country, e.usage_type, r.title as release_title, r.upc, t.title as track_title, t.isrc,
             trim_scale(sum(e.units))::text as units, trim_scale(sum(e.amount_usd))::text as amount
        from royalty_earnings e
        left join tracks t on t.id = e.track_id
        left join releases r on r.id = e.release_id
       where e.user_id = ${userId} and e.period = ${period}
         and e.import_id in (select id from royalty_imports where status = 'posted')
       group by e.store, e.country, e.usage_type, r.title, r.upc, t.title, t.isrc
       order by sum(e.amount_usd) desc, e.store, e.country`,
  );
  const splits = await splitStatementRows(db, userId, period);
  if (found.length === 0 && splits.length === 0) return null;
  const header = [
    'Period',
    'Store',
    'Country',
    'Usage type',
    'Release',
    'UPC',
    'Track',
    'ISRC',
    'Units',
    'Amount (USD)',
  ];
  const lines: CsvCell[][] = [];
  for (const row of found) {
    lines.push([
      period,
      row.store,
      row.country,
      row.usageType,
      row.releaseTitle,
      row.upc,
      row.trackTitle,
      row.isrc,
      row.units,
      row.amount,
    ]);
  }
  for (const split of splits) {
    lines.push([
      period,
      split.direction === 'to'
        ? `Split share to ${split.party} (${split.percent}%)`
        : `Split share from ${split.party} (${split.percent}%)`,
      null,
      null,
      split.releaseTitle,
      split.upc,
      split.trackTitle,
      split.isrc,
      null,
      split.amount,
    ]);
  }
  // Expenses repaid to a shared release's owner before the payee's share (record 148): information, no amount.
  for (const release of await expenseStatementRows(db, userId, period)) {
    const row = (label: string): CsvCell[] => [
      period,
      label,
      null,
      null,
      release.releaseTitle,
      release.upc,
      null,
      null,
      null,
      null,
    ];
    lines.push(
      row(`Recouped by the owner from this period before splits: ${formatCents(release.recoupedCents)}`),
    );
    for (const expense of release.expenses) {
      lines.push(
        row(
          `Expense recouped by the owner first: ${expense.description} (${expense.spentOn}; ${formatCents(expense.amountCents)})`,
        ),
      );
    }
  }
  return toCsv(header, lines);
}
