/**
 * Post-release edits (issue 26, record 197): the owner of an approved or live release proposes new details,
 * a new cover or new audio; the proposal waits in `release_updates` (the release row and the stores keep
 * the current version), a moderator approves it (the release takes it, and every target holding the release
 * gets an update resending only what changed) or rejects it with a reason (the proposed files go). Every
 * step is one transaction that re-checks owner, status and the update's state in its WHERE.
 */
import {
  RELEASE_UPDATE_FIELD_LABELS,
  RELEASE_UPDATE_MESSAGES,
  type ReleaseUpdateRequest,
  type ReleaseUpdateView,
  type UpdateScope,
} from '@tunedrop/shared/schemas/release-updates';
import type { EditRelease } from '@tunedrop/shared/schemas/releases';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profiles, releases, tracks, uploads } from '../../db/schema';
// The table's own file (schema.ts re-exports it too).
import {
  type ProposedAudio,
  type ProposedCover,
  type ReleaseUpdateBefore,
  releaseUpdates,
} from '../../db/schema/release-updates';
import type { Deps } from '../../deps';
import { assertNotBanned } from '../../lib/access';
import type { Viewer } from '../../lib/context';
import { AppError, validationError } from '../../lib/errors';
import { recordAudit } from '../audit';
import { removeStagedAudio, trackFileFields, type UploadRow, usableUpload } from '../builder';
import { enqueueReleaseMail, releaseNotFound } from '../catalogue';
import { addEvent, queueReleaseUpdate } from '../delivery';
import {
  consumeUpload,
  copyNewAudio,
  editedReleaseColumns,
  type FileDeps,
  removeStoredFiles,
  syncTrackArtists,
} from '../releases';
import { notifyReleaseUpdateSubmitted } from '../staff-notifications';
import { applyTrackCredits, proposedTrackCredits, trackCreditChanges } from './track-credits';
import { changedFields, detailsOf, toView, updateNotFound } from './views';

type ReleaseRow = typeof releases.$inferSelect;

/** Statuses in which a release is at the stores (or on its way) and changes go through review. */
const UPDATABLE: ReleaseRow['status'][] = ['approved', 'live'];

const inReview = () => new AppError('update_in_review', RELEASE_UPDATE_MESSAGES.inReview, 409);
const notUpdatable = () => new AppError('release_not_updatable', RELEASE_UPDATE_MESSAGES.notUpdatable, 409);
const decided = () => new AppError('update_decided', RELEASE_UPDATE_MESSAGES.decided, 409);

/** The owner's release, locked, still approved or live with no takedown request (else 404 / 409). */
async function lockUpdatable(tx: DbOrTx, accountId: string, releaseId: string): Promise<ReleaseRow> {
  const [row] = await tx
    .select()
    .from(releases)
    .where(and(eq(releases.id, releaseId), eq(releases.userId, accountId)))
    .for('update');
  if (!row) throw releaseNotFound();
  if (!UPDATABLE.includes(row.status)) throw notUpdatable();
  if (row.takedownRequested)
    throw new AppError('takedown_requested', RELEASE_UPDATE_MESSAGES.takedownRequested, 409);
  return row;
}

/**
 * POST /api/releases/:id/update: the owner's change to an approved or live release goes to review. The
 * checked uploads are claimed (a WAV copied into storage under a new key) before the transaction; a
 * refusal after that removes the copies, so a failed request leaves nothing behind. A second update while
 * one is in review is refused (409): the artist waits for the decision.
 */
