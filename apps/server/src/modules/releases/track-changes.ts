/**
 * Adding and removing a track after submission (issue 18, record 121): a new track with its checked WAV,
 * or a track removed, on a pending, processing or rejected release; the count, titles and the plan's
 * artist rule checked as the builder checks them, the release's artist lists recomputed from its tracks.
 */
import { hasProFeatures, LIMITS } from '@tunedrop/shared';
import { BUILDER_MESSAGES, uniqueArtistsByName } from '@tunedrop/shared/schemas/builder';
import { type AddTrack, type EditableTrack, RELEASE_MESSAGES } from '@tunedrop/shared/schemas/releases';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { producers, releases, songwriters, tracks, uploads } from '../../db/schema';
import { assertNotBanned } from '../../lib/access';
import type { Viewer } from '../../lib/context';
import { validationError } from '../../lib/errors';
import { recordAudit } from '../audit';
import { removeStagedAudio, trackFileFields, usableUpload } from '../builder';
import { insertTracks } from '../catalogue';
import {
  changeableRelease,
  consumeUpload,
  copyNewAudio,
  type FileDeps,
  lockChangeable,
  trackNotFound,
} from './files';
import { removeStoredFiles } from './service';

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
  const userId = viewer.account.id;
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
    const [id] = await insertTracks(tx, releaseId, [
      {
        position,
        title: input.title,
        explicit: input.explicit,
        file: fields,
        primaryArtists: input.primaryArtists,
        featuredArtists: input.featuredArtists,
        songwriters: input.songwriters,
        producers: input.producers,
        aiDisclosure: input.aiDisclosure,
      },
    ]);
    if (!id) throw new Error('track insert returned nothing');
    await consumeUpload(tx, userId, releaseId, upload);
    await recomputeReleaseArtists(tx, releaseId);
    await recordAudit(tx, viewer, {
      kind: 'release.add_track',
      releaseId,
      subjectUserId: userId,
      before: { trackCount: current.length },
      after: {
        trackCount: current.length + 1,
        trackId: id,
        title: input.title,
        position,
        fileKey: fields.fileKey,
        originalFileName: fields.originalFileName,
      },
    });
    return id;
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
  const userId = viewer.account.id;
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
    await recordAudit(tx, viewer, {
      kind: 'release.remove_track',
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
