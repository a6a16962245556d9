/**
 * Replacing a release's files after submission (issue 18, record 121): the cover art and any track's WAV
 * of a pending, processing or rejected release, and adding or removing a track (with its WAV). The new file comes through the builder's tus uploads and
 * passes the builder's own checks (builder/files.ts); the release takes it in one transaction whose UPDATE
 * re-checks owner and status, and the old file leaves storage only after that commit (never lose a file).
 */
import { hasProFeatures, LIMITS } from '@tunedrop/shared';
import { BUILDER_MESSAGES, uniqueArtistsByName } from '@tunedrop/shared/schemas/builder';
import {
  type AddTrack,
  type EditableTrack,
  OWNER_CHANGEABLE_STATUSES,
  RELEASE_MESSAGES,
} from '@tunedrop/shared/schemas/releases';
import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog, producers, releases, songwriters, tracks, uploads } from '../../db/schema';
import type { Deps } from '../../deps';
import { assertNotBanned } from '../../lib/access';
import type { Viewer } from '../../lib/context';
import { AppError, conflict, notFound, validationError } from '../../lib/errors';
import {
  copyAudioIntoStorage,
  FileClaimedElsewhere,
  removeStagedAudio,
  trackFileFields,
  type UploadRow,
  usableUpload,
} from '../builder/files';
import { coverUrl, notEditable, releaseNotFound, removeStoredFiles } from './service';

type FileDeps = Pick<Deps, 'db' | 'config' | 'storage' | 'logger'>;

export const trackNotFound = () => notFound('Track not found.');

const uploadTaken = () =>
  conflict('This file was used by another release in the meantime. Please upload it again.');

/** The owner's release (404 for anyone else's), refused with 409 unless its status lets the owner change it. */
async function changeableRelease(deps: FileDeps, viewer: Viewer, releaseId: string) {
  const [row] = await deps.db
    .select()
    .from(releases)
    .where(and(eq(releases.id, releaseId), eq(releases.userId, viewer.user.id)))
    .limit(1);
  if (!row) throw releaseNotFound();
  if (!(OWNER_CHANGEABLE_STATUSES as readonly string[]).includes(row.status)) throw notEditable();
  return row;
}

/**
 * Copies a checked WAV into storage under a key no current track uses (the old file stays whole until the
 * change commits) and returns that key; a file claimed by another release is a 409.
 */
async function copyNewAudio(
  deps: FileDeps,
  userId: string,
  releaseId: string,
  upload: Parameters<typeof copyAudioIntoStorage>[3][number],
  keysInUse: string[],
): Promise<string> {
  try {
    const keys = await copyAudioIntoStorage(deps, userId, releaseId, [upload], keysInUse);
    return keys.get(upload.id) as string;
  } catch (error) {
    throw claimedElsewhere(error);
  }
}

/** Locks the release and touches it, still the owner's and still changeable; else 409 (a moderator won). */
async function lockChangeable(tx: DbOrTx, viewer: Viewer, releaseId: string, values = {}) {
  const [row] = await tx
    .update(releases)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(releases.id, releaseId),
        eq(releases.userId, viewer.user.id),
        inArray(releases.status, [...OWNER_CHANGEABLE_STATUSES]),
      ),
    )
    .returning({ id: releases.id });
  if (!row) throw notEditable();
}

