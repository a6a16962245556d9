/**
 * The parse step (source → detect → parse → stage, record 278): a report's lines in one read of its file,
 * the format resolved by the detect step from the first line of that same read, then the DSR, statement
 * or YouTube parser.
 */
import type { RoyaltyFormat } from '@tunedrop/shared/schemas/royalties';
import { type CsvPresetLayout, resolveFormat } from './detect';
import { newReport, type ParsedLine, type ParseReport } from './parse-common';
import { parseCsv } from './parse-csv';
import { type DsrOptions, parseDsr } from './parse-dsr';
import { parseYoutube } from './parse-youtube';
import {
  DEFAULT_READ_LIMITS,
  peekFirstLine,
  type ReadLimits,
  type ReportSource,
  readLines,
  type SourceLine,
} from './source';

export type ParseOptions = DsrOptions & {
  format: RoyaltyFormat;
  preset?: CsvPresetLayout | null;
  /** Line length and decompressed size bounds (decision 151); the defaults of ROYALTY_LIMITS when absent. */
  limits?: ReadLimits;
};

export type ParsedFile = { report: ParseReport; lines: AsyncGenerator<ParsedLine> };

/**
 * Resolves the format (auto → by content) and returns the report and its line stream, reading the report
 * (a file, or a stream as it downloads) once: its first line that is not blank is taken from the same read
 * the parser goes on with.
 */
export async function parseFile(source: ReportSource, options: ParseOptions): Promise<ParsedFile> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const { first, lines } = await peekFirstLine(readLines(source, limits));
  try {
    return parseSource(() => lines, first, options);
  } catch (error) {
    await lines.return(undefined);
    throw error;
  }
}

export function parseSource(
  open: () => AsyncIterable<SourceLine>,
  first: string,
  options: ParseOptions,
): ParsedFile {
  const resolved = resolveFormat(first, options);
  const maxRecordLength = (options.limits ?? DEFAULT_READ_LIMITS).maxLineBytes;
  if (resolved.format === 'dsr') {
    const report = newReport('dsr');
    return { report, lines: parseDsr(open(), report, options) };
  }
  if ('delimiter' in resolved) {
    const report = newReport('youtube');
    return { report, lines: parseYoutube(open(), report, resolved.delimiter, maxRecordLength) };
  }
  const report = newReport(resolved.layout.format);
  return { report, lines: parseCsv(open(), report, resolved.layout, maxRecordLength) };
}
