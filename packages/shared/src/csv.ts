/**
 * The one CSV writer for every export (statements, earnings, withdrawals, the bulk balance template):
 * csv-stringify does the quoting, this module makes every cell safe to open in a spreadsheet (issue 22).
 * The browser build of csv-stringify is used on both sides: its Node build touches `Buffer` when it
 * loads, which a browser does not have, and one build means one behaviour. Reading a file's header row
 * in the browser goes through csv-parse's browser build the same way (record 166).
 */
import { CsvError, parse } from 'csv-parse/browser/esm/sync';
import { stringify } from 'csv-stringify/browser/esm/sync';

/** What a cell may hold: text, a number, or nothing (an empty cell). */
export type CsvCell = string | number | bigint | null | undefined;

// OWASP's CSV injection list, plus the full-width forms that Apple Numbers normalises to the ASCII ones.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
// A whole cell that is a plain decimal number ("-12.50", "+3", "0.0001") is data, not a formula.
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A cell as text a spreadsheet shows as written: a cell starting with =, +, -, @, tab or carriage
 * return gets a leading apostrophe, unless the whole cell is a plain number (OWASP "CSV Injection").
 */
export function csvSafeCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (typeof value !== 'string') return text;
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A CSV document: the header line, then one line per row, CRLF line ends (RFC 4180), no byte order mark. */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const records: string[][] = [header.map(csvSafeCell)];
  for (const row of rows) records.push(row.map(csvSafeCell));
  return stringify(records, { record_delimiter: 'windows' });
}

/** CSV lines without a header (each ending in CRLF), for an export streamed page by page after toCsv's header. */
export function csvRecords(rows: Iterable<readonly CsvCell[]>): string {
  const records: string[][] = [];
  for (const row of rows) records.push(row.map(csvSafeCell));
  return records.length === 0 ? '' : stringify(records, { record_delimiter: 'windows' });
}

/**
 * The cells of a CSV's header row (its first record; a byte order mark dropped, cells trimmed, empty
 * ones left out), read by csv-parse; none when the first record cannot be read.
 */
export function csvHeaderCells(text: string, delimiter: string): string[] {
  try {
    const [header] = parse(text, {
      delimiter,
      bom: true,
      to_line: 1,
      trim: true,
      relax_quotes: true,
      relax_column_count: true,
    });
    return (header ?? []).filter((cell) => cell.length > 0);
  } catch (error) {
    if (error instanceof CsvError) return [];
    throw error;
  }
}
