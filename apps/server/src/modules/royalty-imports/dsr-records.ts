/**
 * DSR records as cells (DSR.md §4–6): each record type's layout, the TAB split with the DSR escapes,
 * and the checks a record's cells pass before parse-dsr.ts reads them.
 */
import { canonicalDecimal } from '@tunedrop/shared/money';
import { cellOf } from './headers';
import { clip, isKnownCurrency, type ParseReport, rangeProblem, refuse } from './parse-common';

type Layout = { min: number; max: number };

export const LAYOUTS: Record<string, Layout> = {
  SY01: { min: 12, max: 15 },
  SY02: { min: 12, max: 22 },
  SY04: { min: 19, max: 20 },
  RE01: { min: 8, max: 17 },
  AS01: { min: 8, max: 13 },
  AS02: { min: 8, max: 25 },
  SU01: { min: 10, max: 13 },
  SU02: { min: 8, max: 11 },
  SU03: { min: 7, max: 9 },
  SR01: { min: 38, max: 41 },
  SR02: { min: 35, max: 36 },
  FOOT: { min: 4, max: 6 },
  SRFO: { min: 2, max: 3 },
};

/** Records read for context only. */
export const IGNORED = new Set(['RE02', 'MW01', 'RU01', 'LI01', 'SY03', 'SY05', 'SY06']);

export type Summary = {
  store: string | null;
  country: string | null;
  usageType: string | null;
  currency: string;
};

export type Resource = { isrc: string | null; title: string | null; artist: string | null };
export type Release = { upc: string | null; title: string | null; artist: string | null };

export function checkCells(cells: string[], layout: Layout, type: string): string | null {
  if (cells.length < layout.min) {
    return `${type} record has ${cells.length} cells; it needs at least ${layout.min}`;
  }
  for (let i = layout.max; i < cells.length; i++) {
    if ((cells[i] ?? '').trim() !== '') {
      return `${type} record has a value in cell ${i + 1}; it has at most ${layout.max} cells`;
    }
  }
  return null;
}

export function parseBoolean(value: string | null): boolean | null {
  if (value === null) return null;
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return null;
}

/** Refuses a sales line whose quantity or amount cannot be staged (decision 152); true when it did. */
export function isRefusedForRange(
  report: ParseReport,
  no: number,
  label: string,
  value: string,
  kind: 'amount' | 'quantity',
): boolean {
  const problem = rangeProblem(value, kind);
  if (problem) refuse(report, no, `${label} "${clip(value)}" ${problem}`);
  return problem !== null;
}

/** The FOOT (or SRFO) record's totals against what the file holds: a mismatch is a fatal error. */
export function checkFooter(
  report: ParseReport,
  foot: { line: number; cells: string[]; type: string },
  numberOfFiles: number,
  counted: { lines: number; summaryRecords: number; blocks: number },
): void {
  const { lines: lastLine, summaryRecords, blocks } = counted;
  const head = { numberOfFiles };
  const number = (index: number) => {
    const value = cellOf(foot.cells ?? [], index);
    return value !== null && /^\d+$/.test(value) ? Number(value) : null;
  };
  const check = (label: string, stated: number | null, actual: number, required: boolean) => {
    if (stated === null) {
      if (required) report.errors.push(`Line ${foot.line}: FOOT ${label} is missing or not a number.`);
      return;
    }
    if (stated !== actual) {
      report.errors.push(
        `Line ${foot.line}: FOOT ${label} is ${stated} but the file has ${actual}; the file does not match its totals.`,
      );
    }
  };
  const isLastFile = report.fileNumber === head.numberOfFiles;
  if (foot.type === 'FOOT') {
    check('NumberOfLinesInFile', number(1), lastLine, true);
    if (head.numberOfFiles === 1) check('NumberOfLinesInReport', number(2), lastLine, true);
    check('NumberOfSummaryRecords', number(3), summaryRecords, true);
    check('NumberOfBlocksInFile', number(4), blocks, true);
    if (head.numberOfFiles === 1) check('NumberOfBlocksInReport', number(5), blocks, isLastFile);
  } else {
    if (head.numberOfFiles === 1) check('NumberOfLinesInReport', number(1), lastLine, true);
    check('NumberOfSummaryRecords', number(2), summaryRecords, true);
  }
}

/**
 * A SY01, SY02 or SY04 record: its summary kept for the sales lines that share its revenue (decision 111).
 * A broken one is an error of the report (its money is shared among lines), never a refused line.
 */
export function readSummaryRecord(
  report: ParseReport,
  no: number,
  type: string,
  cells: string[],
  senderName: string | null,
  summaries: Map<string, Summary>,
  duplicateSummaryIds: Set<string>,
): void {
  const prefix = type.slice(0, 4);
  const id = cellOf(cells, 1);
  const isSy04 = prefix === 'SY04';
  const currency = (cellOf(cells, isSy04 ? 14 : 10) ?? '').toUpperCase();
  const netText = cellOf(cells, isSy04 ? 18 : 11);
  const usagesText = cellOf(cells, isSy04 ? 13 : 8);
  const net = netText === null ? null : canonicalDecimal(netText);
  const usages = usagesText === null ? null : canonicalDecimal(usagesText);
  if (!id) {
    report.errors.push(`Line ${no}: ${type} SummaryRecordId is empty.`);
    return;
  }
  if (!isKnownCurrency(currency)) {
    report.errors.push(
      `Line ${no}: unknown currency "${currency}" (CurrencyOfReporting must be an ISO 4217 code).`,
    );
    return;
  }
  if (net === null) {
    report.errors.push(`Line ${no}: NetRevenue "${clip(netText ?? '')}" is not a decimal number.`);
    return;
  }
  if (usagesText !== null && usages === null) {
    report.errors.push(`Line ${no}: the usages "${clip(usagesText)}" are not a number.`);
    return;
  }
  const netProblem = rangeProblem(net, 'amount');
  const usagesProblem = usages === null ? null : rangeProblem(usages, 'quantity');
  if (netProblem || usagesProblem) {
    // A summary's revenue is shared among its lines: out of range, the whole report is unusable.
    report.errors.push(
      netProblem
        ? `Line ${no}: NetRevenue "${clip(net)}" ${netProblem}.`
        : `Line ${no}: the usages "${clip(usages ?? '')}" ${usagesProblem}.`,
    );
    return;
  }
  if (report.currency === null) report.currency = currency;
  else if (report.currency !== currency) {
    report.errors.push(
      `Line ${no}: summary ${id} is in ${currency} but the report is in ${report.currency}; one currency per report.`,
    );
    return;
  }
  if (summaries.has(id)) {
    duplicateSummaryIds.add(id);
    return;
  }
  summaries.set(id, {
    store: cellOf(cells, 2) ?? senderName,
    country: cellOf(cells, 6),
    usageType: cellOf(cells, 5) ?? cellOf(cells, 4),
    currency,
  });
  report.summaries.set(id, { id, netRevenue: net, usages, line: no });
}
