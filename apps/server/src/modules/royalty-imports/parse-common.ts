/**
 * What every report parser produces: staged sales lines (exact decimal text, never floats) and a report
 * of the file (identity, currency, summary records, fatal errors, warnings, refused lines).
 */
import { canonicalDecimal } from '@tunedrop/shared/money';
import { ROYALTY_LIMITS, type RoyaltySourceFormat } from '@tunedrop/shared/schemas/royalties';

export type ParsedLine = {
  /** Physical line number in the (decompressed) file, 1-based. */
  lineNo: number;
  /** Identity of the sale across imports: DSR sender/MessageId/SalesTransactionId; CSV line number. */
  lineKey: string;
  /**
   * The sale's own id where the file gives one (a DSR's SalesTransactionId, a statement's sale id): with
   * the sender and period it is the line's identity across files (decision 186); else a fingerprint is.
   */
  saleId?: string | null;
  /** DSR summary record whose NetRevenue this line shares (amount null); null when amount is given. */
  summaryId: string | null;
  isrc: string | null;
  upc: string | null;
  title: string | null;
  artist: string | null;
  store: string | null;
  country: string | null;
  /** YYYY-MM */
  period: string | null;
  usageType: string | null;
  units: string;
  amount: string | null;
  royaltyBearing: boolean;
  /** A YouTube Content ID report's claim (format youtube, decision 193): staged as a claim beside the line. */
  youtube?: YoutubeClaimFields;
};

/** What a YouTube report line says about the claim it earned from. */
export type YoutubeClaimFields = {
  assetId: string | null;
  videoId: string;
  videoTitle: string | null;
  channelId: string | null;
  channelName: string | null;
};

export type SummaryRecord = { id: string; netRevenue: string; usages: string | null; line: number };

export type ParseReport = {
  format: RoyaltySourceFormat;
  currency: string | null;
  sender: string | null;
  messageId: string | null;
  fileNumber: number | null;
  periodStart: string | null;
  periodEnd: string | null;
  summaries: Map<string, SummaryRecord>;
  errors: string[];
  warnings: string[];
  refused: { line: number; reason: string }[];
  refusedCount: number;
  lineCount: number;
};

export function newReport(format: RoyaltySourceFormat): ParseReport {
  return {
    format,
    currency: null,
    sender: null,
    messageId: null,
    fileNumber: null,
    periodStart: null,
    periodEnd: null,
    summaries: new Map(),
    errors: [],
    warnings: [],
    refused: [],
    refusedCount: 0,
    lineCount: 0,
  };
}

export function refuse(report: ParseReport, line: number, reason: string): void {
  report.refusedCount += 1;
  if (report.refused.length < ROYALTY_LIMITS.maxRefusedListed) report.refused.push({ line, reason });
}

const formatLimit = (value: number) => value.toLocaleString('en-US');

/** A cell quoted in a message: long cells cut short, so a refused line's reason stays readable. */
export function clip(text: string, length = 40): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/** The most digits before the point of an amount and of a quantity below their limits (powers of ten). */
const AMOUNT_DIGITS = String(ROYALTY_LIMITS.maxLineAmount).length - 1;
const UNITS_DIGITS = String(ROYALTY_LIMITS.maxUnits).length - 1;

/**
 * Why a canonical decimal (from canonicalDecimal) cannot be staged as an amount or a quantity, or null when it
 * can (decision 152): amounts below ROYALTY_LIMITS.maxLineAmount, quantities below maxUnits, at most
 * maxDecimals decimal places. Beyond them it is a damaged file, and posting could not store the cents.
 */
export function rangeProblem(decimal: string, kind: 'amount' | 'quantity'): string | null {
  // Digit counts read off the text without splitting it (every line's amount and units come here).
  const start = decimal.charCodeAt(0) === 0x2d ? 1 : 0;
  const dot = decimal.indexOf('.', start);
  const wholeLength = (dot === -1 ? decimal.length : dot) - start;
  const nextDot = dot === -1 ? -1 : decimal.indexOf('.', dot + 1);
  const fractionLength = dot === -1 ? 0 : (nextDot === -1 ? decimal.length : nextDot) - dot - 1;
  const limit = kind === 'amount' ? ROYALTY_LIMITS.maxLineAmount : ROYALTY_LIMITS.maxUnits;
  // Canonical text has no leading zeros, so the digit count compares with the power of ten exactly.
  if (wholeLength > (kind === 'amount' ? AMOUNT_DIGITS : UNITS_DIGITS)) {
    return `is out of range (${kind === 'amount' ? 'an amount' : 'a quantity'} must be below ${formatLimit(limit)})`;
  }
  if (fractionLength > ROYALTY_LIMITS.maxDecimals) {
    return `has more than ${ROYALTY_LIMITS.maxDecimals} decimal places`;
  }
  return null;
}

export function isNegative(decimal: string): boolean {
  return decimal.startsWith('-');
}

