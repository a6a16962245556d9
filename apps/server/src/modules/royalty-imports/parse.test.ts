/**
 * Parser table tests (no database): every example in shared/ddex (the three DSR samples, the DSR.md §10
 * example, the STATEMENTS.md layouts) and malformed files.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { canonicalDecimal } from '@tunedrop/shared/money';
import { describe, expect, it } from 'vitest';
import { StreamingAllocator } from './amounts';
import { splitCells } from './headers';
import { parseFile, parseSource } from './parse';
import { normaliseIsrc, normaliseUpc, type ParsedLine, type ParseReport, periodOf } from './parse-common';
import { readLines, SourceError, splitLines } from './source';

const VENDORED_DSR = path.resolve(__dirname, '../../../../../vendor/ddex/dsr');
const SAMPLES = path.join(VENDORED_DSR, 'samples');
const sample = (name: string) =>
  path.join(SAMPLES, fs.readdirSync(SAMPLES).find((f) => f.includes(name)) as string);

async function parseText(
  text: string,
  format: Parameters<typeof parseSource>[2]['format'] = 'auto',
  preset?: Parameters<typeof parseSource>[2]['preset'],
): Promise<{ report: ParseReport; lines: ParsedLine[] }> {
  const open = () => splitLines([text]);
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const parsed = parseSource(open, first, { format, preset: preset ?? null });
  const lines: ParsedLine[] = [];
  for await (const line of parsed.lines) lines.push(line);
  return { report: parsed.report, lines };
}

async function parsePath(file: string) {
  const parsed = await parseFile(file, { format: 'auto' });
  const lines: ParsedLine[] = [];
  for await (const line of parsed.lines) lines.push(line);
  return { report: parsed.report, lines };
}

/** The constructed example of DSR.md §10, as printed there. */
function dsrMdExample(): string {
  return fs.readFileSync(path.join(VENDORED_DSR, 'dsr-md-example.tsv'), 'utf8');
}

describe('DDEX DSR samples', () => {
  it('reads the Basic Audio 1.3 sample (block layout, CRLF, padded cells)', async () => {
    const { report, lines } = await parsePath(sample('UnlimitedMusic'));
    expect(report.errors).toEqual([]);
    expect(report.refusedCount).toBe(0);
    expect(report).toMatchObject({
      currency: 'GBP',
      sender: 'PADPIDA0123456766K',
      messageId: '1234567890',
      periodStart: '2020-06-01',
      periodEnd: '2020-06-30',
      lineCount: 15,
    });
    expect([...report.summaries.values()]).toEqual([
      { id: 'S1', netRevenue: '5000.00', usages: '3160', line: 4 },
    ]);
    expect(lines.reduce((sum, line) => sum + Number(line.units), 0)).toBe(3160);
    expect(lines[3]).toMatchObject({
      lineNo: 16,
      isrc: 'USSM16900682',
      upc: '696998776920',
      title: 'We Wish You a Merry Christmas',
      store: 'Unlimited Music',
      country: 'GB',
      period: '2020-06',
      usageType: 'OnDemandStream',
      units: '443',
      amount: null,
      summaryId: 'S1',
    });
  });

  it('reports the AdFunded sample’s FOOT block count and its lines pointing at a missing summary', async () => {
    const { report, lines } = await parsePath(sample('AdFunded'));
    expect(lines).toEqual([]);
    expect(report.errors).toEqual([
      'Line 18: FOOT NumberOfBlocksInReport is 94 but the file has 3; the file does not match its totals.',
    ]);
    expect(report.refused.map((r) => r.line)).toEqual([11, 14, 17]);
    expect(report.currency).toBe('EUR');
  });

  it('reads the UGC sample’s SU03 lines with their own revenue', async () => {
    const { report, lines } = await parsePath(sample('YouTube'));
    expect(report.errors).toEqual([]);
    expect(lines.map((line) => [line.isrc, line.units, line.amount])).toEqual([
      ['USSM19803037', '7810', '2.0'],
      ['USUV71101875', '2045', '2.0'],
      ['USRH10903879', '18', '0.0'],
      ['USRH10903879', '4', '0.0'],
      ['USRH10903879', '258', '0.0'],
      ['USRH10903879', '75', '3.0'],
    ]);
    expect(new Set(lines.map((line) => line.lineKey)).size).toBe(6);
  });

  it('reads the DSR.md §10 example: two summaries, two blocks, an escaped pipe', async () => {
    const { report, lines } = await parseText(dsrMdExample());
    expect(report.errors).toEqual([]);
    expect(lines).toHaveLength(5);
    expect(lines.find((line) => line.isrc === 'ZZXYZ2500002')?.title).toBe('Noon | Night');
    expect(lines.filter((line) => line.summaryId === 'S1').map((line) => line.units)).toEqual([
      '1200',
      '800',
      '300',
    ]);
    expect(lines[4]).toMatchObject({ upc: '4006381333931', isrc: 'ZZXYZ2500003', period: '2025-03' });
  });

  it('reads the single-record layout (SR02 lines, SRFO totals)', async () => {
    const sr02 = (tx: string, isrc: string, streams: string) => {
      const cells = Array.from({ length: 36 }, () => '');
      cells[0] = 'SR02';
      cells[1] = 'S1';
      cells[2] = `dsp-${tx}`;
      cells[3] = isrc;
      cells[4] = 'Song';
      cells[6] = 'Artist';
      cells[9] = 'SoundRecording';
      cells[23] = '012345678905';
      cells[24] = 'Artist';
      cells[26] = 'Album';
      cells[32] = tx;
      cells[33] = 'true';
      cells[34] = streams;
      return cells.join('\t');
    };
    const text = [
      'HEAD\tdsrf/1.1/1.4.1/1.2\tBasicAudioProfileSRB\t1.2\tSRB-1\t2025-04-01T00:00:00Z\t1\t1\t2025-03-01\t2025-03-31\tPADPIDA99999999013\tStream Co\t\t\t\t',
      'SY01.01\tS1\t\t\tSubscriptionModel\tOnDemandStream\tFR\tPremium\t30\t\tEUR\t1.23\t\t\t',
      sr02('T1', 'ZZXYZ2500001', '10'),
      sr02('T2', 'ZZXYZ2500002', '20'),
      'SRFO\t5\t1',
    ].join('\n');
    const { report, lines } = await parseText(text);
    expect(report.errors).toEqual([]);
    expect(lines.map((line) => [line.isrc, line.upc, line.units, line.country, line.store])).toEqual([
      ['ZZXYZ2500001', '012345678905', '10', 'FR', 'Stream Co'],
      ['ZZXYZ2500002', '012345678905', '20', 'FR', 'Stream Co'],
    ]);
  });
});

