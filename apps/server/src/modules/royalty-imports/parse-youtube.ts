/**
 * YouTube Content ID reports (issue 28, decision 193): the per-video ad revenue a content owner downloads
 * from YouTube's CMS or the YouTube Reporting API's system-managed reports. Columns are YouTube's field
 * names (developers.google.com/youtube/reporting/v1/reports/system_managed/fields): `asset_id`, `video_id`
 * and `partner_revenue` are required; `isrc`, `video_title`, `channel_id`, `channel_display_name`,
 * `owned_views`, `country`, `day` (or `activity_month`), `adjustment_type`, `asset_title`, `artist`,
 * `currency` are read when present. Headers are matched whatever their case and spacing ("Video ID" is
 * video_id). Each line is a sale like any other (matched by ISRC, else by the track's asset id) and
 * carries its claim (asset, video, channel) for the claims table.
 */
import { canonicalDecimal } from '@tunedrop/shared/money';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import { YOUTUBE_COLUMNS, YOUTUBE_REQUIRED, type YoutubeField, youtubeHeaderName } from './headers';
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
import { csvRecords } from './parse-csv';
import type { SourceLine } from './source';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
/** Text cells kept for the claims list: long enough for any YouTube title (100 characters). */
const TEXT_MAX = 200;
/** Adjustment types that are not an adjustment (YouTube writes None for normal revenue rows). */
const NOT_ADJUSTMENT = new Set(['', 'none']);

export async function* parseYoutube(
  lines: AsyncIterable<SourceLine>,
  report: ParseReport,
  delimiter: string,
  maxRecordLength: number = ROYALTY_LIMITS.maxLineBytes,
): AsyncGenerator<ParsedLine> {
  let at: Partial<Record<YoutubeField, number>> | null = null;
  let headerCells = 0;
  const currencyOk = reportCurrency(report);
  const records = csvRecords(lines, delimiter, maxRecordLength);

  for await (const { no, cells, text } of records) {
    if (at === null) {
      if (text.trim() === '') continue;
      if (!cells) {
        report.errors.push(`Line ${no}: the header row has an unterminated quoted field.`);
        return;
      }
      const index = new Map<string, number>();
      cells.forEach((cell, i) => {
        const name = youtubeHeaderName(cell);
        if (!index.has(name)) index.set(name, i);
      });
      headerCells = cells.length;
      const found: Partial<Record<YoutubeField, number>> = {};
      for (const [field, names] of Object.entries(YOUTUBE_COLUMNS) as [YoutubeField, readonly string[]][]) {
        const column = names.map((name) => index.get(name)).find((i) => i !== undefined);
        if (column !== undefined) found[field] = column;
      }
      const missing = YOUTUBE_REQUIRED.filter((field) => found[field] === undefined);
      if (missing.length > 0) {
        const names = missing.map((field) => `"${YOUTUBE_COLUMNS[field][0]}"`).join(', ');
        report.errors.push(`Line ${no}: the header has no column ${names}.`);
        return;
      }
      at = found;
      continue;
    }
    if (text.trim() === '') continue;
    if (!readableRecord(report, no, cells, headerCells)) continue;
    const columns = at;
    const get = (field: YoutubeField): string | null => cellAt(cells, columns[field]);
    const amount = lineAmount(report, no, get('amount'), 'partner revenue');
    if (amount === null) continue;
    const viewsText = get('views') ?? '0';
    const views = canonicalDecimal(viewsText.replace(/,/g, ''));
    if (views === null || views.includes('.') || isNegative(views)) {
      refuse(report, no, `the views "${clip(viewsText)}" are not a whole number`);
      continue;
    }
    const viewsProblem = rangeProblem(views, 'quantity');
    if (viewsProblem) {
      refuse(report, no, `the views "${clip(viewsText)}" ${viewsProblem}`);
      continue;
    }
    if (!currencyOk(no, (get('currency') ?? 'USD').toUpperCase())) continue;
    const assetId = get('assetId');
    const isrc = get('isrc');
    if (!assetId && !isrc) {
      refuse(report, no, 'neither an asset id nor an ISRC is given');
      continue;
    }
    const videoId = get('videoId');
    if (videoId !== null && !VIDEO_ID.test(videoId)) {
      refuse(report, no, `the video id "${clip(videoId)}" is not a YouTube video id (11 characters)`);
      continue;
    }
    const periodText = get('period');
    const period = periodOf(periodText);
    if (periodText !== null && period === null) {
      refuse(report, no, `the date "${clip(periodText)}" is not a date`);
      continue;
    }
    const adjustment = get('adjustmentType');
    const isAdjustment = adjustment !== null && !NOT_ADJUSTMENT.has(adjustment.toLowerCase());
    const short = (value: string | null) => (value === null ? null : value.slice(0, TEXT_MAX));
    report.lineCount += 1;
    yield {
      lineNo: no,
      lineKey: String(no),
      summaryId: null,
      isrc,
      upc: get('upc'),
      title: short(get('title') ?? get('videoTitle')),
      artist: short(get('artist')),
      store: 'YouTube',
      country: get('country')?.toUpperCase() ?? null,
      period,
      usageType: isAdjustment ? `Content ID (${short(adjustment)})` : 'Content ID',
      units: views,
      amount,
      royaltyBearing: true,
      ...(videoId
        ? {
            youtube: {
              assetId,
              videoId,
              videoTitle: short(get('videoTitle')),
              channelId: short(get('channelId')),
              channelName: short(get('channelName')),
            },
          }
        : {}),
    };
  }
  if (at === null) report.errors.push('The file is empty: no header row.');
}
