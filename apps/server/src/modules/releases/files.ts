/**
 * Replacing a release's files after submission (issue 18, record 121): the cover art and any track's WAV
 * of a pending, processing or rejected release (adding and removing a track is in track-changes.ts). The
 * new file comes through the builder's tus uploads and passes the builder's own checks (builder/files.ts);
 * the release takes it in one transaction whose UPDATE re-checks owner and status, and the old file leaves
 * storage only after that commit (never lose a file).
 */
import { isReleaseEditable, OWNER_CHANGEABLE_STATUSES } from '@tunedrop/shared/schemas/releases';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { releases, tracks, uploads } from '../../db/schema';
import type { Deps } from '../../deps';
import { assertNotBanned } from '../../lib/access';
import type { Viewer } from '../../lib/context';
import { AppError, conflict, notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import {
  copyAudioIntoStorage,
  FileClaimedElsewhere,
  removeStagedAudio,
  trackFileFields,
  type UploadRow,
  usableUpload,
} from '../builder';
import { coverUrl, releaseNotFound } from '../catalogue';
import { notEditable, removeStoredFiles } from './service';

export type FileDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>;

export const trackNotFound = () => notFound('Track not found.');

const uploadTaken = () =>
  conflict('This file was used by another release in the meantime. Please upload it again.');

/** The owner's release (404 for anyone else's), refused with 409 unless its status lets the owner change it. */
export async function changeableRelease(deps: FileDeps, viewer: Viewer, releaseId: string) {
  const [row] = await deps.db
    .select()
    .from(releases)
    .where(and(eq(releases.id, releaseId), eq(releases.userId, viewer.account.id)))
    .limit(1);
  if (!row) throw releaseNotFound();
  if (!isReleaseEditable(row.status)) throw notEditable();
  return row;
}

/**
 * Copies a checked WAV into storage under a key no current track uses (the old file stays whole until the
 * change commits) and returns that key; a file claimed by another release is a 409.
 */
export async function copyNewAudio(
  deps: FileDeps,
  userId: string,
  releaseId: string,
  upload: Parameters<typeof copyAudioIntoStorage>[3][number],
  keysInUse: string[],
): Promise<string> {
  try {
    const keys = await copyAudioIntoStorage(deps, userId, releaseId, [upload], keysInUse);
    const key = keys.get(upload.id);
    // copyAudioIntoStorage answers a key for every upload it was given, or throws.
    if (key === undefined) throw new Error(`no storage key for upload ${upload.id}`);
    return key;
  } catch (error) {
    throw claimedElsewhere(error);
  }
}

/** Locks the release and touches it, still the owner's and still changeable; else 409 (a moderator won). */
export async function lockChangeable(tx: DbOrTx, viewer: Viewer, releaseId: string, values = {}) {
  const [row] = await tx
    .update(releases)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(releases.id, releaseId),
        eq(releases.userId, viewer.account.id),
        inArray(releases.status, [...OWNER_CHANGEABLE_STATUSES]),
      ),
    )
    .returning();
  if (!row) throw notEditable();
  return row;
}

/** Marks the new upload as the release's; refuses when another submission consumed it in between. */
export async function consumeUpload(tx: DbOrTx, userId: string, releaseId: string, upload: UploadRow) {
  const consumed = await tx
    .update(uploads)
    .set({ status: 'consumed', releaseId, updatedAt: new Date() })
    .where(and(eq(uploads.id, upload.id), eq(uploads.userId, userId), eq(uploads.status, 'checked')))
    .returning({ id: uploads.id });
  if (consumed.length === 0) throw uploadTaken();
}

/** The upload record of the file being replaced goes with it (its files are removed after the commit). */
async function dropReplacedUpload(tx: DbOrTx, releaseId: string, oldKey: string | null, newId: string) {
  if (!oldKey) return;
  await tx
    .delete(uploads)
    .where(and(eq(uploads.releaseId, releaseId), eq(uploads.storageKey, oldKey), ne(uploads.id, newId)));
}

/** A file another submission claimed is a 409 the user can act on; anything else stays as it was. */
function claimedElsewhere(error: unknown): unknown {
  if (!(error instanceof FileClaimedElsewhere)) return error;
  return new AppError(
    'submission_in_progress',
    'This file is being submitted in another release. Please wait a moment and try again.',
    409,
  );
}

export type ReplacedCover = { coverUrl: string; originalName: string };

/**
 * PUT /api/releases/:id/cover: the release takes a checked cover upload (JPEG or PNG, 3000x3000 by
 * content, thumbnails made when it was checked, as in the builder); the old original and thumbnails are
 * removed after the commit.
 */