describe('malformed DSR files', () => {
  const example = dsrMdExample();

  it('refuses a line with a wrong cell count, naming its number', async () => {
    const text = example.replace(
      'SU02.02\t1\tS1\tT000002\t\tA2\ttrue\t800\t\t\tOnDemandStream',
      'SU02.02\t1\tS1\tT000002',
    );
    const { report, lines } = await parseText(text);
    expect(report.refused).toEqual([{ line: 12, reason: 'SU02.02 record has 4 cells; it needs at least 8' }]);
    expect(lines).toHaveLength(4);
  });

  it('reports FOOT totals that do not match', async () => {
    const { report } = await parseText(example.replace('FOOT\t18\t18\t2\t2\t2', 'FOOT\t19\t18\t3\t2\t2'));
    expect(report.errors).toEqual([
      'Line 18: FOOT NumberOfLinesInFile is 19 but the file has 18; the file does not match its totals.',
      'Line 18: FOOT NumberOfSummaryRecords is 3 but the file has 2; the file does not match its totals.',
    ]);
  });

  it('reports an unknown currency as fatal', async () => {
    const { report } = await parseText(example.replace('GBP\t0.75', 'XYZ\t0.75'));
    expect(report.errors).toEqual([
      'Line 4: unknown currency "XYZ" (CurrencyOfReporting must be an ISO 4217 code).',
    ]);
  });

  it('reports a file cut before its FOOT', async () => {
    const cut = example.split('\n').slice(0, 12).join('\n');
    const { report } = await parseText(cut);
    expect(report.errors).toEqual([
      'The file ends at line 12 without a FOOT record: it is truncated or incomplete.',
    ]);
  });

  it('refuses a file that does not start with HEAD', async () => {
    expect(() => parseSource(() => splitLines(['SY01.02\tS1']), 'SY01.02\tS1', { format: 'dsr' })).toThrow(
      'The file is not a DSR report: its first line is not a HEAD record.',
    );
  });

  it('labels returns above sales as a negative (refund) line', async () => {
    const head = example.split('\n')[0] as string;
    const text = [
      head,
      'SY01.02\tS1\t\t\tPayAsYouGoModel\tPermanentDownload\tGB\tStore\t1\t\tGBP\t-0.99\t\tGBP\t1',
      'RE01.02\t1\tR1\trel\t\t\t012345678905\tA\t\tT\t\tSingle\t\t\t\t',
      'AS02.03\t1\tA1\ttrk\tZZXYZ2500001\tT\t\tA\t\tPT3M\tSoundRecording\t\t\t\t\t\t\t\t\t\t\ttrue',
      'SU01\t1\tS1\tT1\t\tA1\ttrue\tfalse\t1\t2\t0.99\t',
      'FOOT\t6\t6\t1\t1\t1',
    ].join('\n');
    const { report, lines } = await parseText(text);
    expect(report.errors).toEqual([]);
    expect(lines[0]).toMatchObject({ units: '-1', amount: null });
  });

  it('turns a truncated gzip into a SourceError with a clear message', async () => {
    const file = path.join(os.tmpdir(), `royalty-truncated-${process.pid}.tsv.gz`);
    const gz = gzipSync(Buffer.from(example.repeat(500)));
    fs.writeFileSync(file, gz.subarray(0, gz.length - 200));
    const read = async () => {
      for await (const _line of readLines(file)) {
        // reading to the end
      }
    };
    await expect(read()).rejects.toThrow(SourceError);
    await expect(read()).rejects.toThrow(
      'The gzip file is truncated (unexpected end of file); nothing was imported.',
    );
    fs.rmSync(file);
  });
});

