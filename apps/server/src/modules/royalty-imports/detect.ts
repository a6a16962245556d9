/**
 * The detect step of an import (source → detect → parse → stage; issue 36, record 278): a report's format
 * from its first line that is not blank, and the message a DSR's HEAD record names. The queue's checks
 * read both from the head kept as the upload streamed in (measure.ts), so they read nothing of the stored
 * file; the job's parse resolves its format here from the first line of its own, single read.
 */
import type { Readable } from 'node:stream';
import type { CsvMapping, RoyaltyFormat, RoyaltySourceFormat } from '@tunedrop/shared/schemas/royalties';
import {
  type CsvLayout,
  cellOf,
  detectLayout,
  isYoutubeHeader,
  KNOWN_LAYOUTS,
  layoutFromMapping,
  splitCells,
  youtubeDelimiter,
} from './headers';
import type { ReportHead } from './measure';
import { DEFAULT_READ_LIMITS, type ReadLimits, readLines, type SourceLine, splitLines } from './source';

export type CsvPresetLayout = { mapping: CsvMapping; delimiter: string; currency: string };

export class FormatError extends Error {}

/** How a report is parsed: a DSR, a YouTube report with its delimiter, or a statement with its layout. */
export type ResolvedFormat =
  | { format: 'dsr' }
  | { format: 'youtube'; delimiter: string }
  | { format: CsvLayout['format']; layout: CsvLayout };

/** A DSR starts with its HEAD record (a commented-out one counts: the parse then wants the next). */
const looksDsr = (first: string) => /^#?HEAD\t/.test(first);

/**
 * The format chosen (auto → by the first line's content), checked against the first line; a FormatError
 * when the line is not that format's header or no format fits.
 */
export function resolveFormat(
  first: string,
  options: { format: RoyaltyFormat; preset?: CsvPresetLayout | null | undefined },
): ResolvedFormat {
  let format = options.format;
  if (format === 'auto') {
    if (looksDsr(first)) format = 'dsr';
    else if (options.preset) format = 'csv';
    else if (isYoutubeHeader(first)) format = 'youtube';
    else {
      const layout = detectLayout(first);
      if (!layout) {
        throw new FormatError(
          'The file is not a DSR report and its header matches no known statement (DistroKid, TuneCore, FUGA, YouTube Content ID); choose a CSV preset with its column mapping.',
        );
      }
      format = layout.format;
    }
  }
  if (format === 'dsr') {
    if (!looksDsr(first))
      throw new FormatError('The file is not a DSR report: its first line is not a HEAD record.');
    return { format };
  }
  if (format === 'youtube') {
    if (!isYoutubeHeader(first)) {
      throw new FormatError(
        "The file's header is not a YouTube Content ID report header (asset_id, video_id, partner_revenue).",
      );
    }
    return { format, delimiter: youtubeDelimiter(first) };
  }
  if (format === 'csv') {
    if (!options.preset) throw new FormatError('A generic CSV needs a preset with its column mapping.');
    const { mapping, delimiter, currency } = options.preset;
    return { format, layout: layoutFromMapping(mapping, delimiter, currency) };
  }
  const layout = KNOWN_LAYOUTS.find((known) => known.format === format);
  if (!layout) throw new FormatError(`Unknown format ${format}.`);
  if (detectLayout(first)?.format !== format) {
    throw new FormatError(`The file's header is not a ${format} statement header.`);
  }
  return { format: layout.format, layout };
}

/** The message a DSR names in its HEAD record: the import refuses one it already has. */
export type DsrMessage = { messageId: string | null; sender: string | null; fileNumber: number };

/** A HEAD record's message, from its cells (the parse has checked it is a HEAD of at least 12 cells). */
export function dsrMessageOfCells(cells: string[]): DsrMessage {
  return {
    messageId: cellOf(cells, 4),
    sender: cellOf(cells, 10),
    fileNumber: Number(cellOf(cells, 6) ?? '1') || 1,
  };
}

type Found = { first: string; headRecord: string | null; isComplete: boolean };

/**
 * The first line that is not blank and, for a DSR, its first record (neither blank nor a comment), from
 * the lines of a head or a file. Complete when both are found, or when the lines that came are all there is.
 */
async function findHead(lines: AsyncGenerator<SourceLine>, isAll: boolean): Promise<Found> {
  let first: string | null = null;
  let headRecord: string | null = null;
  try {
    for await (const { text } of lines) {
      if (text.trim() === '') continue;
      first ??= text;
      if (!text.startsWith('#')) headRecord = text;
      if (headRecord !== null || !looksDsr(first)) return { first, headRecord, isComplete: true };
    }
  } finally {
    await lines.return(undefined);
  }
  return { first: first ?? '', headRecord, isComplete: isAll };
}

/** A head's whole lines: a head cut short ends at its last line break (the line after may go on). */
function wholeLinesOf(head: ReportHead): Buffer {
  if (head.isWhole) return head.bytes;
  const end = Math.max(head.bytes.lastIndexOf(0x0a), head.bytes.lastIndexOf(0x0d));
  return head.bytes.subarray(0, end + 1);
}

/**
 * Detects a report before it is queued: its format, and the message a DSR's HEAD names. From the head kept
 * as it streamed in; only when that head ends before the lines it needs (a first line longer than
 * measure.ts's HEAD_BYTES, a damaged gzip stream) is the head of the file read, as before record 278. A FormatError
 * when no format fits, a SourceError when the file's first lines break its bounds.
 */
export async function detectReport(
  /** The stored report: a file here, or a stream opened only when the head is too short (S3, record 310). */
  source: ({ filePath: string } | { open: () => Promise<Readable> }) & {
    head?: ReportHead | null | undefined;
  },
  options: {
    format: RoyaltyFormat;
    preset?: CsvPresetLayout | null | undefined;
    limits?: ReadLimits | undefined;
  },
): Promise<{ format: RoyaltySourceFormat; message: DsrMessage | null }> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  let found: Found | null = null;
  if (source.head)
    found = await findHead(splitLines([wholeLinesOf(source.head)], limits), source.head.isWhole);
  if (!found?.isComplete) {
    const file = 'open' in source ? await source.open() : source.filePath;
    found = await findHead(readLines(file, limits), true);
  }
  const resolved = resolveFormat(found.first, options);
  let message: DsrMessage | null = null;
  if (resolved.format === 'dsr' && found.headRecord !== null) {
    const cells = splitCells(found.headRecord);
    const isHead = (cells[0] ?? '').trim().slice(0, 4) === 'HEAD';
    if (isHead && cells.length >= 12) message = dsrMessageOfCells(cells);
  }
  return { format: resolved.format, message };
}
