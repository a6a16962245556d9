/**
 * Balance Management (spec 02 §2, §3, §5, §8): the bulk CSV parser (used by the browser preview and the
 * server), the single edit, and the shapes of the admin balance API.
 */
import { CsvError, parse } from 'csv-parse/browser/esm/sync';
import { z } from 'zod';
import { CSV_TEMPLATE_HEADER, LIMITS } from '../constants';
import { toCsv } from '../csv';
import { formatCents, parseAmountToCents } from '../money';
import { safeText } from '../text';

export const BULK_BALANCE_LIMITS = {
  maxRows: 50_000,
  maxFileBytes: 5 * 1024 * 1024,
  searchLimit: LIMITS.userSearchLimit,
} as const;

export const BALANCE_TEXTS = {
  invalidFile: { title: 'Invalid file', description: 'Please upload a CSV file' },
  noUsers: { title: 'No users found', description: 'Try a different search term' },
  noValidUpdates: { title: 'No valid updates', description: 'There are no verified updates to apply' },
  parsingErrors: (count: number) => ({
    title: 'CSV parsing errors',
    description: `${count} errors found. The lines with errors are listed below and will not be applied.`,
  }),
  balanceUpdated: (email: string) => ({
    title: 'Balance updated',
    description: `Updated ${email}'s balances successfully`,
  }),
  invalidValues: { title: 'Invalid values', description: 'All balances must be numbers of 0 or more.' },
  userNotFound: 'User not found',
  databaseError: (message: string) => `Database error: ${message}`,
  manualNote: 'Manual balance update via admin panel',
  manualNoteEarnings: (addedCents: number) => ` (+${formatCents(addedCents)} added to total earnings)`,
  pendingNotEditable:
    'Pending follows the open withdrawal requests; approve, reject or cancel them to change it.',
  staleRow: (currentCents: number) =>
    `The balance changed to ${formatCents(currentCents)} since it was verified; verify again before applying.`,
  foundUsers: (count: number) => `Found ${count} user(s)`,
  templateFileName: 'balance-update-template.csv',
  // Written by the one CSV writer like every export, so the template and the exports cannot drift apart.
  template: toCsv(CSV_TEMPLATE_HEADER.split(','), [
    ['artist@example.com', '125.50'],
    ['00000000-0000-4000-8000-000000000000', '0.00'],
  ]),
} as const;

/** The manual edit's log note (spec 02 §3). */
export function manualBalanceNote(earningsAddedCents: number): string {
  return earningsAddedCents > 0
    ? `${BALANCE_TEXTS.manualNote}${BALANCE_TEXTS.manualNoteEarnings(earningsAddedCents)}`
    : BALANCE_TEXTS.manualNote;
}

// ---------------------------------------------------------------- CSV

export type CsvIdentifierKind = 'email' | 'id';

export type CsvBalanceRow = {
  /** The file's line number where the record starts (the header is line 1). */
  line: number;
  identifier: string;
  kind: CsvIdentifierKind;
  newBalanceCents: number;
};

export type CsvParseResult =
  | { ok: true; rows: CsvBalanceRow[]; errors: string[] }
  | { ok: false; reason: string; errors: string[] };

export const CSV_REASONS = {
  empty: 'The CSV file is empty.',
  headerOnly: 'The CSV file has a header but no data rows.',
  badHeader:
    'The first line must be a header naming a user column (user, email or id) and a balance column (balance or amount), for example user_id_or_email,new_balance.',
  noValidRows: 'No valid rows: every data row has an error.',
  tooManyRows: `The file has more than ${BULK_BALANCE_LIMITS.maxRows.toLocaleString('en-US')} rows; split it into smaller files.`,
} as const;

/**
 * RFC 4180 records read by csv-parse: quoted fields may hold commas, doubled quotes and line breaks;
 * CRLF, LF or CR end a record (all read as LF first, so a file may mix them); a quote inside an unquoted
 * field is text. Each record keeps the line it starts on: the line after the one the record before it
 * ended on. A quote still open at the end runs to the end of the file, as a spreadsheet reads it.
 */
function records(text: string): { line: number; fields: string[] }[] {
  const read = (input: string) => {
    const found: { line: number; fields: string[] }[] = [];
    let previousEnd = 0;
    parse(input, {
      relax_quotes: true,
      relax_column_count: true,
      record_delimiter: '\n',
      on_record: (fields, { lines }) => {
        found.push({ line: previousEnd + 1, fields });
        previousEnd = lines;
        return null;
      },
    });
    return found;
  };
  const normalised = text.replace(/\r\n?/g, '\n');
  try {
    return read(normalised);
  } catch (error) {
    if (!(error instanceof CsvError) || error.code !== 'CSV_QUOTE_NOT_CLOSED') throw error;
    return read(`${normalised}"`);
  }
}

const isBlank = (fields: string[]) => fields.every((value) => value.trim() === '');

function findColumns(header: string[]): { identifier: number; balance: number } | null {
  const names = header.map((value) => value.trim().toLowerCase());
  const identifier = names.findIndex((name) => /user|email|id/.test(name));
  const balance = names.findIndex((name, index) => index !== identifier && /balance|amount/.test(name));
  if (identifier === -1 || balance === -1) return null;
  return { identifier, balance };
}

/**
 * Parses a bulk balance CSV (spec 02 §5): a header naming the user and balance columns, then one row per
 * update. Bad rows become 'Line N: ...' errors; the parse fails when nothing valid remains.
 */
