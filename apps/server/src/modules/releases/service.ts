/**
 * The artist's own releases (spec 02 §2, §4): list, delete, takedown request, the owner's player; loading
 * for editing, editing and fix-and-resubmit are in edit.ts.
 * Only the owner sees a release (anyone else gets 404); every state rule sits in the UPDATE/DELETE's WHERE.
 */
import type { ReleaseStatus } from '@tunedrop/shared';
import {
  type MySongItem,
  type MySongsPage,
  OWNER_CHANGEABLE_STATUSES,
  RELEASE_MESSAGES,
  TAKEDOWN_STATUSES,
} from '@tunedrop/shared/schemas/releases';
import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  producers,
  releases,
  releaseUpdates,
  songwriters,
  splitAllocations,
  splitRecoupments,
  tracks,
  uploads,
} from '../../db/schema';
import type { Deps } from '../../deps';
import type { Storage } from '../../infra/storage/storage';
import type { Viewer } from '../../lib/context';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { AppError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { containsPattern } from '../../lib/search';
import { coverUrl, releaseNotFound } from '../catalogue';
import { releaseStoreRejections, storeRejectionsOf, storeRejectionsSql } from '../delivery';
import { notifyTakedownRequested } from '../staff-notifications';

export const notEditable = () => new AppError('release_not_editable', RELEASE_MESSAGES.cannotEdit, 409);

// ------------------------------------------------------------------ list

/** The owner's releases, newest first, `limit` at a time; the cursor is the last row's (created_at, id). */
const myReleasesColumns = {
  id: releases.id,
  title: releases.title,
  primaryArtists: releases.primaryArtists,
  status: releases.status,
  takedownRequested: releases.takedownRequested,
  rejectionReason: releases.rejectionReason,
  coverThumbSmallKey: releases.coverThumbSmallKey,
  // The database's own text form keeps microseconds, so the cursor compares exactly.
  createdAtText: sql<string>`${releases.createdAt}::text`,
  trackCount: sql<number>`(select count(*)::int from ${tracks} where ${tracks}.release_id = ${releases}.id)`,
  // Qualified: a one-table select renders a bare "id", which the subquery's own tables would capture.
  storeRejections: storeRejectionsSql(sql`${releases}.id`),
  // A post-release update waiting in review (record 197); the partial unique index answers it.
  updateInReview: sql<boolean>`exists (select 1 from ${releaseUpdates} where ${releaseUpdates}.release_id = ${releases}.id and ${releaseUpdates}.state = 'in_review')`,
};

function myReleasesQuery(db: DbOrTx, isAfterCursor: boolean) {
  return db
    .select(myReleasesColumns)
    .from(releases)
    .where(
      and(
        eq(releases.userId, sql.placeholder('userId')),
        isAfterCursor
          ? sql`(${releases.createdAt}, ${releases.id}) < (${sql.placeholder('cursorCreatedAt')}::timestamptz, ${sql.placeholder('cursorId')}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(sql.placeholder('limit'))
    .prepare(isAfterCursor ? 'tunedrop_my_releases_after' : 'tunedrop_my_releases');
}

/**
 * My Songs searched or filtered (issue 26 finding 9, record 195): the same rows and order as the prepared
 * query, only ever the owner's releases. `q` matches the stored lower-case title+artists text (record 183),
 * the UPC's digits, or a track's ISRC written with or without hyphens.
 */
function filteredReleasesQuery(
  db: DbOrTx,
  userId: string,
  options: {
    limit: number;
    q?: string | undefined;
    status?: ReleaseStatus | undefined;
    artistProfileId?: string | null | undefined;
  },
  cursor: { createdAt: string; id: string } | null,
) {
  const q = options.q;
  const digits = q?.replace(/[\s-]/g, '') ?? '';
  const code = digits.toUpperCase();
  const matches: SQL[] = [];
  if (q) {
    matches.push(sql`${releases.searchText} like ${containsPattern(q)}`);
    if (/^\d{3,13}$/.test(digits)) matches.push(sql`${releases.upc} like ${`%${digits}%`}`);
    if (/^[A-Z0-9]{5,12}$/.test(code))
      matches.push(
        sql`exists (select 1 from ${tracks} where ${tracks.releaseId} = ${releases.id} and ${tracks.isrc} like ${`%${code}%`})`,
      );
  }
  return db
    .select(myReleasesColumns)
    .from(releases)
    .where(
      and(
        eq(releases.userId, userId),
        options.artistProfileId ? eq(releases.artistProfileId, options.artistProfileId) : undefined,
        options.status ? eq(releases.status, options.status) : undefined,
        matches.length > 0 ? or(...matches) : undefined,
        cursor
          ? sql`(${releases.createdAt}, ${releases.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(options.limit + 1);
}

/** Both shapes of the My Songs query, built once per database (issue 19: building cost more than running). */
const myReleasesQueries = new WeakMap<
  object,
  { first: ReturnType<typeof myReleasesQuery>; after: ReturnType<typeof myReleasesQuery> }
>();

export async function listMyReleases(
  db: DbOrTx,
  userId: string,
  options: {
    cursor?: string | undefined;
    limit: number;
    q?: string | undefined;
    status?: ReleaseStatus | undefined;
    /** Checked by the caller to be the account's (artist-profiles' resolveProfileFilter). */
    artistProfileId?: string | null | undefined;
  },
): Promise<MySongsPage> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  let queries = myReleasesQueries.get(db);
  if (!queries) {
    queries = { first: myReleasesQuery(db, false), after: myReleasesQuery(db, true) };
    myReleasesQueries.set(db, queries);
  }
  const rows =
    options.q || options.status || options.artistProfileId
      ? await filteredReleasesQuery(db, userId, options, cursor)
      : cursor
        ? await queries.after.execute({
            userId,
            limit: options.limit + 1,
            cursorCreatedAt: cursor.createdAt,
            cursorId: cursor.id,
          })
        : await queries.first.execute({ userId, limit: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const items: MySongItem[] = page.map((row) => ({
    id: row.id,
    title: row.title,
    primaryArtists: row.primaryArtists,
    trackCount: Number(row.trackCount),
    status: row.status,
    isTakedownPending: row.takedownRequested,
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
    coverUrl: row.coverThumbSmallKey ? coverUrl(row.id, 'small', row.coverThumbSmallKey) : null,
    storeRejections: storeRejectionsOf(row.storeRejections),
    updateInReview: Boolean(row.updateInReview),
  }));
  return {
    items,
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor({ createdAt: last.createdAtText, id: last.id })
        : null,
  };
}

// ------------------------------------------------------------------ one release (editing it: edit.ts)

/** The owner's release row, or null (another artist's release is not found either). */
export async function findOwned(db: DbOrTx, userId: string, releaseId: string) {
  const [row] = await db
    .select()
    .from(releases)
    .where(and(eq(releases.id, releaseId), eq(releases.userId, userId)))
    .limit(1);
  return row ?? null;
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
  // A split's set-up goes with the release (cascade); what postings paid through it is money history.
  const [splitHistory] = await tx
    .select({ importId: splitAllocations.importId })
    .from(splitAllocations)
    .where(eq(splitAllocations.releaseId, releaseId))
    .unionAll(
      tx
        .select({ importId: splitRecoupments.importId })
        .from(splitRecoupments)
        .where(eq(splitRecoupments.releaseId, releaseId)),
    )
    .limit(1);
  if (splitHistory) {
    throw new AppError(
      'release_has_split_history',
      'Royalties of this release were shared or recouped through splits; that history must be kept, so the release cannot be deleted.',
      409,
    );
  }
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
      and(eq(releases.userId, userId), inArray(releases.status, [...OWNER_CHANGEABLE_STATUSES])),
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
  await notifyTakedownRequested(db, releaseId);
  return listOne(db, userId, releaseId);
}

async function listOne(db: DbOrTx, userId: string, releaseId: string): Promise<MySongItem> {
  const row = await findOwned(db, userId, releaseId);
  if (!row) throw releaseNotFound();
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId));
  const [inReview] = await db
    .select({ id: releaseUpdates.id })
    .from(releaseUpdates)
    .where(and(eq(releaseUpdates.releaseId, releaseId), eq(releaseUpdates.state, 'in_review')));
  return {
    id: row.id,
    title: row.title,
    primaryArtists: row.primaryArtists,
    trackCount: Number(count?.n ?? 0),
    status: row.status,
    isTakedownPending: row.takedownRequested,
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
    coverUrl: row.coverThumbSmallKey ? coverUrl(row.id, 'small', row.coverThumbSmallKey) : null,
    storeRejections: await releaseStoreRejections(db, releaseId),
    updateInReview: Boolean(inReview),
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
  if (!row || (row.userId !== viewer.account.id && !isStaff)) throw releaseNotFound();
  const key = size === 'small' ? row.small : row.medium;
  if (!key) throw notFound('This release has no cover thumbnail.');
  return key;
}

// ------------------------------------------------------------------ the owner's player (issue 18)

/** Storage key of one of the owner's own tracks; anyone else's (or an unknown id) is 404. */
export async function ownTrackFileKey(
  db: DbOrTx,
  userId: string,
  releaseId: string,
  trackId: string,
): Promise<string> {
  const [row] = await db
    .select({ key: tracks.fileKey })
    .from(tracks)
    .innerJoin(releases, eq(releases.id, tracks.releaseId))
    .where(
      and(
        eq(tracks.id, trackId),
        eq(tracks.releaseId, releaseId),
        eq(releases.userId, userId),
        sql`${releases.status} <> 'deleted'`,
      ),
    )
    .limit(1);
  if (!row?.key) throw notFound('Track not found.');
  return row.key;
}
