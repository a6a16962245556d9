/**
 * The report reader in bounded memory (issue 22 finding 6, decision 151): lines split the same whatever
 * the chunking, a line longer than the limit and a file expanding beyond the decompressed limit stop the
 * read with the line number, and a gzip bomb is refused after a few hundred kilobytes, not gigabytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_LAYOUTS } from './headers';
import { newReport, type ParseReport } from './parse-common';
import { parseCsv } from './parse-csv';
import { readChunks, readLines, SourceError, type SourceLine, splitLines } from './source';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-source-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function writeFile(name: string, content: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function collect(lines: AsyncIterable<SourceLine>): Promise<SourceLine[]> {
  const out: SourceLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** Reads every line and returns the error the read ended with (or null) and how many lines came first. */
async function readUntilError(lines: AsyncIterable<SourceLine>) {
  let count = 0;
  try {
    for await (const _line of lines) count += 1;
    return { error: null, count };
  } catch (error) {
    return { error: error as Error, count };
  }
}

describe('splitting lines', () => {
  const text = '\uFEFFHEAD\tä€😀\r\nline 2\rline 3\n\nlast without a break';
  const expected = [
    { no: 1, text: 'HEAD\tä€😀' },
    { no: 2, text: 'line 2' },
    { no: 3, text: 'line 3' },
    { no: 4, text: '' },
    { no: 5, text: 'last without a break' },
  ];

  it.each([1, 2, 3, 5, 7, 64])(
    'gives the same lines in chunks of %i bytes (CRLF and UTF-8 split across chunks)',
    async (size) => {
      const bytes = Buffer.from(text, 'utf8');
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect(await collect(splitLines(chunks))).toEqual(expected);
    },
  );

  it('reads a plain file and the same file gzipped alike', async () => {
    const plain = writeFile('plain.tsv', text);
    const gz = writeFile('plain.tsv.gz', gzipSync(Buffer.from(text)));
    expect(await collect(readLines(plain))).toEqual(expected);
    expect(await collect(readLines(gz))).toEqual(expected);
  });
});

describe('bounded lines and decompressed size', () => {
  it('refuses a gzip bomb (50 MB of one line in about 50 KB) at line 1, having inflated a few hundred KB', async () => {
    const bomb = writeFile('bomb.tsv.gz', gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a'), { level: 9 }));
    expect(fs.statSync(bomb).size).toBeLessThan(100 * 1024);
    let inflated = 0;
    async function* counted() {
      for await (const chunk of readChunks(bomb)) {
        inflated += chunk.length;
        yield chunk;
      }
    }
    const { error, count } = await readUntilError(splitLines(counted()));
    expect(error).toBeInstanceOf(SourceError);
    expect(error?.message).toBe(
      'Line 1 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.',
    );
    expect(count).toBe(0);
    // The read stopped in the first chunks, not at the end of the 50 MB.
    expect(inflated).toBeLessThan(1024 * 1024);
  });

  it('refuses a plain long line with its number and keeps the lines before it', async () => {
    const file = writeFile('long.tsv', `a\nb\n${'x'.repeat(100 * 1024)}\nd\n`);
    const { error, count } = await readUntilError(readLines(file));
    expect(error?.message).toBe(
      'Line 3 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.',
    );
    expect(count).toBe(2);
  });

  it('takes a line of exactly the limit and refuses one byte more, counting bytes, not characters', async () => {
    const limits = { maxLineBytes: 8, maxDecompressedBytes: 1024 };
    expect(await collect(splitLines(['12345678\r\n', 'éééé\n'], limits))).toEqual([
      { no: 1, text: '12345678' },
      { no: 2, text: 'éééé' },
    ]);
    const { error } = await readUntilError(splitLines(['12345678\n', 'éééé1'], limits));
    expect(error?.message).toBe(
      'Line 2 is longer than 8 bytes (ROYALTY_MAX_LINE_BYTES); nothing was imported.',
    );
  });

  it('stops a file that expands beyond the decompressed limit, naming the line the limit falls in', async () => {
    // 10-byte lines: 1 MiB holds 104,857 whole lines; the limit falls in line 104,858.
    const gz = writeFile('many.tsv.gz', gzipSync(Buffer.from('abcdefghi\n'.repeat(500_000))));
    const { error, count } = await readUntilError(
      readLines(gz, { maxLineBytes: 64 * 1024, maxDecompressedBytes: 1024 * 1024 }),
    );
    expect(error?.message).toBe(
      'Line 104858: the file is larger than 1 MiB when decompressed (ROYALTY_MAX_DECOMPRESSED_BYTES); nothing was imported.',
    );
    expect(count).toBe(104_857);
  });

  it('reads a file of exactly the decompressed limit to the end', async () => {
    const lines = await collect(
      splitLines(['abc\n', 'def\n'], { maxLineBytes: 10, maxDecompressedBytes: 8 }),
    );
    expect(lines).toEqual([
      { no: 1, text: 'abc' },
      { no: 2, text: 'def' },
    ]);
  });
});

describe('CSV records across lines', () => {
  it('gives up a quoted field never closed once the record passes the line limit, then reads on', async () => {
    const distrokid = KNOWN_LAYOUTS.find((layout) => layout.format === 'distrokid');
    if (!distrokid) throw new Error('no DistroKid layout');
    const header =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
    const good = '2023-05-02\t2023-03\tSpotify\tX\tSong\tUSX9P2300001\t\t120\t100\tSong\tUS\t0\t0.5';
    // 20,000 one-character lines after an opening quote: each line is scanned once, not the record again.
    const text = [header, `2023-05-02\t"open`, ...Array(20_000).fill('x'), good].join('\n');
    const report: ParseReport = newReport('distrokid');
    const lines = [];
    for await (const line of parseCsv(splitLines([text]), report, distrokid, 1024)) lines.push(line);
    expect(report.refused[0]).toEqual({ line: 2, reason: 'a quoted field is never closed' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ lineNo: 20_003, amount: '0.5' });
  });
});

describe('line breaks split by readline', () => {
  it('counts a lone CR, LF and CRLF (even across chunks) as one break each', async () => {
    const chunks = ['a\rb\nc\r', '\nd\r\ne', 'f\r', 'g'];
    expect(await collect(splitLines(chunks))).toEqual([
      { no: 1, text: 'a' },
      { no: 2, text: 'b' },
      { no: 3, text: 'c' },
      { no: 4, text: 'd' },
      { no: 5, text: 'ef' },
      { no: 6, text: 'g' },
    ]);
  });

  it('names the right line when a long one follows lone CRs, holding no more than the limit', async () => {
    const limits = { maxLineBytes: 4, maxDecompressedBytes: 1024 };
    const { error, count } = await readUntilError(splitLines(['a\rb\nc\r\n', 'dd', 'ddd\nx\n'], limits));
    expect(error?.message).toBe(
      'Line 4 is longer than 4 bytes (ROYALTY_MAX_LINE_BYTES); nothing was imported.',
    );
    expect(count).toBe(3);
  });
});
