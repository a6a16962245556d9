/**
 * The artist's side (every plan): the ledger is the balance log read with its causes (royalty reports,
 * withdrawals with their status, admin adjustments), newest first, each with the balance after it; the
 * statements are its months (statement.ts builds one).
 */

import type { LedgerEntry, LedgerEntryKind, LedgerResponse } from '@tunedrop/shared/schemas/royalties';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import type { StatementMonthsResponse } from '@tunedrop/shared/schemas/royalty-statements';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { rows } from '../../lib/sql';
import { payableByMonth } from '../ledger';

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
 * The months with a statement (record 190): each calendar month (UTC) with a row in the balance history,
 * newest first, with its opening and closing balance and the net earnings credited in it, all sums over
 * the journal (record 259), and the earnings lines of the reports posted in it.
 */
export async function getStatementPeriods(db: DbOrTx, userId: string): Promise<StatementMonthsResponse> {
  const found = await rows<{ period: string; lines: string | number }>(
    db,
    sql`
      with months as (
        select to_char(b.created_at at time zone 'UTC', 'YYYY-MM') as period, b.update_type, b.royalty_import_id
          from balance_updates_log b where b.user_id = ${userId}
      )
      select m.period,
             (select count(*) from royalty_earnings e
               where e.user_id = ${userId} and e.import_id in
                 (select x.royalty_import_id from months x
                   where x.period = m.period and x.update_type = 'royalty_import')) as lines
        from months m
       group by m.period
       order by m.period desc`,
  );
  const byMonth = [...(await payableByMonth(db, userId)).entries()].sort(([a], [b]) => a.localeCompare(b));
  // The balance at the end of each listed month: every month of the journal up to it, added in order.
  const closingOf = (period: string) =>
    byMonth.reduce((sum, [month, { changeCents }]) => (month <= period ? sum + changeCents : sum), 0);
  const items = found.map((row) => {
    const month = byMonth.find(([period]) => period === row.period)?.[1];
    const closing = closingOf(row.period);
    return {
      period: row.period,
      openingCents: closing - (month?.changeCents ?? 0),
      closingCents: closing,
      amountCents: month?.creditedCents ?? 0,
      lines: Number(row.lines),
    };
  });
  return { items };
}
