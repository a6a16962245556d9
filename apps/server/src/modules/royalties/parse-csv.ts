/**
 * Aggregator statements (STATEMENTS.md: DistroKid TSV, TuneCore CSV, FUGA royalty_product_and_asset CSV)
 * and generic CSVs with a saved column mapping. The layout is recognised from the header row, columns
 * are found by name (never by position), amounts stay exact decimal text, every line keeps its own amount.
 */
import type { CsvMapping, RoyaltySourceFormat } from '@tunedrop/shared/schemas/royalties';
import {
  isKnownCurrency,
  isNegative,
  type ParsedLine,
  type ParseReport,
  parseDecimal,
  periodOf,
  refuse,
} from './parse-common';
import type { SourceLine } from './source';

export type CsvLayout = {
  format: Exclude<RoyaltySourceFormat, 'dsr'>;
  delimiter: string;
  /** Canonical field → header name (case-insensitive). */
  columns: Partial<
    Record<keyof CsvMapping | 'title' | 'artist' | 'isrcFallback' | 'upcFallback' | 'unitsFallback', string>
  >;
  /** Currency when there is no currency column. */
  currency: string | null;
};

export const KNOWN_LAYOUTS: CsvLayout[] = [
  {
    format: 'distrokid',
    delimiter: '\t',
    currency: 'USD',
    columns: {
      isrc: 'ISRC',
      upc: 'UPC',
      store: 'Store',
      country: 'Country of Sale',
      period: 'Sale Month',
      usageType: 'Source Type',
      units: 'Quantity',
      amount: 'Earnings (USD)',
      title: 'Title',
      artist: 'Artist',
    },
  },
  {
    format: 'tunecore',
    delimiter: ',',
    currency: null,
    columns: {
      isrc: 'Optional ISRC',
      isrcFallback: 'TC Song ID',
      upc: 'UPC',
      upcFallback: 'Optional UPC',
      store: 'Store Name',
      country: 'Country Of Sale',
      period: 'Sales Period',
      usageType: 'Sales Type',
      units: '# Units Sold',
      amount: 'Total Earned',
      currency: 'Currency',
      title: 'Song Title',
      artist: 'Artist',
    },
  },
  {
    format: 'fuga',
    delimiter: ',',
    currency: null,
    columns: {
      isrc: 'Asset ISRC',
      upc: 'Product UPC',
      store: 'DSP',
      country: 'Territory',
      period: 'Sale Start date',
      usageType: 'Sale Type',
      units: 'Asset Quantity',
      unitsFallback: 'Product Quantity',
      amount: 'Reported Royalty',
      currency: 'Currency',
      lineId: 'Sale ID',
      title: 'Asset Title',
      artist: 'Asset Artist',
    },
  },
];

/** Splits one CSV record; null when a quoted field is still open at the end (it continues on the next line). */
export function splitCsv(text: string, delimiter: string): string[] | null {
  if (!text.includes('"')) return text.split(delimiter);
  const cells: string[] = [];
  let cell = '';
  let inQuotes = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else {
          inQuotes = false;
        }
      } else {
        cell += char;
      }
    } else if (char === '"' && (cell === '' || !wasQuoted) && cell.trim() === '') {
      inQuotes = true;
      wasQuoted = true;
      cell = '';
    } else if (text.startsWith(delimiter, i)) {
      cells.push(cell);
      cell = '';
      wasQuoted = false;
      i += delimiter.length - 1;
    } else {
      cell += char;
    }
  }
  if (inQuotes) return null;
  cells.push(cell);
  return cells;
}

const normaliseHeader = (value: string) => value.trim().toLowerCase();

/** The known layout whose columns the header row has, or null. */
export function detectLayout(headerLine: string): CsvLayout | null {
  for (const layout of KNOWN_LAYOUTS) {
    const cells = splitCsv(headerLine, layout.delimiter);
    if (!cells || cells.length < 3) continue;
    const names = new Set(cells.map(normaliseHeader));
    const required = [layout.columns.amount, layout.columns.store] as string[];
    if (required.every((name) => names.has(normaliseHeader(name)))) return layout;
  }
  return null;
}

export function layoutFromMapping(mapping: CsvMapping, delimiter: string, currency: string): CsvLayout {
  return { format: 'csv', delimiter, currency, columns: { ...mapping } };
}

/** Records of a CSV: physical lines joined while a quoted field is open; the record's first line number. */
async function* csvRecords(
  lines: AsyncIterable<SourceLine>,
  delimiter: string,
): AsyncGenerator<{ no: number; cells: string[] | null; text: string }> {
  let pending: { no: number; text: string } | null = null;
  for await (const line of lines) {
    const text: string = pending ? `${pending.text}\n${line.text}` : line.text;
    const no: number = pending ? pending.no : line.no;
    const cells = splitCsv(text, delimiter);
    if (cells === null && text.length < 1_000_000) {
      pending = { no, text };
      continue;
    }
    pending = null;
    yield { no, cells, text };
  }
  if (pending) yield { no: pending.no, cells: null, text: pending.text };
}

