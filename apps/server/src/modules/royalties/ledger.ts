/**
 * The artist's side (every plan): the ledger is the balance log read with its causes (royalty reports,
 * withdrawals with their status, admin adjustments), newest first, each with the balance after it; the
 * statements are the immutable earnings lines summed per period.
 */
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

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const KIND_OF: Record<string, LedgerEntryKind> = {
  royalty_import: 'earnings',
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
  const rows = rowsOf<{
    id: string;
    update_type: string;
    old_balance_cents: string | number;
    new_balance_cents: string | number;
    created_at: string | Date;
    created_text: string;
    withdrawal_status: string | null;
    period_start: string | null;
    period_end: string | null;
    store_names: string | null;
  }>(
    await db.execute(sql`
      select b.id, b.update_type, b.old_balance_cents, b.new_balance_cents, b.created_at,
             b.created_at::text as created_text, w.status as withdrawal_status,
             i.period_start::text as period_start, i.period_end::text as period_end,
             (select string_agg(distinct e.store, ', ') from royalty_earnings e
               where e.import_id = b.royalty_import_id and e.user_id = b.user_id) as store_names
        from balance_updates_log b
        left join withdrawal_requests w on w.id = b.withdrawal_request_id
        left join royalty_imports i on i.id = b.royalty_import_id
       where b.user_id = ${userId}
         ${cursor ? sql`and (b.created_at, b.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : sql``}
       order by b.created_at desc, b.id desc
       limit ${limit + 1}`),
  );
  const page = rows.slice(0, limit);
  const items: LedgerEntry[] = page.map((row) => {
    const kind = KIND_OF[row.update_type] ?? 'adjustment';
    const amountCents = Number(row.new_balance_cents) - Number(row.old_balance_cents);
    const period = row.period_start ? row.period_start.slice(0, 7) : null;
    const description =
      kind === 'earnings'
        ? `Royalties for ${period ?? 'the period'}${row.store_names ? ` (${row.store_names})` : ''}`
        : kind === 'withdrawal'
          ? 'Withdrawal request'
          : kind === 'withdrawal_refund'
            ? row.update_type === 'withdrawal_cancel'
              ? 'Withdrawal cancelled'
              : 'Withdrawal rejected, refunded'
            : row.update_type === 'bulk_csv'
              ? 'Balance adjustment (bulk CSV)'
              : 'Balance adjustment';
    return {
      id: row.id,
      kind,
      period: kind === 'earnings' ? period : null,
      description,
      amountCents,
      balanceCents: Number(row.new_balance_cents),
      status: kind === 'withdrawal' ? row.withdrawal_status : null,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
  const last = page[page.length - 1];
  return {
    items,
    nextCursor:
      rows.length > limit && last ? encodeCursor({ createdAt: last.created_text, id: last.id }) : null,
  };
}

export async function getStatementPeriods(db: DbOrTx, userId: string): Promise<StatementPeriodsResponse> {
  const rows = rowsOf<{ period: string; amount: string; lines: number | string; units: string }>(
    await db.execute(sql`
      select period, trunc(sum(amount_usd), 2)::text as amount, count(*) as lines,
             trim_scale(sum(units))::text as units
        from royalty_earnings where user_id = ${userId}
       group by period order by period desc`),
  );
  return {
    items: rows.map((row) => ({
      period: row.period,
      amountCents: Math.round(Number(row.amount) * 100),
      lines: Number(row.lines),
      units: row.units,
    })),
  };
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  // A leading =, +, - or @ would be a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The period's earnings by store, country, track and usage type, as CSV (exact USD amounts). */
export async function statementCsv(db: DbOrTx, userId: string, period: string): Promise<string | null> {
  const rows = rowsOf<{
    store: string | null;
    country: string | null;
    usage_type: string | null;
    release_title: string | null;
    upc: string | null;
    track_title: string | null;
    isrc: string | null;
    units: string;
    amount: string;
  }>(
    await db.execute(sql`
      select e.store, e.country, e.usage_type, r.title as release_title, r.upc, t.title as track_title, t.isrc,
             trim_scale(sum(e.units))::text as units, trim_scale(sum(e.amount_usd))::text as amount
        from royalty_earnings e
        left join tracks t on t.id = e.track_id
        left join releases r on r.id = e.release_id
       where e.user_id = ${userId} and e.period = ${period}
       group by e.store, e.country, e.usage_type, r.title, r.upc, t.title, t.isrc
       order by sum(e.amount_usd) desc, e.store, e.country`),
  );
  if (rows.length === 0) return null;
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
  const lines = [header.join(',')];
  for (const row of rows) {
    lines.push(
      [
        period,
        row.store,
        row.country,
        row.usage_type,
        row.release_title,
        row.upc,
        row.track_title,
        row.isrc,
        row.units,
        row.amount,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
