/**
 * A statement as CSV (record 190): one row per balance movement, amounts in whole USD cents that add up (the
 * total row is the sum of the rows between the opening and the closing balance), the exact sum of the
 * earnings lines in a column of its own. Titles and store names go through the one CSV writer, which keeps
 * formulas as text.
 */
import { formatCents } from '@tunedrop/shared';
import { type CsvCell, toCsv } from '@tunedrop/shared/csv';
import type { ExpenseStatementRelease } from '../splits';
import type { StatementWithDetails } from './statement-compose';

export const STATEMENT_CSV_HEADER = [
  'Section',
  'Description',
  'Date',
  'Sales period',
  'Store',
  'Country',
  'Usage type',
  'Release',
  'UPC',
  'Track',
  'ISRC',
  'Units',
  'Amount (USD cents)',
  'Exact amount (USD)',
] as const;

type Cells = {
  section: string;
  description?: string | null;
  date?: string | null;
  salesPeriod?: string | null;
  store?: string | null;
  country?: string | null;
  usageType?: string | null;
  release?: string | null;
  upc?: string | null;
  track?: string | null;
  isrc?: string | null;
  units?: string | null;
  cents?: number | null;
  exact?: string | null;
};

const record = (cells: Cells): CsvCell[] => [
  cells.section,
  cells.description,
  cells.date,
  cells.salesPeriod,
  cells.store,
  cells.country,
  cells.usageType,
  cells.release,
  cells.upc,
  cells.track,
  cells.isrc,
  cells.units,
  cells.cents,
  cells.exact,
];

/** The CSV of a statement and the expenses recouped in its sales months (pure: run in a statement worker, record 208). */
export function statementCsvText(
  statement: StatementWithDetails,
  expenses: ExpenseStatementRelease[],
): string {
  const { period } = statement;
  const issuer = [statement.issuer.legalName, ...statement.issuer.address.split('\n')]
    .filter(Boolean)
    .join(', ');
  const lines: CsvCell[][] = [
    record({
      section: 'Statement',
      description: `Royalty statement ${period} issued by ${issuer} to ${statement.account.name} <${statement.account.email}>${statement.artistProfile ? `, artist profile ${statement.artistProfile.name}` : ''}`,
      date: period,
    }),
    record({ section: 'Opening balance', date: `${period}-01`, cents: statement.openingCents }),
  ];
  const movements: number[] = [];
  const push = (cells: Cells & { cents: number }) => {
    movements.push(cells.cents);
    lines.push(record(cells));
  };
  for (const row of statement.details) {
    push({
      section: 'Gross earnings',
      salesPeriod: row.salesPeriod,
      store: row.store,
      country: row.country,
      usageType: row.usageType,
      release: row.releaseTitle,
      upc: row.upc,
      track: row.trackTitle,
      isrc: row.isrc,
      units: row.units,
      cents: row.cents,
      exact: row.amount,
    });
  }
  const profile = statement.artistProfile;
  if (statement.earnings.lines > 0 || statement.feeCents !== 0 || profile) {
    push({
      section: 'Distribution fee',
      description: `Taken from the gross at posting${statement.feePercent ? ` (${statement.feePercent}%)` : ''}`,
      cents: statement.feeCents,
    });
  }
  for (const share of statement.shares) {
    const note =
      share.note === 'held'
        ? ', held until they accept'
        : share.note === 'released'
          ? ', released from hold'
          : '';
    push({
      section: share.direction === 'to' ? 'Split share paid' : 'Split share received',
      description: `${share.direction === 'to' ? 'To' : 'From'} ${share.party}${share.percent ? ` (${share.percent}%)` : ''}${note}`,
      release: share.releaseTitle,
      track: share.trackTitle,
      isrc: share.isrc,
      cents: share.cents,
      exact: share.exact,
    });
  }
  for (const row of statement.otherEarnings)
    push({ section: 'Other earnings', description: row.description, date: row.date, cents: row.cents });
  if (profile) {
    // One artist profile's statement (record 235): its net, then the rest of the account's, so the rows
    // still run from the account's opening balance to its closing balance.
    lines.push(
      record({
        section: 'Net earnings',
        description: `Net earnings of ${profile.name} (gross, fee and split shares of its releases)`,
        cents: statement.netEarningsCents,
      }),
    );
    push({
      section: 'Other artist profiles',
      description: 'Net earnings of the other artist profiles and shares received',
      cents: statement.outsideProfileCents ?? 0,
    });
  }
  for (const row of statement.withdrawals)
    push({ section: 'Withdrawal', description: row.description, date: row.date, cents: row.cents });
  for (const row of statement.adjustments)
    push({ section: 'Adjustment', description: row.description, date: row.date, cents: row.cents });
  const total = movements.reduce((sum, cents) => sum + cents, 0);
  lines.push(
    record({
      section: 'Total',
      description: 'Sum of the rows above, opening balance excluded',
      cents: total,
    }),
  );
  lines.push(record({ section: 'Closing balance', date: period, cents: statement.closingCents }));
  // Contract reserves (record 287): information beside the balance, not in the total.
  if (statement.reserves) {
    const reserves = statement.reserves;
    for (const [description, cents] of [
      ['Royalty reserve held back this month', reserves.heldCents],
      ['Royalty reserve released to the balance this month', reserves.releasedCents],
      ['Royalty reserve still held at the end of the month', reserves.balanceCents],
    ] as const) {
      lines.push(record({ section: 'Information', description: `${description}: ${formatCents(cents)}` }));
    }
  }
  // Expenses repaid to a shared release's owner before the payee's share (record 148): information, no amount.
  for (const release of expenses) {
    lines.push(
      record({
        section: 'Information',
        description: `Recouped by the owner from this period before splits: ${formatCents(release.recoupedCents)}`,
        release: release.releaseTitle,
        upc: release.upc,
      }),
    );
    for (const expense of release.expenses) {
      lines.push(
        record({
          section: 'Information',
          description: `Expense recouped by the owner first: ${expense.description} (${expense.spentOn}; ${formatCents(expense.amountCents)})`,
          release: release.releaseTitle,
          upc: release.upc,
        }),
      );
    }
  }
  return toCsv(STATEMENT_CSV_HEADER, lines);
}
