/**
 * YouTube Content ID report parser (decision 193), no database: YouTube's field names in either spelling,
 * detection from the header, each line's claim, and the lines refused with their reason.
 */
import { describe, expect, it } from 'vitest';
import { isYoutubeHeader, youtubeHeaderName } from './headers';
import { parseSource } from './parse';
import type { ParsedLine, ParseReport } from './parse-common';
import { splitLines } from './source';

async function parseText(
  text: string,
  format: 'auto' | 'youtube' = 'auto',
): Promise<{ report: ParseReport; lines: ParsedLine[] }> {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const parsed = parseSource(() => splitLines([text]), first, { format, preset: null });
  const lines: ParsedLine[] = [];
  for await (const line of parsed.lines) lines.push(line);
  return { report: parsed.report, lines };
}

const API_HEADER =
  'adjustment_type,day,country,video_id,channel_id,asset_id,asset_title,isrc,video_title,channel_display_name,owned_views,partner_revenue';

describe('the YouTube Content ID report', () => {
  it('reads the Reporting API field names: each line a sale with its claim', async () => {
    const { report, lines } = await parseText(
      [
        API_HEADER,
        'None,20260301,us,dQw4w9WgXcQ,UCabcdefghijklmnopqrstuv,A123456789012345,Night Drive,GB-AHT-09-00445,My vlog,Vlogger,1200,3.456789',
        'Backpay,20260215,DE,abcDEF12345,UCzzzzzzzzzzzzzzzzzzzzzz,A123456789012345,Night Drive,,"Dance, cover",Dancer,7,-0.25',
      ].join('\n'),
    );
    expect(report.format).toBe('youtube');
    expect(report.errors).toEqual([]);
    expect(report.currency).toBe('USD');
    expect(report.lineCount).toBe(2);
    expect(lines[0]).toMatchObject({
      lineNo: 2,
      isrc: 'GB-AHT-09-00445',
      store: 'YouTube',
      country: 'US',
      period: '2026-03',
      usageType: 'Content ID',
      units: '1200',
      amount: '3.456789',
      title: 'Night Drive',
      youtube: {
        assetId: 'A123456789012345',
        videoId: 'dQw4w9WgXcQ',
        videoTitle: 'My vlog',
        channelId: 'UCabcdefghijklmnopqrstuv',
        channelName: 'Vlogger',
      },
    });
    // An adjustment keeps its own amount (a deduction here) and says what it adjusts.
    expect(lines[1]).toMatchObject({
      isrc: null,
      usageType: 'Content ID (Backpay)',
      amount: '-0.25',
      units: '7',
      youtube: { assetId: 'A123456789012345', videoId: 'abcDEF12345', videoTitle: 'Dance, cover' },
    });
  });

  it('reads the CMS download spelling ("Video ID", "Partner Revenue") and tab-separated files', async () => {
    const { report, lines } = await parseText(
      [
        'Asset ID\tVideo ID\tVideo Title\tChannel ID\tOwned Views\tPartner Revenue\tCountry\tDay',
        'A123456789012345\tdQw4w9WgXcQ\tMy vlog\tUCabcdefghijklmnopqrstuv\t1,500\t$2.00\tfr\t2026-03-04',
      ].join('\r\n'),
    );
    expect(report.errors).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ units: '1500', amount: '2.00', country: 'FR', period: '2026-03' });
    expect(lines[0]?.youtube?.channelName).toBeNull();
  });

  it('is recognised from its header, and refused as youtube when the header is another', async () => {
    expect(isYoutubeHeader(API_HEADER)).toBe(true);
    expect(isYoutubeHeader('Asset ID,Video ID,Partner Revenue')).toBe(true);
    expect(isYoutubeHeader('asset_id,video_id,views')).toBe(false);
    expect(youtubeHeaderName(' Partner Revenue (USD) ')).toBe('partner_revenue_usd');
    await expect(parseText('ISRC,Store,Earnings (USD)\n', 'youtube')).rejects.toThrow(
      /not a YouTube Content ID report header/,
    );
  });

  it.each([
    [
      'a revenue that is not a number',
      'A123456789,dQw4w9WgXcQ,,12,abc',
      'the partner revenue "abc" is not a decimal number',
    ],
    ['views with a fraction', 'A123456789,dQw4w9WgXcQ,,1.5,1.00', 'the views "1.5" are not a whole number'],
    ['no asset and no ISRC', ',dQw4w9WgXcQ,,1,1.00', 'neither an asset id nor an ISRC is given'],
    [
      'a malformed video id',
      'A123456789,bad/video,,1,1.00',
      'the video id "bad/video" is not a YouTube video id (11 characters)',
    ],
    ['too few cells', 'A123456789,dQw4w9WgXcQ', 'has 2 cells; the header has 5'],
  ])('refuses %s with its reason', async (_, line, reason) => {
    const { report, lines } = await parseText(
      `asset_id,video_id,isrc,owned_views,partner_revenue\n${line}\n`,
    );
    expect(lines).toEqual([]);
    expect(report.refused).toEqual([{ line: 2, reason }]);
  });

  it('keeps a line without a video as a sale with no claim, and refuses a second currency', async () => {
    const { report, lines } = await parseText(
      'asset_id,video_id,owned_views,partner_revenue,currency\nA123456789,,3,0.10,USD\nA123456789,dQw4w9WgXcQ,1,0.10,EUR\n',
    );
    expect(lines[0]?.youtube).toBeUndefined();
    expect(lines[0]?.amount).toBe('0.10');
    expect(report.errors).toEqual([
      'Line 3: the amount is in EUR but earlier lines are in USD; one currency per report.',
    ]);
  });
});