export function parseBalanceCsv(input: string): CsvParseResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === '') return { ok: false, reason: CSV_REASONS.empty, errors: [] };
  const iterator = records(text).values();
  let first = iterator.next();
  while (!first.done && isBlank(first.value.fields)) first = iterator.next();
  if (first.done) return { ok: false, reason: CSV_REASONS.empty, errors: [] };
  const columns = findColumns(first.value.fields);
  if (!columns) return { ok: false, reason: CSV_REASONS.badHeader, errors: [] };

  const rows: CsvBalanceRow[] = [];
  const errors: string[] = [];
  const seen = new Map<string, number>();
  let dataRows = 0;
  for (let next = iterator.next(); !next.done; next = iterator.next()) {
    const record = next.value;
    if (isBlank(record.fields)) continue;
    dataRows += 1;
    if (dataRows > BULK_BALANCE_LIMITS.maxRows) return { ok: false, reason: CSV_REASONS.tooManyRows, errors };
    const fail = (message: string) => errors.push(`Line ${record.line}: ${message}`);
    if (record.fields.length < 2) {
      fail('Expected at least 2 values: a user id or email and a new balance.');
      continue;
    }
    const identifier = (record.fields[columns.identifier] ?? '').trim();
    const balanceText = (record.fields[columns.balance] ?? '').trim();
    if (identifier === '') {
      fail('Missing user id or email.');
      continue;
    }
    if (balanceText === '') {
      fail('Missing new balance.');
      continue;
    }
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(balanceText)) {
      fail(`Balance "${balanceText}" is not a number.`);
      continue;
    }
    if (balanceText.startsWith('-') && Number(balanceText) !== 0) {
      fail(`Balance ${balanceText} is negative; balances cannot be below 0.`);
      continue;
    }
    const normalised = balanceText.replace(/^[+-]/, '').replace(/\.$/, '').replace(/^\./, '0.');
    const cents = parseAmountToCents(normalised);
    if (cents === null) {
      fail(`Balance "${balanceText}" has more than 2 decimals or is too large.`);
      continue;
    }
    const kind: CsvIdentifierKind = identifier.includes('@') ? 'email' : 'id';
    const key = kind === 'email' ? identifier.toLowerCase() : identifier;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      fail(`${identifier} is already on line ${earlier}.`);
      continue;
    }
    seen.set(key, record.line);
    rows.push({ line: record.line, identifier: key, kind, newBalanceCents: cents });
  }
  if (dataRows === 0) return { ok: false, reason: CSV_REASONS.headerOnly, errors };
  if (rows.length === 0) return { ok: false, reason: CSV_REASONS.noValidRows, errors };
  return { ok: true, rows, errors };
}

/** 'Invalid file' unless the name ends in .csv (spec 02 §5). */
export function isCsvFileName(name: string): boolean {
  return /\.csv$/i.test(name.trim());
}

// ---------------------------------------------------------------- API

const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const balanceSearchQuerySchema = z.object({ q: safeText().trim().min(1).max(200) });

export const manualBalanceSchema = z.object({
  balanceCents: cents,
  totalEarningsCents: cents,
  pendingBalanceCents: cents,
  /** The figures the admin saw; a change in between is refused (409) instead of overwritten. */
  expectedBalanceCents: cents.optional(),
  expectedTotalEarningsCents: cents.optional(),
});
export type ManualBalanceInput = z.infer<typeof manualBalanceSchema>;

/** One amount of the inline edit, typed in dollars (at most 2 decimals, not negative), as cents. */
export const balanceAmountSchema = safeText().transform((value, ctx) => {
  const cents = value.trim() === '' ? null : parseAmountToCents(value);
  if (cents === null || cents < 0) {
    ctx.addIssue({ code: 'custom', message: BALANCE_TEXTS.invalidValues.description });
    return z.NEVER;
  }
  return cents;
});

/** The inline balance edit: available balance and total earnings (pending is not editable). */
export const balanceEditFormSchema = z.object({
  balance: balanceAmountSchema,
  totalEarnings: balanceAmountSchema,
});

export const verifyRowsSchema = z.object({
  rows: z
    .array(
      z.object({
        line: z.number().int().min(1),
        identifier: safeText().min(1).max(320),
        newBalanceCents: cents,
      }),
    )
    .min(1)
    .max(BULK_BALANCE_LIMITS.maxRows),
});
export type VerifyRowsInput = z.infer<typeof verifyRowsSchema>;

export const applyRowsSchema = z.object({
  rows: z
    .array(
      z.object({
        line: z.number().int().min(1),
        userId: safeText().min(1).max(100),
        expectedOldBalanceCents: cents,
        newBalanceCents: cents,
      }),
    )
    .min(1)
    .max(BULK_BALANCE_LIMITS.maxRows),
});
export type ApplyRowsInput = z.infer<typeof applyRowsSchema>;

export type BalanceUser = {
  id: string;
  email: string;
  artistName: string;
  fullName: string;
  balanceCents: number;
  totalEarningsCents: number;
  pendingBalanceCents: number;
};

export type VerifiedRow =
  | {
      line: number;
      identifier: string;
      status: 'verified';
      userId: string;
      userEmail: string;
      oldBalanceCents: number;
      newBalanceCents: number;
    }
  | { line: number; identifier: string; status: 'error'; newBalanceCents: number; error: string };

export type AppliedRow =
  | {
      line: number;
      status: 'applied';
      userId: string;
      userEmail: string;
      oldBalanceCents: number;
      newBalanceCents: number;
    }
  | {
      line: number;
      status: 'stale';
      userId: string;
      userEmail: string;
      currentBalanceCents: number;
      error: string;
    }
  | { line: number; status: 'not_found'; userId: string; error: string };

export type ManualBalanceResult = BalanceUser & { earningsAddedCents: number };
