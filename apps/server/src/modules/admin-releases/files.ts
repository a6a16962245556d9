/**
 * Release files for staff: short-lived HMAC-signed URLs (keyed from APP_SECRET) for one stored file, and
 * streaming with HTTP Range so the review player can seek without downloading the whole WAV.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { releases, tracks } from '../../db/schema';
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
  // Whatever `expires` says, no link lives longer than it could have been signed for (decision 063):
  // a link forged with a leaked or default secret and an expiry years away is refused.
  if (expires * 1000 > now + SIGNED_URL_TTL_SECONDS * 1000) {
    throw new AppError('invalid_signature', 'This download link is not valid.', 403);
  }
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

// Range streaming moved to lib/file-response.ts so the owner's player (releases module) shares it.
export { fileResponse } from '../../lib/file-response';