export async function proposeUpdate(
  deps: FileDeps & Pick<Deps, 'wakeMail'>,
  viewer: Viewer,
  releaseId: string,
  input: ReleaseUpdateRequest,
): Promise<ReleaseUpdateView> {
  assertNotBanned(viewer);
  const accountId = viewer.account.id;
  const current = await lockUpdatable(deps.db, accountId, releaseId);
  const [open] = await deps.db
    .select({ id: releaseUpdates.id })
    .from(releaseUpdates)
    .where(and(eq(releaseUpdates.releaseId, releaseId), eq(releaseUpdates.state, 'in_review')));
  if (open) throw inReview();

  // Details: the whole form, with the plan's locks; kept only when something differs.
  let details: EditRelease | null = null;
  if (input.details) {
    const columns = editedReleaseColumns(viewer, current, input.details);
    const next: EditRelease = { ...input.details, ...pickDetails(columns) };
    if (changedFields(detailsOf(current), next).length > 0) details = next;
  }
  const trackRows = await deps.db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  const credits = await proposedTrackCredits(deps.db, viewer, trackRows, input.tracks);
  const trackIds = new Set(trackRows.map((track) => track.id));
  const seen = new Set<string>();
  for (const item of input.audio) {
    const id = item.trackId.toLowerCase();
    if (!trackIds.has(id) || seen.has(id)) {
      throw validationError(RELEASE_UPDATE_MESSAGES.trackNotOnRelease, {
        audio: RELEASE_UPDATE_MESSAGES.trackNotOnRelease,
      });
    }
    seen.add(id);
  }
  if (!details && !input.coverUploadId && input.audio.length === 0 && credits.proposed.length === 0) {
    throw validationError(RELEASE_UPDATE_MESSAGES.nothingChanged);
  }
  const coverUpload = input.coverUploadId
    ? await usableUpload(deps, accountId, input.coverUploadId, 'cover', 'coverUploadId')
    : null;
  const audioUploads: { trackId: string; upload: UploadRow }[] = [];
  for (const item of input.audio) {
    audioUploads.push({
      trackId: item.trackId.toLowerCase(),
      upload: await usableUpload(deps, accountId, item.uploadId, 'audio', 'audio'),
    });
  }

  const audio: ProposedAudio[] = [];
  try {
    for (const { trackId, upload } of audioUploads) {
      const keysInUse = [...trackRows.map((track) => track.fileKey), ...audio.map((item) => item.fileKey)];
      const fileKey = await copyNewAudio(deps, accountId, releaseId, upload, keysInUse);
      audio.push({ trackId, uploadId: upload.id, ...trackFileFields(upload, fileKey) });
    }
    const cover: ProposedCover | null = coverUpload
      ? {
          uploadId: coverUpload.id,
          artKey: coverUpload.storageKey ?? '',
          thumbSmallKey: coverUpload.thumbSmallKey,
          thumbMediumKey: coverUpload.thumbMediumKey,
          originalName: coverUpload.originalName,
        }
      : null;
    const before: ReleaseUpdateBefore = {
      details: detailsOf(current),
      coverArtKey: current.coverArtKey,
      coverThumbMediumKey: current.coverThumbMediumKey,
      tracks: trackRows.map((track) => ({
        id: track.id,
        title: track.title,
        originalFileName: track.originalFileName,
        ...(credits.before.has(track.id) ? { credits: credits.before.get(track.id) } : {}),
      })),
    };
    const row = await deps.db.transaction(async (tx) => {
      const release = await lockUpdatable(tx, accountId, releaseId);
      const [created] = await tx
        .insert(releaseUpdates)
        .values({ releaseId, userId: accountId, before, details, cover, audio, tracks: credits.proposed })
        .onConflictDoNothing()
        .returning();
      if (!created) throw inReview();
      if (coverUpload) await consumeUpload(tx, accountId, releaseId, coverUpload);
      for (const { upload } of audioUploads) await consumeUpload(tx, accountId, releaseId, upload);
      await addEvent(tx, releaseId, release.status, 'Update sent for review by the artist.');
      // Moderators and admins hear of it like of a submission (record 179), in this transaction.
      await notifyReleaseUpdateSubmitted(tx, releaseId, [
        ...(details
          ? changedFields(before.details, details).map((f) => RELEASE_UPDATE_FIELD_LABELS[f] ?? f)
          : []),
        ...(cover ? ['cover'] : []),
        ...audio.map((item) => {
          const track = trackRows.find((row) => row.id === item.trackId);
          return `audio of track ${track?.position ?? '?'} "${track?.title ?? ''}"`;
        }),
        ...trackCreditChanges(before, credits.proposed).map((change) => change.label),
      ]);
      await recordAudit(tx, viewer, {
        kind: 'release.update_request',
        releaseId,
        subjectUserId: accountId,
        before: { title: release.title, status: release.status },
        after: {
          title: release.title,
          updateId: created.id,
          fields: details ? changedFields(before.details, details) : [],
          cover: cover?.originalName ?? null,
          audio: audio.map((item) => ({ trackId: item.trackId, fileName: item.originalFileName })),
          credits: trackCreditChanges(before, credits.proposed).map((change) => change.label),
        },
      });
      return created;
    });
    await removeStagedAudio(
      deps,
      audioUploads.map((item) => item.upload),
    );
    deps.wakeMail();
    deps.logger.info({ releaseId, updateId: row.id }, 'release update proposed');
    return toView(row, current, viewer.profile.artistName);
  } catch (error) {
    // Nothing of a refused request stays: the WAVs copied for it leave storage again.
    await removeStoredFiles(
      deps.storage,
      deps.logger,
      audio.map((item) => item.fileKey),
    );
    throw error;
  }
}