/**
 * Whether a statement's data record can be read: its quotes close and it has as many cells as the header.
 * If not, the line is refused (the caller skips it).
 */
export function readableRecord(
  report: ParseReport,
  no: number,
  cells: string[] | null,
  headerCells: number,
): cells is string[] {
  if (!cells) {
    refuse(report, no, 'a quoted field is never closed');
    return false;
  }
  if (cells.length !== headerCells) {
    refuse(report, no, `has ${cells.length} cells; the header has ${headerCells}`);
    return false;
  }
  return true;
}

/** The trimmed cell at column `i` (none when `i` is undefined or negative); an empty cell is null. */
export function cellAt(cells: string[], i: number | undefined): string | null {
  if (i === undefined || i < 0) return null;
  const value = (cells[i] ?? '').trim();
  return value === '' ? null : value;
}

/**
 * A statement line's amount cell (a leading "$" allowed) as canonical decimal text, or null after refusing
 * the line; `label` names the cell in the reason ("amount", "partner revenue").
 */
export function lineAmount(
  report: ParseReport,
  no: number,
  text: string | null,
  label: string,
): string | null {
  const amount = text === null ? null : canonicalDecimal(text.replace(/^\$/, ''));
  if (amount === null) {
    refuse(report, no, `the ${label} "${clip(text ?? '')}" is not a decimal number`);
    return null;
  }
  const problem = rangeProblem(amount, 'amount');
  if (problem) {
    refuse(report, no, `the ${label} "${clip(text ?? '')}" ${problem}`);
    return null;
  }
  return amount;
}

/**
 * One currency per report: the returned check refuses a line whose currency is not an ISO 4217 code (and
 * says so in the errors), sets the report's currency from the first line, and adds one error the first
 * time a line is in another currency. It returns whether the line may be staged.
 */
export function reportCurrency(report: ParseReport): (no: number, currency: string) => boolean {
  const currencies = new Set<string>();
  return (no, currency) => {
    if (!isKnownCurrency(currency)) {
      report.errors.push(`Line ${no}: unknown currency "${currency}" (an ISO 4217 code is needed).`);
      refuse(report, no, `unknown currency "${currency}"`);
      return false;
    }
    currencies.add(currency);
    if (report.currency === null) report.currency = currency;
    else if (currency !== report.currency && currencies.size === 2) {
      report.errors.push(
        `Line ${no}: the amount is in ${currency} but earlier lines are in ${report.currency}; one currency per report.`,
      );
    }
    return true;
  };
}

let currencyCodes: Set<string> | null = null;
/** ISO 4217 codes known to the runtime's Intl data. */
export function isKnownCurrency(code: string): boolean {
  currencyCodes ??= new Set(Intl.supportedValuesOf('currency'));
  return currencyCodes.has(code);
}

/** ISRC normalised for matching: upper case without hyphens, spaces or dots. */
export function normaliseIsrc(value: string | null | undefined): string | null {
  if (!value) return null;
  const code = value.replace(/[\s.-]/g, '').toUpperCase();
  return code === '' ? null : code;
}

/** UPC-A, EAN-13 and GTIN-14 as one 13-digit form (UPC-A gains a leading 0; a GTIN-14's leading 0 goes). */
export function normaliseUpc(value: string | null | undefined): string | null {
  if (!value) return null;
  let code = value.replace(/["'\s-]/g, '');
  if (!/^\d+$/.test(code)) return code === '' ? null : code.toUpperCase();
  if (code.length === 12) code = `0${code}`;
  else if (code.length === 14 && code.startsWith('0')) code = code.slice(1);
  return code;
}

/** YYYY-MM from a date-like cell: 2020-06, 2020-06-01, 20200601, 6/30/2020 …; null otherwise. */
export function periodOf(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  let match = /^(\d{4})-?(\d{2})(?:-?\d{2})?(?:[T ].*)?$/.exec(text);
  if (match) return validMonth(match[1] as string, match[2] as string);
  match = /^(\d{1,2})\/\d{1,2}\/(\d{4})(?:\s.*)?$/.exec(text);
  if (match) return validMonth(match[2] as string, (match[1] as string).padStart(2, '0'));
  return null;
}

function validMonth(year: string, month: string): string | null {
  const m = Number(month);
  return m >= 1 && m <= 12 ? `${year}-${month}` : null;
}

/** An ISO date (YYYY-MM-DD) from YYYY, YYYY-MM or YYYY-MM-DD; end=true gives the last day. */
export function isoDate(value: string, end: boolean): string | null {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value.trim());
  if (!match) return null;
  const year = Number(match[1]);
  const month = match[2] ? Number(match[2]) : end ? 12 : 1;
  if (month < 1 || month > 12) return null;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = match[3] ? Number(match[3]) : end ? lastDay : 1;
  if (day < 1 || day > lastDay) return null;
  return `${match[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