export async function replaceCover(
  deps: FileDeps,
  viewer: Viewer,
  releaseId: string,
  uploadId: string,
): Promise<ReplacedCover> {
  assertNotBanned(viewer);
  const userId = viewer.account.id;
  await changeableRelease(deps, viewer, releaseId);
  const upload = await usableUpload(deps, userId, uploadId, 'cover');
  const before = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        title: releases.title,
        coverArtKey: releases.coverArtKey,
        coverThumbSmallKey: releases.coverThumbSmallKey,
        coverThumbMediumKey: releases.coverThumbMediumKey,
      })
      .from(releases)
      .where(and(eq(releases.id, releaseId), eq(releases.userId, userId)))
      .for('update');
    if (!current) throw releaseNotFound();
    await lockChangeable(tx, viewer, releaseId, {
      coverArtKey: upload.storageKey,
      coverThumbSmallKey: upload.thumbSmallKey,
      coverThumbMediumKey: upload.thumbMediumKey,
    });
    await consumeUpload(tx, userId, releaseId, upload);
    await dropReplacedUpload(tx, releaseId, current.coverArtKey, upload.id);
    await recordAudit(tx, viewer, {
      kind: 'release.replace_cover',
      releaseId,
      subjectUserId: userId,
      before: { title: current.title, coverArtKey: current.coverArtKey },
      after: { title: current.title, coverArtKey: upload.storageKey, originalName: upload.originalName },
    });
    return current;
  });
  const kept = new Set([upload.storageKey, upload.thumbSmallKey, upload.thumbMediumKey]);
  const oldKeys = [before.coverArtKey, before.coverThumbSmallKey, before.coverThumbMediumKey].filter(
    (key): key is string => Boolean(key) && !kept.has(key),
  );
  await removeStoredFiles(deps.storage, deps.logger, oldKeys);
  deps.logger.info({ releaseId, userId, uploadId }, 'release cover replaced');
  return {
    coverUrl: coverUrl(releaseId, 'medium', upload.thumbMediumKey),
    originalName: upload.originalName,
  };
}

export type ReplacedAudio = {
  trackId: string;
  originalFileName: string;
  durationMs: number | null;
  fileSizeBytes: number;
};

/**
 * PUT /api/releases/:id/tracks/:trackId/audio: the track takes a checked WAV upload (the builder's header
 * checks ran when it arrived). The WAV is copied into storage under the release as the submission does
 * (claim, copy, verify; never over the current file's key), the track row takes its key, name, size,
 * duration and format in the transaction, and the old WAV is removed after the commit.
 */
export async function replaceTrackAudio(
  deps: FileDeps,
  viewer: Viewer,
  releaseId: string,
  trackId: string,
  uploadId: string,
): Promise<ReplacedAudio> {
  assertNotBanned(viewer);
  const userId = viewer.account.id;
  await changeableRelease(deps, viewer, releaseId);
  const trackRows = await deps.db
    .select({ id: tracks.id, fileKey: tracks.fileKey })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId));
  if (!trackRows.some((track) => track.id === trackId)) throw trackNotFound();
  const upload = await usableUpload(deps, userId, uploadId, 'audio');

  const fileKey = await copyNewAudio(
    deps,
    userId,
    releaseId,
    upload,
    trackRows.map((track) => track.fileKey),
  );
  const fields = trackFileFields(upload, fileKey);

  const before = await deps.db.transaction(async (tx) => {
    await lockChangeable(tx, viewer, releaseId);
    const [current] = await tx
      .select()
      .from(tracks)
      .where(and(eq(tracks.id, trackId), eq(tracks.releaseId, releaseId)))
      .for('update');
    if (!current) throw trackNotFound();
    await tx.update(tracks).set(fields).where(eq(tracks.id, trackId));
    await consumeUpload(tx, userId, releaseId, upload);
    await dropReplacedUpload(tx, releaseId, current.fileKey, upload.id);
    await recordAudit(tx, viewer, {
      kind: 'release.replace_audio',
      releaseId,
      subjectUserId: userId,
      before: {
        trackId,
        title: current.title,
        fileKey: current.fileKey,
        originalFileName: current.originalFileName,
        durationMs: current.durationMs,
      },
      after: {
        trackId,
        title: current.title,
        fileKey,
        originalFileName: fields.originalFileName,
        durationMs: fields.durationMs,
      },
    });
    return current;
  });
  await removeStagedAudio(deps, [upload]);
  if (before.fileKey !== fileKey) await removeStoredFiles(deps.storage, deps.logger, [before.fileKey]);
  deps.logger.info({ releaseId, userId, trackId, uploadId }, 'track audio replaced');
  return {
    trackId,
    originalFileName: fields.originalFileName,
    durationMs: fields.durationMs,
    fileSizeBytes: fields.fileSizeBytes,
  };
}