const pickDetails = (columns: ReturnType<typeof editedReleaseColumns>): Partial<EditRelease> => ({
  title: columns.title,
  primaryArtists: columns.primaryArtists,
  featuredArtists: columns.featuredArtists,
  genre: columns.genre,
  labelName: columns.labelName,
  copyrightHolder: columns.copyrightHolder,
  copyrightYear: columns.copyrightYear,
  publishingHolder: columns.publishingHolder,
});

/** Locks an update still in review and its release (409 once decided). */
async function lockInReview(tx: DbOrTx, updateId: string) {
  const [row] = await tx.select().from(releaseUpdates).where(eq(releaseUpdates.id, updateId)).for('update');
  if (!row) throw updateNotFound();
  if (row.state !== 'in_review') throw decided();
  const [release] = await tx.select().from(releases).where(eq(releases.id, row.releaseId)).for('update');
  if (!release) throw releaseNotFound();
  return { row, release };
}

async function mailOwner(
  tx: DbOrTx,
  deps: Pick<Deps, 'config'>,
  userId: string,
  kind: 'update_approved' | 'update_rejected',
  title: string,
  reason: string | null,
) {
  const [owner] = await tx
    .select({ email: profiles.email, artistName: profiles.artistName })
    .from(profiles)
    .where(eq(profiles.id, userId));
  if (!owner) return;
  await enqueueReleaseMail(tx, kind, {
    to: owner.email,
    artistName: owner.artistName,
    releaseTitle: title,
    appUrl: deps.config.appUrl,
    reason,
  });
}

/**
 * POST /api/admin/release-updates/:id/approve: the release takes the change (details, cover, audio; codes
 * stay), each target holding it gets an update carrying only the changed files, and the artist is mailed,
 * in one transaction. The replaced files leave storage after the commit.
 */
export async function approveUpdate(
  deps: Pick<Deps, 'db' | 'config' | 'storage' | 'logger' | 'wakeMail'>,
  viewer: Viewer,
  updateId: string,
): Promise<ReleaseUpdateView> {
  const { view, oldKeys } = await deps.db.transaction(async (tx) => {
    const { row, release } = await lockInReview(tx, updateId);
    if (!UPDATABLE.includes(release.status))
      throw new AppError('release_not_updatable', RELEASE_UPDATE_MESSAGES.releaseGone, 409);
    const oldKeys: string[] = [];
    const set: Partial<typeof releases.$inferInsert> = { updatedAt: new Date() };
    if (row.details) {
      const columns = {
        ...row.details,
        primaryArtistsData: mergeNames(row.details.primaryArtists, release.primaryArtistsData),
        featuredArtistsData: mergeNames(row.details.featuredArtists, release.featuredArtistsData),
      };
      Object.assign(set, columns);
    }
    if (row.cover) {
      Object.assign(set, {
        coverArtKey: row.cover.artKey,
        coverThumbSmallKey: row.cover.thumbSmallKey,
        coverThumbMediumKey: row.cover.thumbMediumKey,
      });
      oldKeys.push(
        ...[release.coverArtKey, release.coverThumbSmallKey, release.coverThumbMediumKey].filter(
          (key): key is string => Boolean(key),
        ),
      );
      await dropUploadRows(tx, release.id, release.coverArtKey ? [release.coverArtKey] : []);
    }
    const [after] = await tx
      .update(releases)
      .set(set)
      .where(and(eq(releases.id, release.id), inArray(releases.status, UPDATABLE)))
      .returning();
    if (!after) throw new AppError('release_not_updatable', RELEASE_UPDATE_MESSAGES.releaseGone, 409);
    if (row.details) {
      await syncTrackArtists(tx, release.id, release, {
        primary: after.primaryArtistsData,
        featured: after.featuredArtistsData,
      });
    }
    for (const item of row.audio) {
      const [track] = await tx
        .select({ fileKey: tracks.fileKey })
        .from(tracks)
        .where(and(eq(tracks.id, item.trackId), eq(tracks.releaseId, release.id)))
        .for('update');
      // A track removed since (only possible before approval) has nothing to replace.
      if (!track) continue;
      const { trackId: _trackId, uploadId: _uploadId, ...fields } = item;
      // The recording stays the same one: its ISRC is kept (record 197).
      await tx.update(tracks).set(fields).where(eq(tracks.id, item.trackId));
      if (track.fileKey !== item.fileKey) oldKeys.push(track.fileKey);
      await dropUploadRows(tx, release.id, [track.fileKey]);
    }
    await applyTrackCredits(tx, release.id, row.tracks);
    const [decidedRow] = await tx
      .update(releaseUpdates)
      .set({ state: 'approved', decidedBy: viewer.user.id, decidedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(releaseUpdates.id, row.id), eq(releaseUpdates.state, 'in_review')))
      .returning();
    if (!decidedRow) throw decided();
    const scope: UpdateScope = { cover: row.cover !== null, audioTrackIds: row.audio.map((a) => a.trackId) };
    const queued = await queueReleaseUpdate(tx, release.id, undefined, scope);
    await addEvent(
      tx,
      release.id,
      after.status,
      queued > 0 ? 'Update approved: sent to every store that has the release.' : 'Update approved.',
    );
    await recordAudit(tx, viewer, {
      kind: 'release.update_approve',
      releaseId: release.id,
      subjectUserId: release.userId,
      before: { title: release.title, updateId: row.id, state: 'in_review' },
      after: { title: after.title, updateId: row.id, state: 'approved', deliveries: queued, scope },
    });
    await mailOwner(tx, deps, release.userId, 'update_approved', after.title, null);
    const [artist] = await tx
      .select({ artistName: profiles.artistName })
      .from(profiles)
      .where(eq(profiles.id, release.userId));
    return { view: toView(decidedRow, after, artist?.artistName ?? ''), oldKeys };
  });
  deps.wakeMail();
  await removeStoredFiles(deps.storage, deps.logger, oldKeys);
  return view;
}