/** Parses a statement with a known or mapped layout; yields one line per sale with its own amount. */
export async function* parseCsv(
  lines: AsyncIterable<SourceLine>,
  report: ParseReport,
  layout: CsvLayout,
): AsyncGenerator<ParsedLine> {
  let index: Map<string, number> | null = null;
  let headerCells = 0;
  const column = (name: string | undefined): number => {
    if (!name || !index) return -1;
    return index.get(normaliseHeader(name)) ?? -1;
  };
  let at: Record<string, number> = {};
  const currencies = new Set<string>();

  for await (const { no, cells, text } of csvRecords(lines, layout.delimiter)) {
    if (index === null) {
      if (text.trim() === '') continue;
      if (!cells) {
        report.errors.push(`Line ${no}: the header row has an unterminated quoted field.`);
        return;
      }
      index = new Map(cells.map((name, i) => [normaliseHeader(name), i]));
      headerCells = cells.length;
      at = Object.fromEntries(Object.entries(layout.columns).map(([field, name]) => [field, column(name)]));
      const missing = (['amount'] as const).filter((field) => (at[field] ?? -1) < 0);
      if ((at.isrc ?? -1) < 0 && (at.upc ?? -1) < 0) missing.push('isrc or upc' as 'amount');
      if (missing.length > 0) {
        const names = missing.map((field) => layout.columns[field as 'amount'] ?? field);
        report.errors.push(`Line ${no}: the header has no column ${names.map((n) => `"${n}"`).join(', ')}.`);
        return;
      }
      continue;
    }
    if (text.trim() === '') continue;
    if (!cells) {
      refuse(report, no, 'a quoted field is never closed');
      continue;
    }
    if (cells.length !== headerCells) {
      refuse(report, no, `has ${cells.length} cells; the header has ${headerCells}`);
      continue;
    }
    const get = (field: string): string | null => {
      const i = at[field] ?? -1;
      if (i < 0) return null;
      const value = (cells[i] as string).trim();
      return value === '' ? null : value;
    };
    const amountText = get('amount');
    const amount = amountText === null ? null : parseDecimal(amountText.replace(/^\$/, ''));
    if (amount === null) {
      refuse(report, no, `the amount "${amountText ?? ''}" is not a decimal number`);
      continue;
    }
    const unitsText = get('units') ?? get('unitsFallback') ?? '0';
    const units = parseDecimal(unitsText.replace(/,/g, ''));
    if (units === null) {
      refuse(report, no, `the quantity "${unitsText}" is not a number`);
      continue;
    }
    const currency = (get('currency') ?? layout.currency ?? '').toUpperCase();
    if (!isKnownCurrency(currency)) {
      report.errors.push(`Line ${no}: unknown currency "${currency}" (an ISO 4217 code is needed).`);
      refuse(report, no, `unknown currency "${currency}"`);
      continue;
    }
    currencies.add(currency);
    if (report.currency === null) report.currency = currency;
    else if (currency !== report.currency && currencies.size === 2) {
      report.errors.push(
        `Line ${no}: the amount is in ${currency} but earlier lines are in ${report.currency}; one currency per report.`,
      );
    }
    let isrc = get('isrc');
    const fallback = get('isrcFallback');
    if (!isrc && fallback && /^[A-Za-z]{2}[A-Za-z0-9]{3}\d{7}$/.test(fallback.replace(/-/g, '')))
      isrc = fallback;
    const upc = get('upc') ?? get('upcFallback');
    if (!isrc && !upc) {
      refuse(report, no, 'neither an ISRC nor a UPC is given');
      continue;
    }
    const periodText = get('period');
    const period = periodOf(periodText);
    if (periodText !== null && period === null) {
      refuse(report, no, `the period "${periodText}" is not a date`);
      continue;
    }
    const lineId = get('lineId');
    report.lineCount += 1;
    yield {
      lineNo: no,
      lineKey: lineId ? `${no}/${lineId}` : String(no),
      summaryId: null,
      isrc,
      upc,
      title: get('title'),
      artist: get('artist'),
      store: get('store'),
      country: get('country')?.toUpperCase() ?? null,
      period,
      usageType: get('usageType') ?? (isNegative(amount) ? 'Refund' : null),
      units,
      amount,
      royaltyBearing: true,
    };
  }
  if (index === null) report.errors.push('The file is empty: no header row.');
}