describe('aggregator statements (STATEMENTS.md)', () => {
  it('reads the DistroKid legacy layout', async () => {
    const text = [
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
      '2023-05-02\t2023-03\tSpotify\tX\tSong\tUSX9P2300001\t\t120\t100\tSong\tUS\t0\t0.00789993',
    ].join('\r\n');
    const { report, lines } = await parseText(text);
    expect(report.format).toBe('distrokid');
    expect(lines[0]).toMatchObject({
      store: 'Spotify',
      period: '2023-03',
      units: '120',
      amount: '0.00789993',
    });
    expect(report.currency).toBe('USD');
  });

  it('reads the DistroKid current layout (Source Type, Recoup)', async () => {
    const text = [
      'Date Inserted\tReporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSource Type\tCountry of Sale\tSongwriter Royalties Withheld (USD)\tEarnings (USD)\tRecoup (USD)',
      '2025-08-01\t2025-07-28\t2025-06\tApple Music\tX\tSong\tUSX9P2300001\t\t3\t100\tStream\tFR\t0\t0.021\t0',
    ].join('\n');
    const { lines } = await parseText(text);
    expect(lines[0]).toMatchObject({ usageType: 'Stream', country: 'FR', amount: '0.021' });
  });

  it('reads TuneCore: TC Song ID as ISRC when ISRC-shaped, quoted thousands, currency per row', async () => {
    const text = [
      'Sales Period,Posted Date,Store Name,Country Of Sale,Artist,Release Type,Release Title,Song Title,Label,UPC,Optional UPC,TC Song ID,Optional ISRC,Sales Type,# Units Sold,Per Unit Price,Net Sales,Net Sales Currency,Exchange Rate,Total Earned,Currency',
      '2019-01-01,2019-08-02,Spotify,UK,X,Album,Rel,Song,,859700000001,,USTCZ0928423,,Streaming,"1,200",0.004,4.8,USD,0.78,3.744,GBP',
    ].join('\n');
    const { report, lines } = await parseText(text);
    expect(report.format).toBe('tunecore');
    expect(report.currency).toBe('GBP');
    expect(lines[0]).toMatchObject({
      isrc: 'USTCZ0928423',
      upc: '859700000001',
      units: '1200',
      amount: '3.744',
      period: '2019-01',
    });
  });

  it('reads FUGA product rows by Product Quantity and refuses mixed currencies', async () => {
    const header =
      'Sale Start date,Sale End date,DSP,Sale Store Name,Sale Type,Sale User Type,Territory,Product UPC,Product Reference,Product Catalog Number,Product Label,Product Artist,Product Title,Asset Artist,Asset Title,Asset Version,Asset Duration,Asset ISRC,Asset Reference,Asset/Product,Product Quantity,Asset Quantity,Original Gross Income,Original currency,Exchange Rate,Converted Gross Income,Contract deal term,Reported Royalty,Currency,Report Run ID,Report ID,Sale ID';
    const row = (currency: string, id: string) =>
      `2025-07-01,2025-07-31,Amazon,Amazon Unlimited,Download,,DE,4006381333931,1,,L,A,P,,,,,,,Product,2,,1.98,EUR,1,1.98,70%,1.386,${currency},9,10,${id}`;
    const { report, lines } = await parseText([header, row('EUR', 'S-1'), row('USD', 'S-2')].join('\n'));
    expect(report.format).toBe('fuga');
    expect(lines[0]).toMatchObject({
      upc: '4006381333931',
      isrc: null,
      units: '2',
      amount: '1.386',
      lineKey: '2/S-1',
    });
    expect(report.errors).toEqual([
      'Line 3: the amount is in USD but earlier lines are in EUR; one currency per report.',
    ]);
  });

  it('keeps a refund as a negative line and refuses unreadable amounts, with line numbers', async () => {
    const mapping = { isrc: 'isrc', amount: 'net', units: 'qty', store: 'store' };
    const text =
      'isrc,store,qty,net\nZZXYZ2500001,Shop,-1,-0.99\nZZXYZ2500001,Shop,1,1e3\n"ZZXYZ2500001,Shop,1,2\n';
    const { report, lines } = await parseText(text, 'csv', { mapping, delimiter: ',', currency: 'USD' });
    expect(lines).toEqual([
      expect.objectContaining({ lineNo: 2, units: '-1', amount: '-0.99', usageType: 'Refund' }),
    ]);
    expect(report.refused).toEqual([
      { line: 3, reason: 'the amount "1e3" is not a decimal number' },
      { line: 4, reason: 'a quoted field is never closed' },
    ]);
  });

  it('refuses a header it does not know unless a preset maps it', async () => {
    expect(() => parseSource(() => splitLines(['a,b\n1,2']), 'a,b', { format: 'auto' })).toThrow(
      /matches no known statement/,
    );
  });
});