/** Keeps the links stored for names that stay; new names get a bare credit (as Edit Release does). */
function mergeNames(names: string[], existing: ReleaseRow['primaryArtistsData']) {
  return names.map(
    (name) => existing.find((credit) => credit.name.toLowerCase() === name.toLowerCase()) ?? { name },
  );
}

/** The upload records of files that leave the release (their files are removed after the commit). */
async function dropUploadRows(tx: DbOrTx, releaseId: string, keys: string[]) {
  if (keys.length === 0) return;
  await tx.delete(uploads).where(and(eq(uploads.releaseId, releaseId), inArray(uploads.storageKey, keys)));
}

/**
 * POST /api/admin/release-updates/:id/reject: the release and the stores stay as they are, the proposed
 * files go, the artist is mailed the reason, in one transaction (files removed after the commit).
 */
export async function rejectUpdate(
  deps: Pick<Deps, 'db' | 'config' | 'storage' | 'logger' | 'wakeMail'>,
  viewer: Viewer,
  updateId: string,
  reason: string,
): Promise<ReleaseUpdateView> {
  const { view, proposedKeys } = await deps.db.transaction(async (tx) => {
    const { row, release } = await lockInReview(tx, updateId);
    const [decidedRow] = await tx
      .update(releaseUpdates)
      .set({
        state: 'rejected',
        rejectionReason: reason,
        decidedBy: viewer.user.id,
        decidedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(releaseUpdates.id, row.id), eq(releaseUpdates.state, 'in_review')))
      .returning();
    if (!decidedRow) throw decided();
    const proposedKeys = [
      ...(row.cover ? [row.cover.artKey, row.cover.thumbSmallKey, row.cover.thumbMediumKey] : []),
      ...row.audio.map((item) => item.fileKey),
    ].filter((key): key is string => Boolean(key));
    const uploadIds = [...(row.cover ? [row.cover.uploadId] : []), ...row.audio.map((item) => item.uploadId)];
    if (uploadIds.length > 0) await tx.delete(uploads).where(inArray(uploads.id, uploadIds));
    await addEvent(tx, release.id, release.status, `Update rejected: ${reason}`);
    await recordAudit(tx, viewer, {
      kind: 'release.update_reject',
      releaseId: release.id,
      subjectUserId: release.userId,
      before: { title: release.title, updateId: row.id, state: 'in_review' },
      after: { title: release.title, updateId: row.id, state: 'rejected', reason },
    });
    await mailOwner(tx, deps, release.userId, 'update_rejected', release.title, reason);
    const [artist] = await tx
      .select({ artistName: profiles.artistName })
      .from(profiles)
      .where(eq(profiles.id, release.userId));
    return { view: toView(decidedRow, release, artist?.artistName ?? ''), proposedKeys };
  });
  deps.wakeMail();
  await removeStoredFiles(deps.storage, deps.logger, proposedKeys);
  return view;
}
