/**
 * Reading a sales report as a stream of numbered lines: plain or gzip (detected by its magic bytes, not
 * the name), UTF-8 with or without BOM, LF or CRLF (a lone CR ends a line too), never the whole file in
 * memory. Lines longer than `maxLineBytes` and files that expand beyond `maxDecompressedBytes` stop the
 * read with the line number (decision 151); a damaged gzip stream surfaces as an error of the iteration.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import type { Config } from '../../config';

export type SourceLine = { no: number; text: string };

/** Bounds of one read (ROYALTY_MAX_LINE_BYTES and ROYALTY_MAX_DECOMPRESSED_BYTES). */
export type ReadLimits = { maxLineBytes: number; maxDecompressedBytes: number };

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxLineBytes: ROYALTY_LIMITS.maxLineBytes,
  maxDecompressedBytes: ROYALTY_LIMITS.maxDecompressedBytes,
};

export function readLimitsOf(
  config: Pick<Config, 'ROYALTY_MAX_LINE_BYTES' | 'ROYALTY_MAX_DECOMPRESSED_BYTES'>,
): ReadLimits {
  return {
    maxLineBytes: config.ROYALTY_MAX_LINE_BYTES,
    maxDecompressedBytes: config.ROYALTY_MAX_DECOMPRESSED_BYTES,
  };
}

export class SourceError extends Error {}

export async function isGzipFile(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buffer, 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The decompressed bytes of a file, chunk by chunk. */
export async function* readChunks(filePath: string): AsyncGenerator<Buffer> {
  const gzip = await isGzipFile(filePath);
  const file = createReadStream(filePath, { highWaterMark: 1024 * 1024 });
  if (!gzip) {
    const chunks: AsyncIterable<Buffer> = file;
    try {
      for await (const chunk of chunks) yield chunk;
    } finally {
      file.destroy();
    }
    return;
  }
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  file.on('error', (error) => gunzip.destroy(error));
  file.pipe(gunzip);
  const inflated: AsyncIterable<Buffer> = gunzip;
  try {
    for await (const chunk of inflated) yield chunk;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SourceError(
      message === 'unexpected end of file'
        ? 'The gzip file is truncated (unexpected end of file); nothing was imported.'
        : `The gzip file is damaged (${message}); nothing was imported.`,
    );
  } finally {
    // A reader that stops early (a limit, a fatal error) must not leave zlib inflating in the background.
    gunzip.destroy();
    file.destroy();
  }
}

/** 65536 → "64 KiB", 8589934592 → "8 GiB", other sizes in bytes. */
export function formatByteSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes.toLocaleString('en-US')} bytes`;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits decompressed chunks into numbered lines (1-based). A final line without a line break counts.
 * Each byte is looked at once (native `indexOf` for the breaks): the unfinished tail of a chunk is kept
 * as a slice, never re-scanned, and a line is decoded from UTF-8 once it is complete. Line breaks are
 * single bytes that never occur inside a multi-byte UTF-8 character, so splitting bytes is safe.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): AsyncGenerator<SourceLine> {
  const { maxLineBytes, maxDecompressedBytes } = limits;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let no = 0;
  let total = 0;
  let isFirst = true;
  let skipLf = false;
  const tooLong = () =>
    new SourceError(
      `Line ${no + 1} is longer than ${formatByteSize(maxLineBytes)} (ROYALTY_MAX_LINE_BYTES); nothing was imported.`,
    );
  const decode = (tail: Buffer): string => {
    const bytes = parts.length === 0 ? tail : Buffer.concat([...parts, tail], partBytes + tail.length);
    parts = [];
    partBytes = 0;
    let text = bytes.toString('utf8');
    if (isFirst) {
      isFirst = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  };

  for await (const input of chunks) {
    let chunk = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    if (chunk.length === 0) continue;
    const isOverLimit = total + chunk.length > maxDecompressedBytes;
    // Lines that end within the limit are still read, so the error names the line the limit falls in.
    if (isOverLimit) chunk = chunk.subarray(0, maxDecompressedBytes - total);
    total += chunk.length;
    let start = 0;
    if (skipLf && chunk.length > 0) {
      if (chunk[0] === LF) start = 1;
      skipLf = false;
    }
    let lf = chunk.indexOf(LF, start);
    let cr = chunk.indexOf(CR, start);
    while (lf >= 0 || cr >= 0) {
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (partBytes + (end - start) > maxLineBytes) throw tooLong();
      no += 1;
      yield { no, text: decode(chunk.subarray(start, end)) };
      start = end + 1;
      if (chunk[end] === CR) {
        if (start < chunk.length) {
          if (chunk[start] === LF) start += 1;
        } else {
          skipLf = true;
        }
      }
      if (lf >= 0 && lf < start) lf = chunk.indexOf(LF, start);
      if (cr >= 0 && cr < start) cr = chunk.indexOf(CR, start);
    }
    if (start < chunk.length) {
      if (partBytes + (chunk.length - start) > maxLineBytes) throw tooLong();
      // The slice keeps its chunk alive; only the first part of a line can hold more than its own bytes.
      parts.push(chunk.subarray(start));
      partBytes += chunk.length - start;
    }
    if (isOverLimit) {
      throw new SourceError(
        `Line ${no + 1}: the file is larger than ${formatByteSize(maxDecompressedBytes)} when decompressed (ROYALTY_MAX_DECOMPRESSED_BYTES); nothing was imported.`,
      );
    }
  }
  if (partBytes > 0) {
    no += 1;
    yield { no, text: decode(Buffer.alloc(0)) };
  }
}

export function readLines(
  filePath: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): AsyncGenerator<SourceLine> {
  return splitLines(readChunks(filePath), limits);
}
