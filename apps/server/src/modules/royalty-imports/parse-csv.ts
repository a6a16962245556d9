/**
 * Aggregator statements (STATEMENTS.md: DistroKid TSV, TuneCore CSV, FUGA royalty_product_and_asset CSV)
 * and generic CSVs with a saved column mapping. The layout is recognised from the header row, columns
 * are found by name (never by position), amounts stay exact decimal text, every line keeps its own amount.
 */

import { canonicalDecimal } from '@tunedrop/shared/money';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import { type CsvLayout, normaliseHeader, readRecords, splitCsv } from './headers';
import {
  cellAt,
  clip,
  isNegative,
  lineAmount,
  type ParsedLine,
  type ParseReport,
  periodOf,
  rangeProblem,
  readableRecord,
  refuse,
  reportCurrency,
} from './parse-common';
import type { SourceLine } from './source';

type CsvRecord = { no: number; cells: string[] | null; text: string };

/** Quotes in a line: a record is complete once its quotes pair up (RFC 4180 doubles a quote inside a field). */
function quoteCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at + 1)) count += 1;
  return count;
}

/** Records read by csv-parse in one call per batch; a batch it refuses is read record by record to refuse only the bad one. */
function* readBatch(batch: { no: number; text: string }[], delimiter: string): Generator<CsvRecord> {
  if (batch.length === 0) return;
  const all = readRecords(`${batch.map((record) => record.text).join('\n')}\n`, delimiter);
  if (all && all.length === batch.length) {
    for (const [index, record] of batch.entries()) yield { ...record, cells: all[index] ?? null };
    return;
  }
  for (const record of batch) yield { ...record, cells: splitCsv(record.text, delimiter) };
}

/** Records per csv-parse call: its setup is paid once per batch, not once per line. */
const RECORD_BATCH = 1000;

/**
 * Records of a CSV: physical lines joined while a quoted field is open (an odd number of quotes so far);
 * the record's first line number. A record longer than `maxLength` (a quote never closed) is given up as
 * unreadable (cells null) and reading starts again on the next line.
 */
export async function* csvRecords(
  lines: AsyncIterable<SourceLine>,
  delimiter: string,
  maxLength: number,
): AsyncGenerator<CsvRecord> {
  let batch: { no: number; text: string }[] = [];
  let pending: { no: number; texts: string[]; length: number; quotes: number } | null = null;
  for await (const line of lines) {
    const quotes = quoteCount(line.text);
    if (!pending && quotes % 2 === 0) {
      batch.push({ no: line.no, text: line.text });
    } else {
      pending ??= { no: line.no, texts: [], length: 0, quotes: 0 };
      pending.texts.push(line.text);
      pending.length += line.text.length + 1;
      pending.quotes += quotes;
      if (pending.quotes % 2 === 0) {
        batch.push({ no: pending.no, text: pending.texts.join('\n') });
        pending = null;
      } else if (pending.length > maxLength) {
        yield* readBatch(batch, delimiter);
        batch = [];
        yield { no: pending.no, cells: null, text: pending.texts.join('\n') };
        pending = null;
      }
    }
    if (batch.length >= RECORD_BATCH) {
      yield* readBatch(batch, delimiter);
      batch = [];
    }
  }
  yield* readBatch(batch, delimiter);
  if (pending) yield { no: pending.no, cells: null, text: pending.texts.join('\n') };
}

/** Parses a statement with a known or mapped layout; yields one line per sale with its own amount. */
export async function* parseCsv(
  lines: AsyncIterable<SourceLine>,
  report: ParseReport,
  layout: CsvLayout,
  maxRecordLength: number = ROYALTY_LIMITS.maxLineBytes,
): AsyncGenerator<ParsedLine> {
  let index: Map<string, number> | null = null;
  let headerCells = 0;
  const column = (name: string | undefined): number => {
    if (!name || !index) return -1;
    return index.get(normaliseHeader(name)) ?? -1;
  };
  let at: Record<string, number> = {};
  const currencyOk = reportCurrency(report);

  for await (const { no, cells, text } of csvRecords(lines, layout.delimiter, maxRecordLength)) {
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
    if (!readableRecord(report, no, cells, headerCells)) continue;
    const get = (field: string): string | null => cellAt(cells, at[field]);
    const amount = lineAmount(report, no, get('amount'), 'amount');
    if (amount === null) continue;
    const unitsText = get('units') ?? get('unitsFallback') ?? '0';
    const units = canonicalDecimal(unitsText.replace(/,/g, ''));
    if (units === null) {
      refuse(report, no, `the quantity "${clip(unitsText)}" is not a number`);
      continue;
    }
    const unitsProblem = rangeProblem(units, 'quantity');
    if (unitsProblem) {
      refuse(report, no, `the quantity "${clip(unitsText)}" ${unitsProblem}`);
      continue;
    }
    if (!currencyOk(no, (get('currency') ?? layout.currency ?? '').toUpperCase())) continue;
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
      saleId: lineId,
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