describe('values', () => {
  it.each([
    ['5', '5'],
    ['5.', '5'],
    ['0', '0'],
    ['-0.00', '0.00'],
    ['+1.50', '1.50'],
    ['0001.0100', '1.0100'],
    ['-.5', '-0.5'],
    ['0.000000000001', '0.000000000001'],
    ['1,000', null],
    ['1e3', null],
    ['', null],
    ['.', null],
  ])('canonicalDecimal(%j) = %j', (input, expected) => {
    expect(canonicalDecimal(input)).toBe(expected);
  });

  it.each([
    ['gb-aht-09-00445', 'GBAHT0900445'],
    [' GB AHT 09 00445 ', 'GBAHT0900445'],
    ['', null],
  ])('normaliseIsrc(%j) = %j', (input, expected) => {
    expect(normaliseIsrc(input)).toBe(expected);
  });

  it.each([
    ['012345678905', '0012345678905'],
    ['0012345678905', '0012345678905'],
    ['00012345678905', '0012345678905'],
    ['"880000000001"', '0880000000001'],
  ])('normaliseUpc(%j) = %j', (input, expected) => {
    expect(normaliseUpc(input)).toBe(expected);
  });

  it.each([
    ['2020-06', '2020-06'],
    ['2019-01-01', '2019-01'],
    ['20151001', '2015-10'],
    ['7/31/2023 12:00:00 AM', '2023-07'],
    ['2020-13', null],
    ['June', null],
  ])('periodOf(%j) = %j', (input, expected) => {
    expect(periodOf(input)).toBe(expected);
  });

  it('splits DSR cells with escapes', () => {
    expect(splitCells('a\\\tb\tc\\\\|d\te\\\\\\f')).toEqual(['a\tb', 'c|d', 'e\\f']);
  });

  it('splits CRLF, LF, CR and a last line without a break, and drops a BOM', async () => {
    const lines = [];
    for await (const line of splitLines(['\uFEFFa\r', '\nb\rc\nd'])) lines.push(line);
    expect(lines).toEqual([
      { no: 1, text: 'a' },
      { no: 2, text: 'b' },
      { no: 3, text: 'c' },
      { no: 4, text: 'd' },
    ]);
  });
});

describe('revenue per line while streaming', () => {
  it('shares a summary exactly, each line within a cent of its share', () => {
    const usages = [120, 5, 314, 443, 108, 397, 88, 100, 277, 438, 121, 168, 259, 245, 77];
    const allocator = new StreamingAllocator([{ id: 'S1', netRevenue: '5000.00', usages: '3160' }]);
    const amounts = usages.map((u) => allocator.share('S1', String(u), true) as string);
    const cents = amounts.map((amount) => Math.round(Number(amount) * 100));
    expect(cents.reduce((a, b) => a + b, 0)).toBe(500_000);
    cents.forEach((value, i) => {
      expect(Math.abs(value - (500_000 * (usages[i] as number)) / 3160)).toBeLessThan(1);
    });
    expect(amounts.slice(0, 2)).toEqual(['189.87', '7.91']);
    expect(allocator.fallbacks()).toEqual([]);
  });

  it('keeps the finer scale of the revenue and its sign', () => {
    const allocator = new StreamingAllocator([{ id: 'S', netRevenue: '-0.001', usages: '3' }]);
    expect(['1', '1', '1'].map((u) => allocator.share('S', u, true))).toEqual(['0.000', '-0.001', '0.000']);
  });

  it('leaves a summary to SQL when its royalty-bearing usages do not reach its total', () => {
    const allocator = new StreamingAllocator([{ id: 'S', netRevenue: '10', usages: '3' }]);
    allocator.share('S', '2', true);
    allocator.share('S', '1', false);
    expect(allocator.fallbacks()).toEqual(['S']);
  });
});
