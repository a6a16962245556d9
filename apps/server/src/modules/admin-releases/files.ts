/**
 * Release files for staff: short-lived HMAC-signed URLs (keyed from APP_SECRET) for one stored file, and
 * streaming with HTTP Range so the review player can seek without downloading the whole WAV.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { releases, tracks } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { AppError, notFound } from '../../lib/errors';

export const SIGNED_URL_TTL_SECONDS = 300;
export type FileBucket = 'audio-files' | 'cover-art';

function signingKey(appSecret: string): Buffer {
  // A key of its own, so a signature can never double as any other use of APP_SECRET.
  return createHmac('sha256', appSecret).update('tunedrop:admin-signed-url:v1').digest();
}

function signature(appSecret: string, bucket: string, path: string, expires: number): string {
  return createHmac('sha256', signingKey(appSecret))
    .update(`${bucket}\n${path}\n${expires}`)
    .digest('base64url');
}

export function signFileUrl(
  config: { appUrl: string; appSecret: string },
  bucket: FileBucket,
  path: string,
  now = Date.now(),
): { signedUrl: string; expiresAt: string } {
  const expires = Math.floor(now / 1000) + SIGNED_URL_TTL_SECONDS;
  const params = new URLSearchParams({
    bucket,
    path,
    expires: String(expires),
    signature: signature(config.appSecret, bucket, path, expires),
  });
  return {
    signedUrl: `${config.appUrl}/api/admin/signed-files?${params.toString()}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

export function verifyFileSignature(
  appSecret: string,
  input: { bucket: string; path: string; expires: string; signature: string },
  now = Date.now(),
): void {
  const expires = Number(input.expires);
  const expected = Buffer.from(signature(appSecret, input.bucket, input.path, expires));
  const given = Buffer.from(input.signature);
  const isValid =
    Number.isInteger(expires) && given.length === expected.length && timingSafeEqual(given, expected);
  if (!isValid) throw new AppError('invalid_signature', 'This download link is not valid.', 403);
  if (expires * 1000 < now) throw new AppError('link_expired', 'This download link has expired.', 403);
}

/** The file a signed URL may name: only a stored path that belongs to a release (a track or its cover). */
export async function releaseFileByPath(
  db: DbOrTx,
  bucket: FileBucket,
  path: string,
): Promise<{ key: string; downloadName: string; contentType: string }> {
  if (bucket === 'audio-files') {
    const [track] = await db
      .select({ key: tracks.fileKey, name: tracks.originalFileName })
      .from(tracks)
      .where(eq(tracks.fileKey, path))
      .limit(1);
    if (!track) throw notFound('File not found');
    return { key: track.key, downloadName: track.name, contentType: 'audio/wav' };
  }
  const [release] = await db
    .select({ key: releases.coverArtKey })
    .from(releases)
    .where(eq(releases.coverArtKey, path))
    .limit(1);
  if (!release?.key) throw notFound('File not found');
  const extension = release.key.split('.').pop()?.toLowerCase() ?? 'jpg';
  return {
    key: release.key,
    downloadName: `cover.${extension}`,
    contentType: extension === 'png' ? 'image/png' : 'image/jpeg',
  };
}

type ByteRange = { start: number; end: number };

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
  storage: Storage,
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
    const ascii = options.downloadName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    headers.set(
      'Content-Disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(options.downloadName)}`,
    );
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
