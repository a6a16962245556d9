/**
 * A stored file as an HTTP response with single-range `Range` support (206, `Content-Range`, 416 when
 * unsatisfiable), for the staff review player and the owner's player (decision 063).
 */
import { Readable } from 'node:stream';
import { attachmentDisposition } from './content-disposition';

type ByteRange = { start: number; end: number };

/** Where the file is read from (the storage adapter satisfies it). */
export type FileReader = { get(key: string): Promise<{ body: Readable; sizeBytes: number }> };

/** One `bytes=` range (the only kind players send); null for none, 'invalid' when it cannot be served. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null; // multi-range or another unit: answer with the whole file
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return 'invalid';
  let start: number;
  let end: number;
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(startText);
    end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

/** Passes through bytes [start, end] of a stream (storage has no ranged read, so it skips up to start). */
function sliceStream(source: Readable, range: ByteRange): Readable {
  async function* slice() {
    let position = 0;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        const chunkStart = position;
        position += chunk.length;
        const from = Math.max(range.start - chunkStart, 0);
        const to = Math.min(range.end + 1 - chunkStart, chunk.length);
        if (to > from) yield chunk.subarray(from, to);
        if (position > range.end) break;
      }
    } finally {
      source.destroy();
    }
  }
  return Readable.from(slice());
}

/** A Response for a stored file, honouring Range. */
export async function fileResponse(
  storage: FileReader,
  key: string,
  options: { contentType: string; rangeHeader?: string | undefined; downloadName?: string },
): Promise<Response> {
  const file = await storage.get(key);
  const headers = new Headers({
    'Content-Type': options.contentType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-store',
  });
  if (options.downloadName) {
    headers.set('Content-Disposition', attachmentDisposition(options.downloadName));
  }
  const range = parseRange(options.rangeHeader, file.sizeBytes);
  if (range === 'invalid') {
    file.body.destroy();
    headers.set('Content-Range', `bytes */${file.sizeBytes}`);
    return new Response(null, { status: 416, headers });
  }
  if (!range) {
    headers.set('Content-Length', String(file.sizeBytes));
    return new Response(Readable.toWeb(file.body) as ReadableStream, { status: 200, headers });
  }
  headers.set('Content-Length', String(range.end - range.start + 1));
  headers.set('Content-Range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`);
  return new Response(Readable.toWeb(sliceStream(file.body, range)) as ReadableStream, {
    status: 206,
    headers,
  });
}
