/**
 * Reading a sales report (a file, or a stream such as an S3 download) as numbered lines: plain or gzip (detected by its magic bytes, not
 * the name), UTF-8 with or without BOM, LF or CRLF (a lone CR ends a line too), never the whole file in
 * memory. Lines longer than `maxLineBytes` and files that expand beyond `maxDecompressedBytes` stop the
 * read with the line number (decision 151); a damaged gzip stream surfaces as an error of the iteration.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import type { Config } from '../../config';

export type SourceLine = { no: number; text: string };

/**
 * Bounds of one read (ROYALTY_MAX_LINE_BYTES and ROYALTY_MAX_DECOMPRESSED_BYTES), and from how many lines
 * an import parses the file in a worker thread (ROYALTY_STAGE_WORKER_MIN_LINES; staging.ts's
 * WORKER_MIN_LINES when not given).
 */
export type ReadLimits = { maxLineBytes: number; maxDecompressedBytes: number; stageWorkerMinLines?: number };

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxLineBytes: ROYALTY_LIMITS.maxLineBytes,
  maxDecompressedBytes: ROYALTY_LIMITS.maxDecompressedBytes,
};

export function readLimitsOf(
  config: Pick<
    Config,
    'ROYALTY_MAX_LINE_BYTES' | 'ROYALTY_MAX_DECOMPRESSED_BYTES' | 'ROYALTY_STAGE_WORKER_MIN_LINES'
  >,
): ReadLimits {
  return {
    maxLineBytes: config.ROYALTY_MAX_LINE_BYTES,
    maxDecompressedBytes: config.ROYALTY_MAX_DECOMPRESSED_BYTES,
    stageWorkerMinLines: config.ROYALTY_STAGE_WORKER_MIN_LINES,
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

/**
 * Where a report's bytes come from: a file on this machine (local storage parses the stored file in place)
 * or a stream (an object streamed from S3 as it downloads, record 310), read once either way.
 */
export type ReportSource = string | Readable;

/** A stream's first `count` bytes (fewer when it is shorter) and all of its chunks again, from one read. */
async function peekStream(stream: Readable, count: number) {
  const iterator: AsyncIterator<Buffer> = stream[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let length = 0;
  while (length < count) {
    const next = await iterator.next();
    if (next.done) break;
    taken.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(taken);
  async function* all(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  return { head, chunks: all() };
}

/** The decompressed bytes of a file or a stream, chunk by chunk. */
export async function* readChunks(source: ReportSource): AsyncGenerator<Buffer> {
  let input: Readable;
  let gzip: boolean;
  if (typeof source === 'string') {
    gzip = await isGzipFile(source);
    input = createReadStream(source, { highWaterMark: 1024 * 1024 });
  } else {
    // A stream says gzip by its first two bytes too, which it then yields again.
    const { head, chunks } = await peekStream(source, 2);
    gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    input = Readable.from(chunks, { objectMode: false });
  }
  if (!gzip) {
    const chunks: AsyncIterable<Buffer> = input;
    try {
      for await (const chunk of chunks) yield chunk;
    } finally {
      input.destroy();
      if (typeof source !== 'string') source.destroy();
    }
    return;
  }
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  /** A stream that fails (the network) is the stream's error, for a retry, not a damaged gzip file. */
  let readError: unknown = null;
  input.on('error', (error) => {
    if (typeof source !== 'string') readError = error;
    gunzip.destroy(error);
  });
  input.pipe(gunzip);
  const inflated: AsyncIterable<Buffer> = gunzip;
  try {
    for await (const chunk of inflated) yield chunk;
  } catch (error) {
    if (readError) throw readError;
    const message = error instanceof Error ? error.message : String(error);
    throw new SourceError(
      message === 'unexpected end of file'
        ? 'The gzip file is truncated (unexpected end of file); nothing was imported.'
        : `The gzip file is damaged (${message}); nothing was imported.`,
    );
  } finally {
    // A reader that stops early (a limit, a fatal error) must not leave zlib inflating in the background.
    gunzip.destroy();
    input.destroy();
    if (typeof source !== 'string') source.destroy();
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
 * The bounds of decision 151 in front of splitLines, which holds a whole line before it hands it over: bytes
 * pass only up to the last line break seen, so the unfinished line held here never exceeds
 * `maxLineBytes`; past either bound the stream ends after the last whole line within it, and `error`
 * names the line the bound falls in (line breaks are single bytes, never inside a UTF-8 character).
 */
class LineBounds extends Transform {
  error: SourceError | null = null;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private total = 0;
  private breaks = 0;
  private afterCr = false;

  constructor(private readonly limits: ReadLimits) {
    super();
  }

  override _transform(input: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.error) {
      done();
      return;
    }
    let chunk = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    const { maxLineBytes, maxDecompressedBytes } = this.limits;
    const isOverLimit = this.total + chunk.length > maxDecompressedBytes;
    if (isOverLimit) chunk = chunk.subarray(0, maxDecompressedBytes - this.total);
    this.total += chunk.length;
    let lastBreak = -1;
    // Native indexOf finds the breaks; each byte is looked at once.
    let lf = chunk.indexOf(LF);
    let cr = chunk.indexOf(CR);
    while (lf !== -1 || cr !== -1) {
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (at === lf) lf = chunk.indexOf(LF, at + 1);
      else cr = chunk.indexOf(CR, at + 1);
      const isCrLf = chunk[at] === LF && (at > 0 ? chunk[at - 1] === CR : this.afterCr);
      if (!isCrLf) {
        // The line ending here: its bytes are those held plus this chunk's since the last break.
        if (this.heldBytes + (at - lastBreak - 1) > maxLineBytes) {
          this.stop(chunk, lastBreak, 'long', done);
          return;
        }
        this.breaks += 1;
      }
      this.heldBytes = 0;
      lastBreak = at;
    }
    if (chunk.length > 0) this.afterCr = chunk[chunk.length - 1] === CR;
    if (lastBreak >= 0) {
      this.push(Buffer.concat([...this.held, chunk.subarray(0, lastBreak + 1)]));
      this.held = [];
    }
    const rest = chunk.subarray(lastBreak + 1);
    if (this.heldBytes + rest.length > maxLineBytes) {
      // The whole lines of this chunk went out above.
      this.stop(chunk, -1, 'long', done);
      return;
    }
    if (rest.length > 0) {
      this.held.push(rest);
      this.heldBytes += rest.length;
    }
    if (isOverLimit) {
      this.stop(Buffer.alloc(0), -1, 'size', done);
      return;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.error && this.heldBytes > 0) this.push(Buffer.concat(this.held));
    done();
  }

  /** Ends the read after the whole lines up to `lastBreak` in `chunk`, with the reason for the caller. */
  private stop(chunk: Buffer, lastBreak: number, reason: 'long' | 'size', done: TransformCallback): void {
    if (lastBreak >= 0) this.push(Buffer.concat([...this.held, chunk.subarray(0, lastBreak + 1)]));
    this.held = [];
    const line = this.breaks + 1;
    const { maxLineBytes, maxDecompressedBytes } = this.limits;
    this.error = new SourceError(
      reason === 'long'
        ? `Line ${line} is longer than ${formatByteSize(maxLineBytes)} (ROYALTY_MAX_LINE_BYTES); nothing was imported.`
        : `Line ${line}: the file is larger than ${formatByteSize(maxDecompressedBytes)} when decompressed (ROYALTY_MAX_DECOMPRESSED_BYTES); nothing was imported.`,
    );
    this.push(null);
    done();
  }
}

/**
 * Splits decompressed chunks into numbered lines (1-based) as node:readline with an infinite crlfDelay
 * would (LF, CRLF even across chunks, or a lone CR ends a line; a final line without a break counts),
 * under the bounds of LineBounds: a line or a file beyond them stops the read with a SourceError after
 * the lines before it. The breaks are found here rather than by readline, whose line events and their
 * async iterator cost more than the parse of a DSR line (record 214).
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): AsyncGenerator<SourceLine> {
  const source = Readable.from(chunks, { objectMode: false });
  const bounds = new LineBounds(limits);
  const bounded: AsyncIterable<Buffer> = source.pipe(bounds);
  // A failing source (a damaged gzip stream) fails the lines too.
  source.on('error', (error) => bounds.destroy(error));
  const decoder = new StringDecoder('utf8');
  let no = 0;
  /** The unfinished line carried into the next chunk. */
  let rest = '';
  /** The last line ended with a CR: an LF right after it, even in the next chunk, is the same break. */
  let afterCr = false;
  try {
    for await (const chunk of bounded) {
      const text = rest + decoder.write(chunk);
      let from = 0;
      if (afterCr && text.length > 0) {
        if (text.charCodeAt(0) === LF) from = 1;
        afterCr = false;
      }
      let lf = text.indexOf('\n', from);
      let cr = text.indexOf('\r', from);
      while (lf !== -1 || cr !== -1) {
        const start = from;
        let end: number;
        if (cr !== -1 && (lf === -1 || cr < lf)) {
          end = cr;
          if (cr + 1 === text.length) {
            afterCr = true;
            from = cr + 1;
          } else from = text.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1;
        } else {
          end = lf;
          from = lf + 1;
        }
        no += 1;
        const line = text.slice(start, end);
        yield { no, text: no === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line };
        if (lf !== -1 && lf < from) lf = text.indexOf('\n', from);
        if (cr !== -1 && cr < from) cr = text.indexOf('\r', from);
      }
      rest = text.slice(from);
    }
    const last = rest + decoder.end();
    if (last.length > 0) {
      no += 1;
      yield { no, text: no === 1 && last.charCodeAt(0) === 0xfeff ? last.slice(1) : last };
    }
  } finally {
    source.destroy();
    bounds.destroy();
  }
  if (bounds.error) throw bounds.error;
}

export function readLines(
  source: ReportSource,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): AsyncGenerator<SourceLine> {
  return splitLines(readChunks(source), limits);
}

/** Lines that can be stopped early: `return` ends the read beneath them. */
export type StoppableLines = AsyncIterableIterator<SourceLine> & {
  return(value?: undefined): Promise<IteratorResult<SourceLine>>;
};

/**
 * The first line that is not blank (empty when there is none) and the same lines from the start, from one
 * read: the blank lines before it are kept as runs of the same text, so a file that starts with many holds
 * few. Past them the lines are the read's own, with no layer in between (a parse pays per line).
 */
export async function peekFirstLine(
  lines: AsyncGenerator<SourceLine>,
): Promise<{ first: string; lines: StoppableLines }> {
  const kept: { text: string; from: number; to: number }[] = [];
  try {
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const { no, text } = next.value;
      const last = kept.at(-1);
      if (text.trim() !== '') {
        kept.push({ text, from: no, to: no });
        break;
      }
      if (last && last.text === text && last.to === no - 1) last.to = no;
      else kept.push({ text, from: no, to: no });
    }
  } catch (error) {
    await lines.return(undefined);
    throw error;
  }
  const found = kept.at(-1);
  const first = found && found.text.trim() !== '' ? found.text : '';
  let run = 0;
  let no = kept[0]?.from ?? 0;
  const again: StoppableLines = {
    next() {
      const current = kept[run];
      if (!current) return lines.next();
      const line = { no, text: current.text };
      no += 1;
      if (no > current.to) {
        run += 1;
        no = kept[run]?.from ?? 0;
      }
      return Promise.resolve({ done: false, value: line });
    },
    return: () => lines.return(undefined),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return { first, lines: again };
}
