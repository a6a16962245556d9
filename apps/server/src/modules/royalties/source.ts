/**
 * Reading a sales report as a stream of numbered lines: plain or gzip (detected by its magic bytes, not
 * the name), UTF-8 with or without BOM, LF or CRLF (a lone CR ends a line too), never the whole file in
 * memory. A damaged gzip stream surfaces as an error of the iteration.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

export type SourceLine = { no: number; text: string };

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
    for await (const chunk of file) yield chunk as Buffer;
    return;
  }
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  file.on('error', (error) => gunzip.destroy(error));
  file.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SourceError(
      message === 'unexpected end of file'
        ? 'The gzip file is truncated (unexpected end of file); nothing was imported.'
        : `The gzip file is damaged (${message}); nothing was imported.`,
    );
  } finally {
    file.destroy();
  }
}

/** Splits text chunks into numbered lines (1-based). A final line without a line break counts. */
export async function* splitLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<SourceLine> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let no = 0;
  let isFirst = true;
  let skipLf = false;
  for await (const chunk of chunks) {
    let text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    if (isFirst && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      isFirst = false;
    }
    let start = 0;
    if (skipLf && text.charCodeAt(0) === 10) start = 1;
    skipLf = false;
    const length = text.length;
    for (let i = start; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10 || code === 13) {
        no += 1;
        yield { no, text: text.slice(start, i) };
        if (code === 13) {
          if (i + 1 < length) {
            if (text.charCodeAt(i + 1) === 10) i += 1;
          } else {
            skipLf = true;
          }
        }
        start = i + 1;
      }
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest.length > 0) {
    no += 1;
    yield { no, text: rest };
  }
}

export function readLines(filePath: string): AsyncGenerator<SourceLine> {
  return splitLines(readChunks(filePath));
}
