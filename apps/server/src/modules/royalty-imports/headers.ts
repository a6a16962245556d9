/**
 * What a report's first lines say, read by the detect step (detect.ts) and by the parsers that come after
 * it (issue 36, record 278): the known statement layouts and a CSV header's cells, the YouTube Content ID
 * header, and a DSR record's cells. Pure: no file, no parse; the parsers import it, never the reverse.
 */
import type { CsvMapping, RoyaltySourceFormat } from '@tunedrop/shared/schemas/royalties';
import { CsvError, parse } from 'csv-parse/sync';

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

/** csv-parse's reading of a statement: quotes as RFC 4180, a stray quote inside a field kept as text, cells trimmed. */
const READ_OPTIONS = {
  relax_quotes: true,
  relax_column_count: true,
  trim: true,
  record_delimiter: '\n',
} as const;

/** The cells of each record in `text` (whole records, each ending in a line break); null when csv-parse refuses it. */
export function readRecords(text: string, delimiter: string): string[][] | null {
  try {
    return parse(text, { ...READ_OPTIONS, delimiter });
  } catch (error) {
    if (error instanceof CsvError) return null;
    throw error;
  }
}

/** Splits one CSV record; null when a quoted field is still open at the end (it continues on the next line). */
export function splitCsv(text: string, delimiter: string): string[] | null {
  return readRecords(`${text}\n`, delimiter)?.[0] ?? null;
}

export const normaliseHeader = (value: string) => value.trim().toLowerCase();

/** The known layout whose columns the header row has, or null. */
export function detectLayout(headerLine: string): CsvLayout | null {
  for (const layout of KNOWN_LAYOUTS) {
    const cells = splitCsv(headerLine, layout.delimiter);
    if (!cells || cells.length < 3) continue;
    const names = new Set(cells.map(normaliseHeader));
    const required = [layout.columns.amount, layout.columns.store];
    if (required.every((name) => name !== undefined && names.has(normaliseHeader(name)))) return layout;
  }
  return null;
}

export function layoutFromMapping(mapping: CsvMapping, delimiter: string, currency: string): CsvLayout {
  return { format: 'csv', delimiter, currency, columns: { ...mapping } };
}

/** Canonical field → YouTube's column names, the first present wins. */
export const YOUTUBE_COLUMNS = {
  assetId: ['asset_id'],
  videoId: ['video_id'],
  amount: ['partner_revenue'],
  isrc: ['isrc'],
  upc: ['upc'],
  videoTitle: ['video_title'],
  channelId: ['channel_id'],
  channelName: ['channel_display_name', 'channel_name', 'channel_title', 'uploader'],
  views: ['owned_views', 'views'],
  country: ['country', 'country_code'],
  period: ['day', 'date', 'activity_month', 'month'],
  adjustmentType: ['adjustment_type'],
  title: ['asset_title'],
  artist: ['artist'],
  currency: ['currency'],
} as const satisfies Record<string, readonly string[]>;

export type YoutubeField = keyof typeof YOUTUBE_COLUMNS;
export const YOUTUBE_REQUIRED: YoutubeField[] = ['assetId', 'videoId', 'amount'];

/** "Video ID", "video_id", "Partner Revenue (USD)" → video_id, partner_revenue_usd. */
export function youtubeHeaderName(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** A YouTube report is comma-separated; a tab in its header row means tab-separated. */
export function youtubeDelimiter(headerLine: string): string {
  return headerLine.includes('\t') ? '\t' : ',';
}

/** Whether a header row is a YouTube Content ID report's: it has asset_id, video_id and partner_revenue. */
export function isYoutubeHeader(headerLine: string): boolean {
  const cells = splitCsv(headerLine, youtubeDelimiter(headerLine));
  if (!cells) return false;
  const names = new Set(cells.map(youtubeHeaderName));
  return YOUTUBE_REQUIRED.every((field) => YOUTUBE_COLUMNS[field].some((name) => names.has(name)));
}

/** Splits a record on TAB, honouring the DSR escapes (`\`+TAB, `\\|`, `\\\`). */
export function splitCells(text: string): string[] {
  if (!text.includes('\\')) return text.split('\t');
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '\\') {
      if (text[i + 1] === '\t') {
        cell += '\t';
        i += 1;
        continue;
      }
      if (text.startsWith('\\\\\\', i)) {
        cell += '\\';
        i += 2;
        continue;
      }
      if (text.startsWith('\\\\|', i)) {
        cell += '|';
        i += 2;
        continue;
      }
    }
    if (char === '\t') {
      cells.push(cell);
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell);
  return cells;
}

export const cellOf = (cells: string[], index: number): string | null => {
  const value = cells[index];
  if (value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};
