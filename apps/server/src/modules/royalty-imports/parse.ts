/** Picks the parser for a file: the DSR HEAD record, or a statement layout recognised from its header row. */
import type { CsvMapping, RoyaltyFormat } from '@tunedrop/shared/schemas/royalties';
import { newReport, type ParsedLine, type ParseReport } from './parse-common';
import { type CsvLayout, detectLayout, KNOWN_LAYOUTS, layoutFromMapping, parseCsv } from './parse-csv';
import { type DsrOptions, parseDsr } from './parse-dsr';
import { isYoutubeHeader, parseYoutube, youtubeDelimiter } from './parse-youtube';
import { DEFAULT_READ_LIMITS, type ReadLimits, readLines, type SourceLine } from './source';

export type CsvPresetLayout = { mapping: CsvMapping; delimiter: string; currency: string };

export type ParseOptions = DsrOptions & {
  format: RoyaltyFormat;
  preset?: CsvPresetLayout | null;
  /** Line length and decompressed size bounds (decision 151); the defaults of ROYALTY_LIMITS when absent. */
  limits?: ReadLimits;
};

export type ParsedFile = { report: ParseReport; lines: AsyncGenerator<ParsedLine> };

async function firstLine(filePath: string, limits: ReadLimits): Promise<string> {
  for await (const line of readLines(filePath, limits)) {
    if (line.text.trim() !== '') return line.text;
  }
  return '';
}

export class FormatError extends Error {}

/** Resolves the format (auto → by content) and returns the report and its line stream. */
export async function parseFile(filePath: string, options: ParseOptions): Promise<ParsedFile> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  return parseSource(() => readLines(filePath, limits), await firstLine(filePath, limits), options);
}

export function parseSource(
  open: () => AsyncIterable<SourceLine>,
  first: string,
  options: ParseOptions,
): ParsedFile {
  const looksDsr = /^#?HEAD\t/.test(first);
  let format = options.format;
  if (format === 'auto') {
    if (looksDsr) format = 'dsr';
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
    if (!looksDsr)
      throw new FormatError('The file is not a DSR report: its first line is not a HEAD record.');
    const report = newReport('dsr');
    return { report, lines: parseDsr(open(), report, options) };
  }
  if (format === 'youtube') {
    if (!isYoutubeHeader(first)) {
      throw new FormatError(
        "The file's header is not a YouTube Content ID report header (asset_id, video_id, partner_revenue).",
      );
    }
    const report = newReport('youtube');
    const maxRecordLength = (options.limits ?? DEFAULT_READ_LIMITS).maxLineBytes;
    return { report, lines: parseYoutube(open(), report, youtubeDelimiter(first), maxRecordLength) };
  }
  let layout: CsvLayout | undefined;
  if (format === 'csv') {
    if (!options.preset) throw new FormatError('A generic CSV needs a preset with its column mapping.');
    layout = layoutFromMapping(options.preset.mapping, options.preset.delimiter, options.preset.currency);
  } else {
    layout = KNOWN_LAYOUTS.find((known) => known.format === format);
    if (!layout) throw new FormatError(`Unknown format ${format}.`);
    const detected = detectLayout(first);
    if (detected?.format !== format) {
      throw new FormatError(`The file's header is not a ${format} statement header.`);
    }
  }
  const report = newReport(layout.format);
  const maxRecordLength = (options.limits ?? DEFAULT_READ_LIMITS).maxLineBytes;
  return { report, lines: parseCsv(open(), report, layout, maxRecordLength) };
}
