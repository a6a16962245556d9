/**
 * A report measured as it streams (record 251), no database: the hash is the SHA-256 of the bytes sent,
 * the line count is the decompressed file's (plain or gzip, LF, CRLF, a last line without a break) however
 * the bytes are cut into chunks, the same count a read of the file gives, and a damaged gzip stream gives
 * no count rather than a wrong one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { countLines, measureFile, writeMeasured } from './measure';
import { DEFAULT_READ_LIMITS } from './source';

const files: string[] = [];
const tempFile = () => {
  const file = path.join(os.tmpdir(), `tunedrop-measure-${randomUUID()}`);
  files.push(file);
  return file;
};
afterAll(async () => {
  await Promise.all(files.map((file) => rm(file, { force: true })));
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The bytes in pieces of `size` (1: byte by byte, so the gzip magic arrives split). */
const inPieces = (bytes: Buffer, size: number) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
      bytes.subarray(i * size, (i + 1) * size),
    ),
  );

const TEXT = ['HEAD\tone', 'SY02\ttwo', 'RU01\tthree\r', 'RE01\tfour', 'last without a break'].join('\n');

describe('measuring a report as it streams', () => {
  it.each([
    ['plain', Buffer.from(TEXT)],
    ['gzip', gzipSync(Buffer.from(TEXT))],
    ['empty lines at the end', Buffer.from(`${TEXT}\n\n`)],
  ])(
    '%s: the hash of the bytes and the count a read of the file gives, whatever the chunks',
    async (_name, bytes) => {
      const source = tempFile();
      await writeFile(source, bytes);
      const counted = await countLines(source, DEFAULT_READ_LIMITS);
      for (const size of [1, 3, 64 * 1024]) {
        const target = tempFile();
        const measures = await writeMeasured(inPieces(bytes, size), target, DEFAULT_READ_LIMITS);
        expect(measures).toMatchObject({ sha256: sha256(bytes), linesTotal: counted });
        // The head the detect step reads (record 278): the decompressed bytes, all of them (a short file).
        expect(measures.head).toEqual({
          bytes: bytes[0] === 0x1f ? gunzipSync(bytes) : bytes,
          isWhole: true,
        });
        expect(sha256(await readFile(target))).toBe(sha256(bytes));
      }
      expect(await measureFile(source, DEFAULT_READ_LIMITS)).toMatchObject({
        sha256: sha256(bytes),
        linesTotal: counted,
      });
    },
  );

  it('counts five lines in the sample, a gzip of a thousand lines as a thousand', async () => {
    const target = tempFile();
    expect(
      (await writeMeasured(inPieces(Buffer.from(TEXT), 7), target, DEFAULT_READ_LIMITS)).linesTotal,
    ).toBe(5);
    const thousand = gzipSync(Buffer.from(Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n')));
    expect((await writeMeasured(inPieces(thousand, 100), tempFile(), DEFAULT_READ_LIMITS)).linesTotal).toBe(
      1000,
    );
  });

  it('stops counting a gzip bomb at the decompressed bound, as a read of the file does', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x61));
    const limits = { maxLineBytes: 1024 * 1024 * 1024, maxDecompressedBytes: 1024 * 1024 };
    const measures = await writeMeasured(inPieces(bomb, 16 * 1024), tempFile(), limits);
    expect(measures.sha256).toBe(sha256(bomb));
    expect(measures.linesTotal).toBe(1);
  });

  it('gives no count for a damaged gzip stream, and still the hash of what was sent', async () => {
    const whole = gzipSync(Buffer.from(TEXT.repeat(200)));
    const damaged = Buffer.concat([
      whole.subarray(0, 20),
      Buffer.from('not deflate at all'),
      whole.subarray(40),
    ]);
    const measures = await writeMeasured(inPieces(damaged, 10), tempFile(), DEFAULT_READ_LIMITS);
    expect(measures).toMatchObject({ sha256: sha256(damaged), linesTotal: null });
  });
});
