/**
 * The artist's own releases (spec 02 §2, §4): list, load for editing, edit, delete, takedown request.
 * Only the owner sees a release (anyone else gets 404); every state rule sits in the UPDATE/DELETE's WHERE.
 */
import { hasProFeatures, type ReleaseStatus } from '@tunedrop/shared';
import {
  EDITABLE_STATUSES,
  type EditRelease,
  isReleaseEditable,
  type MySongItem,
  type MySongsPage,
  RELEASE_MESSAGES,
  type ReleaseForEdit,
  TAKEDOWN_STATUSES,
} from '@tunedrop/shared/schemas/releases';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type ArtistCredit, producers, releases, songwriters, tracks, uploads } from '../../db/schema';
import type { Deps } from '../../deps';
import type { Storage } from '../../infra/storage/storage';
import type { Viewer } from '../../lib/context';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { AppError, notFound, validationError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';

export const notEditable = () => new AppError('release_not_editable', RELEASE_MESSAGES.cannotEdit, 409);
export const releaseNotFound = () => notFound(RELEASE_MESSAGES.notFound);

export const coverUrl = (releaseId: string, size: 'small' | 'medium') =>
  `/api/releases/${releaseId}/cover/${size}`;

// ------------------------------------------------------------------ list

/** The owner's releases, newest first, `limit` at a time; the cursor is the last row's (created_at, id). */
export async function listMyReleases(
  db: DbOrTx,
  userId: string,
  options: { cursor?: string | undefined; limit: number },
): Promise<MySongsPage> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  const rows = await db
    .select({
      id: releases.id,
      title: releases.title,
      primaryArtists: releases.primaryArtists,
      status: releases.status,
      takedownRequested: releases.takedownRequested,
      rejectionReason: releases.rejectionReason,
      hasCover: sql<boolean>`${releases.coverThumbSmallKey} is not null`,
      // The database's own text form keeps microseconds, so the cursor compares exactly.
      createdAtText: sql<string>`${releases.createdAt}::text`,
      trackCount: sql<number>`(select count(*)::int from ${tracks} where ${tracks}.release_id = ${releases}.id)`,
    })
    .from(releases)
    .where(
      and(
        eq(releases.userId, userId),
        cursor
          ? sql`(${releases.createdAt}, ${releases.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const items: MySongItem[] = page.map((row) => ({
    id: row.id,
    title: row.title,
    primaryArtists: row.primaryArtists,
    trackCount: Number(row.trackCount),
    status: row.status as ReleaseStatus,
    isTakedownPending: row.takedownRequested,
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
    coverUrl: row.hasCover ? coverUrl(row.id, 'small') : null,
  }));
  return {
    items,
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor({ createdAt: last.createdAtText, id: last.id })
        : null,
  };
}

// ------------------------------------------------------------------ one release

async function findOwned(db: DbOrTx, userId: string, releaseId: string) {
  const [row] = await db
    .select()
    .from(releases)
    .where(and(eq(releases.id, releaseId), eq(releases.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function getReleaseForEdit(
  db: DbOrTx,
  userId: string,
  releaseId: string,
): Promise<ReleaseForEdit> {
  const row = await findOwned(db, userId, releaseId);
  if (!row) throw releaseNotFound();
  return toReleaseForEdit(row);
}

function toReleaseForEdit(row: typeof releases.$inferSelect): ReleaseForEdit {
  return {
    id: row.id,
    title: row.title,
    primaryArtists: row.primaryArtists,
    featuredArtists: row.featuredArtists,
    genre: row.genre,
    labelName: row.labelName,
    copyrightHolder: row.copyrightHolder,
    copyrightYear: row.copyrightYear,
    publishingHolder: row.publishingHolder,
    status: row.status as ReleaseStatus,
    isEditable: isReleaseEditable(row.status),
  };
}

/** Keeps the links already stored for names that stay; new names get a bare credit. */
function mergeCredits(names: string[], existing: ArtistCredit[]): ArtistCredit[] {
  return names.map(
    (name) => existing.find((credit) => credit.name.toLowerCase() === name.toLowerCase()) ?? { name },
  );
}

/**
 * Edits the release while it is pending or processing. Plan rules (spec 02 §1): without Pro features
 * there is one primary artist, the label cannot be set and both holders are the artist name, the
 * copyright year stays as submitted.
 */
export async function updateMyRelease(
  db: DbOrTx,
  viewer: Viewer,
  releaseId: string,
  input: EditRelease,
): Promise<ReleaseForEdit> {
  const current = await findOwned(db, viewer.user.id, releaseId);
  if (!current) throw releaseNotFound();
  if (!isReleaseEditable(current.status)) throw notEditable();
  const isPro = hasProFeatures(viewer.profile.plan, viewer.roles);
  if (!isPro && input.primaryArtists.length > 1) {
    throw validationError(RELEASE_MESSAGES.basicOnePrimaryArtist, {
      primaryArtists: RELEASE_MESSAGES.basicOnePrimaryArtist,
    });
  }
  const locked = isPro
    ? {
        labelName: input.labelName,
        copyrightHolder: input.copyrightHolder,
        publishingHolder: input.publishingHolder,
        copyrightYear: input.copyrightYear,
      }
    : {
        labelName: current.labelName,
        copyrightHolder: viewer.profile.artistName,
        publishingHolder: viewer.profile.artistName,
        copyrightYear: current.copyrightYear,
      };
  const [updated] = await db
    .update(releases)
    .set({
      title: input.title,
      genre: input.genre,
      primaryArtists: input.primaryArtists,
      featuredArtists: input.featuredArtists,
      primaryArtistsData: mergeCredits(input.primaryArtists, current.primaryArtistsData),
      featuredArtistsData: mergeCredits(input.featuredArtists, current.featuredArtistsData),
      ...locked,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(releases.id, releaseId),
        eq(releases.userId, viewer.user.id),
        inArray(releases.status, [...EDITABLE_STATUSES]),
      ),
    )
    .returning();
  // A moderator's decision landed between our read and this update: theirs wins.
  if (!updated) throw notEditable();
  return toReleaseForEdit(updated);
}

/**
 * Deletes a release's producers, songwriters, tracks, upload records and the release row inside the
 * caller's transaction, when `where` still matches. Returns the storage keys to remove after commit,
 * or null when no release matched.
 */
export async function deleteReleaseRows(
  tx: DbOrTx,
  releaseId: string,
  where: ReturnType<typeof and>,
): Promise<{ row: typeof releases.$inferSelect; fileKeys: string[]; trackCount: number } | null> {
  const [row] = await tx
    .select()
    .from(releases)
    .where(and(eq(releases.id, releaseId), where))
    .for('update');
  if (!row) return null;
  const trackRows = await tx
    .select({ id: tracks.id, fileKey: tracks.fileKey })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId));
  const uploadRows = await tx
    .select({ key: uploads.storageKey, small: uploads.thumbSmallKey, medium: uploads.thumbMediumKey })
    .from(uploads)
    .where(eq(uploads.releaseId, releaseId));
  const trackIds = trackRows.map((track) => track.id);
  if (trackIds.length > 0) {
    await tx.delete(producers).where(inArray(producers.trackId, trackIds));
    await tx.delete(songwriters).where(inArray(songwriters.trackId, trackIds));
    await tx.delete(tracks).where(eq(tracks.releaseId, releaseId));
  }
  await tx.delete(uploads).where(eq(uploads.releaseId, releaseId));
  const deleted = await tx
    .delete(releases)
    .where(and(eq(releases.id, releaseId), where))
    .returning({ id: releases.id });
  if (deleted.length === 0) return null;
  const keys = [
    row.coverArtKey,
    row.coverThumbSmallKey,
    row.coverThumbMediumKey,
    ...trackRows.map((track) => track.fileKey),
    ...uploadRows.flatMap((upload) => [upload.key, upload.small, upload.medium]),
  ].filter((key): key is string => Boolean(key));
  return { row, fileKeys: [...new Set(keys)], trackCount: trackRows.length };
}

/** Removes stored files after the rows are gone; a failure is logged, never undoes the delete. */
export async function removeStoredFiles(storage: Storage, logger: Logger, keys: string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => storage.delete(key)));
  results.forEach((result, index) => {
    if (result.status === 'rejected') {
      logger.warn({ err: result.reason, key: keys[index] }, 'could not remove a stored release file');
    }
  });
}

export async function deleteMyRelease(
  deps: Pick<Deps, 'db' | 'storage' | 'logger'>,
  userId: string,
  releaseId: string,
): Promise<void> {
  const result = await deps.db.transaction(async (tx) => {
    const removed = await deleteReleaseRows(
      tx,
      releaseId,
      and(eq(releases.userId, userId), inArray(releases.status, [...EDITABLE_STATUSES])),
    );
    if (removed) return removed;
    const existing = await findOwned(tx, userId, releaseId);
    if (!existing) throw releaseNotFound();
    throw notEditable();
  });
  await removeStoredFiles(deps.storage, deps.logger, result.fileKeys);
}

export async function requestTakedown(db: DbOrTx, userId: string, releaseId: string): Promise<MySongItem> {
  const [updated] = await db
    .update(releases)
    .set({ takedownRequested: true, takedownRequestedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(releases.id, releaseId),
        eq(releases.userId, userId),
        inArray(releases.status, [...TAKEDOWN_STATUSES]),
        eq(releases.takedownRequested, false),
      ),
    )
    .returning({ id: releases.id });
  if (!updated) {
    const existing = await findOwned(db, userId, releaseId);
    if (!existing) throw releaseNotFound();
    throw new AppError(
      'takedown_not_allowed',
      existing.takedownRequested
        ? 'A takedown has already been requested for this release.'
        : 'A takedown can only be requested for an approved or live release.',
      409,
    );
  }
  return listOne(db, userId, releaseId);
}

async function listOne(db: DbOrTx, userId: string, releaseId: string): Promise<MySongItem> {
  const row = await findOwned(db, userId, releaseId);
  if (!row) throw releaseNotFound();
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId));
  return {
    id: row.id,
    title: row.title,
    primaryArtists: row.primaryArtists,
    trackCount: Number(count?.n ?? 0),
    status: row.status as ReleaseStatus,
    isTakedownPending: row.takedownRequested,
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
    coverUrl: row.coverThumbSmallKey ? coverUrl(row.id, 'small') : null,
  };
}

/** Storage key of a cover thumbnail, for the owner or staff only (anyone else: 404). */
export async function coverThumbKey(
  db: DbOrTx,
  viewer: Viewer,
  releaseId: string,
  size: 'small' | 'medium',
  isStaff: boolean,
): Promise<string> {
  const [row] = await db
    .select({
      userId: releases.userId,
      small: releases.coverThumbSmallKey,
      medium: releases.coverThumbMediumKey,
    })
    .from(releases)
    .where(eq(releases.id, releaseId))
    .limit(1);
  if (!row || (row.userId !== viewer.user.id && !isStaff)) throw releaseNotFound();
  const key = size === 'small' ? row.small : row.medium;
  if (!key) throw notFound('This release has no cover thumbnail.');
  return key;
}