/** Marks the new upload as the release's; refuses when another submission consumed it in between. */
async function consumeUpload(tx: DbOrTx, userId: string, releaseId: string, upload: UploadRow) {
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
  const userId = viewer.user.id;
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
    await tx.insert(auditLog).values({
      actorId: userId,
      actorEmail: viewer.user.email,
      action: 'release.replace_cover',
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
  const userId = viewer.user.id;
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
    await tx.insert(auditLog).values({
      actorId: userId,
      actorEmail: viewer.user.email,
      action: 'release.replace_audio',
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

// ------------------------------------------------------------------ adding and removing tracks

const titleKey = (title: string) => title.trim().toLowerCase();

/** The builder's plan rule on the release's distinct primary artists (Basic: one; Pro: up to 999). */
function checkPrimaryArtists(viewer: Viewer, names: { name: string }[]) {
  const distinct = uniqueArtistsByName(names);
  if (!hasProFeatures(viewer.profile.plan, viewer.roles)) {
    if (distinct.length > LIMITS.primaryArtistsPerReleaseBasic) {
      throw validationError(RELEASE_MESSAGES.basicOnePrimaryArtist, {
        primaryArtists: RELEASE_MESSAGES.basicOnePrimaryArtist,
      });
    }
  } else if (distinct.length > LIMITS.primaryArtistsPerReleasePro) {
    throw validationError(BUILDER_MESSAGES.maxPrimaryArtistsPerRelease, {
      primaryArtists: BUILDER_MESSAGES.maxPrimaryArtistsPerRelease,
    });
  }
}

/** Count (1 to 20) and unique titles, as the builder checks them, against the release's current tracks. */
function checkTrackList(existing: { title: string }[], title: string) {
  if (existing.length >= LIMITS.tracksMax) {
    throw validationError(BUILDER_MESSAGES.tooManyTracks, { tracks: BUILDER_MESSAGES.tooManyTracks });
  }
  if (existing.some((track) => titleKey(track.title) === titleKey(title))) {
    throw validationError(BUILDER_MESSAGES.trackTitlesUnique, { title: BUILDER_MESSAGES.trackTitlesUnique });
  }
}

/** The release's artist lists are the union of its tracks' credits, in track order (as the builder makes them). */
async function recomputeReleaseArtists(tx: DbOrTx, releaseId: string): Promise<void> {
  const rows = await tx
    .select({ primary: tracks.primaryArtistsData, featured: tracks.featuredArtistsData })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  const allPrimary = uniqueArtistsByName(rows.flatMap((row) => row.primary));
  const allFeatured = uniqueArtistsByName(rows.flatMap((row) => row.featured));
  await tx
    .update(releases)
    .set({
      primaryArtists: allPrimary.map((artist) => artist.name),
      featuredArtists: allFeatured.map((artist) => artist.name),
      primaryArtistsData: allPrimary,
      featuredArtistsData: allFeatured,
    })
    .where(eq(releases.id, releaseId));
}

/**
 * POST /api/releases/:id/tracks: one more track at the end of a changeable release, with the builder's
 * per-track rules (schema), its count (1 to 20), unique titles and plan rule on primary artists, and a
 * checked WAV upload copied into storage as the submission does. Answers the new track as Edit Release
 * shows it.
 */
export async function addTrack(
  deps: FileDeps,
  viewer: Viewer,
  releaseId: string,
  input: AddTrack,
): Promise<EditableTrack> {
  assertNotBanned(viewer);
  const userId = viewer.user.id;
  await changeableRelease(deps, viewer, releaseId);
  const existing = await deps.db
    .select({ title: tracks.title, fileKey: tracks.fileKey, primary: tracks.primaryArtistsData })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId));
  checkTrackList(existing, input.title);
  checkPrimaryArtists(viewer, [...existing.flatMap((track) => track.primary), ...input.primaryArtists]);
  const upload = await usableUpload(deps, userId, input.audioUploadId, 'audio', 'audioUploadId');
  const fields = trackFileFields(
    upload,
    await copyNewAudio(
      deps,
      userId,
      releaseId,
      upload,
      existing.map((track) => track.fileKey),
    ),
  );

  const trackId = await deps.db.transaction(async (tx) => {
    await lockChangeable(tx, viewer, releaseId);
    // Again under the release's row lock: a concurrent add may have taken the last place or the title.
    const current = await tx
      .select({ title: tracks.title, position: tracks.position, primary: tracks.primaryArtistsData })
      .from(tracks)
      .where(eq(tracks.releaseId, releaseId));
    checkTrackList(current, input.title);
    checkPrimaryArtists(viewer, [...current.flatMap((track) => track.primary), ...input.primaryArtists]);
    const position = Math.max(0, ...current.map((track) => track.position)) + 1;
    const [row] = await tx
      .insert(tracks)
      .values({
        releaseId,
        position,
        title: input.title,
        explicit: input.explicit,
        ...fields,
        primaryArtistsData: input.primaryArtists,
        featuredArtistsData: input.featuredArtists,
      })
      .returning({ id: tracks.id });
    if (!row) throw new Error('track insert returned nothing');
    await tx.insert(songwriters).values(
      input.songwriters.map((writer) => ({
        trackId: row.id,
        firstName: writer.firstName,
        middleName: writer.middleName ?? null,
        lastName: writer.lastName,
        role: writer.role,
      })),
    );
    await tx.insert(producers).values(
      input.producers.map((producer) => ({
        trackId: row.id,
        firstName: producer.firstName,
        middleName: producer.middleName ?? null,
        lastName: producer.lastName,
      })),
    );
    await consumeUpload(tx, userId, releaseId, upload);
    await recomputeReleaseArtists(tx, releaseId);
    await tx.insert(auditLog).values({
      actorId: userId,
      actorEmail: viewer.user.email,
      action: 'release.add_track',
      releaseId,
      subjectUserId: userId,
      before: { trackCount: current.length },
      after: {
        trackCount: current.length + 1,
        trackId: row.id,
        title: input.title,
        position,
        fileKey: fields.fileKey,
        originalFileName: fields.originalFileName,
      },
    });
    return row.id;
  });
  await removeStagedAudio(deps, [upload]);
  deps.logger.info({ releaseId, userId, trackId, uploadId: upload.id }, 'track added');
  return {
    id: trackId,
    title: input.title,
    explicit: input.explicit,
    fileName: fields.originalFileName,
    durationMs: fields.durationMs,
    primaryArtists: input.primaryArtists,
    featuredArtists: input.featuredArtists,
    songwriters: input.songwriters.map((writer) => ({
      firstName: writer.firstName,
      middleName: writer.middleName ?? null,
      lastName: writer.lastName,
      role: writer.role,
    })),
    producers: input.producers.map((producer) => ({
      firstName: producer.firstName,
      middleName: producer.middleName ?? null,
      lastName: producer.lastName,
    })),
  };
}

/**
 * DELETE /api/releases/:id/tracks/:trackId: removes a track (never the last one: a release has 1 to 20
 * tracks) with its credits; the tracks after it move up, the release's artists are recomputed from the
 * tracks left, and the WAV leaves storage after the commit.
 */
export async function removeTrack(
  deps: FileDeps,
  viewer: Viewer,
  releaseId: string,
  trackId: string,
): Promise<void> {
  assertNotBanned(viewer);
  const userId = viewer.user.id;
  await changeableRelease(deps, viewer, releaseId);
  const removed = await deps.db.transaction(async (tx) => {
    await lockChangeable(tx, viewer, releaseId);
    const rows = await tx.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    const target = rows.find((track) => track.id === trackId);
    if (!target) throw trackNotFound();
    if (rows.length <= LIMITS.tracksMin) {
      throw validationError(BUILDER_MESSAGES.tooManyTracks, { tracks: BUILDER_MESSAGES.tooManyTracks });
    }
    await tx.delete(songwriters).where(eq(songwriters.trackId, trackId));
    await tx.delete(producers).where(eq(producers.trackId, trackId));
    await tx.delete(tracks).where(and(eq(tracks.id, trackId), eq(tracks.releaseId, releaseId)));
    await tx
      .update(tracks)
      .set({ position: sql`${tracks.position} - 1` })
      .where(and(eq(tracks.releaseId, releaseId), gt(tracks.position, target.position)));
    await tx
      .delete(uploads)
      .where(and(eq(uploads.releaseId, releaseId), eq(uploads.storageKey, target.fileKey)));
    await recomputeReleaseArtists(tx, releaseId);
    await tx.insert(auditLog).values({
      actorId: userId,
      actorEmail: viewer.user.email,
      action: 'release.remove_track',
      releaseId,
      subjectUserId: userId,
      before: {
        trackCount: rows.length,
        trackId,
        title: target.title,
        position: target.position,
        fileKey: target.fileKey,
        originalFileName: target.originalFileName,
      },
      after: { trackCount: rows.length - 1 },
    });
    return target;
  });
  await removeStoredFiles(deps.storage, deps.logger, [removed.fileKey]);
  deps.logger.info({ releaseId, userId, trackId }, 'track removed');
}
