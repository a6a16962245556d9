/**
 * A report's hash and line count taken while its bytes stream past (issue 36, record 251): the upload is
 * hashed and counted as it is written to disk, so the import reads the stored file once, to parse it.
 * The count is of decompressed lines (a gzip file is inflated as it arrives), bounded as the parse is
 * (decision 151): past either bound counting stops, and the parse fails with the line.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { PassThrough, Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { createGunzip, type Gunzip } from 'node:zlib';
import { type ReadLimits, readChunks } from './source';

const LF = 0x0a;

/**
 * Counts lines of decompressed chunks as countLines did: LF-terminated lines, plus a last line without
 * one; stops (add answers false) past maxDecompressedBytes or at a line longer than maxLineBytes.
 */
export class LineCounter {
  private count = 0;
  private bytes = 0;
  private last = LF;
  /** Bytes since the last line break: a gzip bomb is one endless line, stop there instead of inflating it. */
  private lineBytes = 0;

  constructor(private readonly limits: ReadLimits) {}

  add(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxDecompressedBytes) return false;
    let at = chunk.indexOf(LF);
    this.lineBytes = at === -1 ? this.lineBytes + chunk.length : chunk.length - chunk.lastIndexOf(LF) - 1;
    if (at === -1 && this.lineBytes > this.limits.maxLineBytes) return false;
    while (at !== -1) {
      this.count += 1;
      at = chunk.indexOf(LF, at + 1);
    }
    this.last = chunk[chunk.length - 1] ?? this.last;
    return true;
  }

  total(): number {
    return this.last === LF ? this.count : this.count + 1;
  }
}

/** Counts a file's lines (decompressed) by reading it: an import queued before its count was taken. */
export async function countLines(filePath: string, limits: ReadLimits): Promise<number> {
  const counter = new LineCounter(limits);
  for await (const chunk of readChunks(filePath)) if (!counter.add(chunk)) break;
  return counter.total();
}

/** The decompressed first bytes of a report as they streamed in, and whether they are all of it. */
export type ReportHead = { bytes: Buffer; isWhole: boolean };

/** How many decompressed bytes of an upload are kept for the detect step (a header is far shorter). */
const HEAD_BYTES = 64 * 1024;

/**
 * What measuring a report found: its SHA-256 (of the bytes as sent), its line count and its first
 * decompressed bytes, for the detect step (record 278).
 */
export type ReportMeasures = { sha256: string; linesTotal: number | null; head?: ReportHead | null };

/**
 * A pass-through stream that hashes the bytes and counts the lines (inflating a gzip file, known by its
 * first two bytes, beside the stream). `measures()` answers once the stream has ended; a damaged gzip
 * stream gives no count (the parse says what is wrong).
 */
export class MeasuringStream extends Transform {
  private readonly hash = createHash('sha256');
  private readonly counter: LineCounter;
  private head: Buffer | null = Buffer.alloc(0);
  private gunzip: Gunzip | null = null;
  private isCounting = true;
  private isDamaged = false;
  /** The first HEAD_BYTES decompressed bytes; cut short when there were more, or counting stopped. */
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private isHeadCut = false;

  constructor(limits: ReadLimits) {
    super();
    this.counter = new LineCounter(limits);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.push(chunk);
    if (this.head !== null) {
      // The first two bytes say gzip or not; until both are here, nothing is counted.
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 2) {
        done();
        return;
      }
      const head = this.head;
      this.head = null;
      if (head[0] === 0x1f && head[1] === 0x8b) this.startGunzip();
      this.count(head, done);
      return;
    }
    this.count(chunk, done);
  }

  override _flush(done: TransformCallback): void {
    const head = this.head;
    this.head = null;
    if (head && head.length > 0) this.add(head);
    done();
  }

  /** The hash and the count, once the stream has ended (the inflation may finish a little later). */
  async measures(): Promise<ReportMeasures> {
    if (this.gunzip) {
      if (this.isCounting) this.gunzip.end();
      await finished(this.gunzip).catch(() => undefined);
    }
    const bytes = Buffer.concat(this.kept);
    return {
      sha256: this.hash.digest('hex'),
      linesTotal: this.isDamaged ? null : this.counter.total(),
      head: { bytes, isWhole: !this.isHeadCut && !this.isDamaged && this.isCounting },
    };
  }

  /** Counts a decompressed chunk and keeps what the head still has room for; false once counting stops. */
  private add(chunk: Buffer): boolean {
    if (!this.isHeadCut) {
      const room = HEAD_BYTES - this.keptBytes;
      if (chunk.length > room) this.isHeadCut = true;
      if (room > 0) this.kept.push(Buffer.from(chunk.subarray(0, room)));
      this.keptBytes += Math.min(room, chunk.length);
    }
    return this.counter.add(chunk);
  }

  private startGunzip(): void {
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    gunzip.on('data', (inflated: Buffer) => {
      if (this.isCounting && !this.add(inflated)) this.stopCounting();
    });
    gunzip.on('error', () => {
      this.isDamaged = true;
      this.stopCounting();
    });
    this.gunzip = gunzip;
  }

  private stopCounting(): void {
    this.isCounting = false;
    this.gunzip?.destroy();
  }

  private count(chunk: Buffer, done: TransformCallback): void {
    if (!this.isCounting) {
      done();
      return;
    }
    const gunzip = this.gunzip;
    if (!gunzip) {
      if (!this.add(chunk)) this.isCounting = false;
      done();
      return;
    }
    // The inflation keeps pace with the bytes written (no more than zlib's buffer ahead).
    if (gunzip.write(chunk)) done();
    else {
      const go = () => {
        gunzip.off('drain', go);
        gunzip.off('close', go);
        done();
      };
      gunzip.on('drain', go);
      gunzip.on('close', go);
    }
  }
}

/**
 * Writes a stream to `file`, hashing and counting it on the way (the upload, a copy the CLI queues); a
 * `guard` (a byte counter that refuses too large a body) runs first. On failure the file is removed.
 */
export async function writeMeasured(
  source: Readable | AsyncIterable<Uint8Array>,
  file: string,
  limits: ReadLimits,
  guard?: Transform,
): Promise<ReportMeasures> {
  const measuring = new MeasuringStream(limits);
  try {
    const input = source instanceof Readable ? source : Readable.from(source);
    const output = createWriteStream(file, { mode: 0o600 });
    if (guard) await pipeline(input, guard, measuring, output);
    else await pipeline(input, measuring, output);
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return measuring.measures();
}

/**
 * Hands a stream to `write` (an upload into the bucket, record 310), hashing and counting it on the way;
 * a `guard` runs first. Waits for both the stream and the write: whichever fails first fails both, and
 * the stream's own failure (a guard's 413) is the one answered.
 */
export async function streamMeasured(
  source: Readable,
  limits: ReadLimits,
  write: (body: Readable) => Promise<unknown>,
  guard?: Transform,
): Promise<ReportMeasures> {
  const measuring = new MeasuringStream(limits);
  const body = new PassThrough();
  const streamed = guard ? pipeline(source, guard, measuring, body) : pipeline(source, measuring, body);
  const written = write(body).catch((error: unknown) => {
    body.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  });
  const [read, stored] = await Promise.allSettled([streamed, written]);
  if (read.status === 'rejected') throw read.reason;
  if (stored.status === 'rejected') throw stored.reason;
  return measuring.measures();
}

/** Hashes and counts a file on disk in one read (an import run in this process, an older queued one). */
export async function measureFile(file: string, limits: ReadLimits): Promise<ReportMeasures> {
  const measuring = new MeasuringStream(limits);
  const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), measuring, sink);
  return measuring.measures();
}
