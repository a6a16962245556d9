/**
 * The artist's own releases (spec 02 §2, §4): list, load for editing, edit, delete, takedown request.
 * Only the owner sees a release (anyone else gets 404); every state rule sits in the UPDATE/DELETE's WHERE.
 */
import { createHash } from 'node:crypto';
import { hasProFeatures, LIMITS } from '@tunedrop/shared';
import { BUILDER_MESSAGES, uniqueArtistsByName } from '@tunedrop/shared/schemas/builder';
import {
  type EditableTrack,
  type EditRelease,
  type EditTracks,
  isReleaseEditable,
  type MySongItem,
  type MySongsPage,
  OWNER_CHANGEABLE_STATUSES,
  RELEASE_MESSAGES,
  type ReleaseForEdit,
  TAKEDOWN_STATUSES,
} from '@tunedrop/shared/schemas/releases';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  type ArtistCredit,
  auditLog,
  producers,
  releaseStatusEvents,
  releases,
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
import { AppError, notFound, validationError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { uuidParam } from '../../lib/params';

export const notEditable = () => new AppError('release_not_editable', RELEASE_MESSAGES.cannotEdit, 409);
export const releaseNotFound = () => notFound(RELEASE_MESSAGES.notFound);

/** A release id from the path; anything that is not a UUID cannot name a release, so it is a 404. */
export const releaseIdParam = (value: string | undefined) => uuidParam(value, RELEASE_MESSAGES.notFound);

/**
 * A cover thumbnail's URL. `version` (the thumbnail's storage key) adds a short hash, so a replaced cover
 * gets a new URL and the browser's cached thumbnail (max-age one day) is never shown for it.
 */
export const coverUrl = (releaseId: string, size: 'small' | 'medium', version?: string | null) =>
  `/api/releases/${releaseId}/cover/${size}${
    version ? `?v=${createHash('sha256').update(version).digest('hex').slice(0, 12)}` : ''
  }`;

// ------------------------------------------------------------------ list

/** The owner's releases, newest first, `limit` at a time; the cursor is the last row's (created_at, id). */
function myReleasesQuery(db: DbOrTx, isAfterCursor: boolean) {
  return db
    .select({
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
    })
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

/** Both shapes of the My Songs query, built once per database (issue 19: building cost more than running). */
const myReleasesQueries = new WeakMap<
  object,
  { first: ReturnType<typeof myReleasesQuery>; after: ReturnType<typeof myReleasesQuery> }
>();

export async function listMyReleases(
  db: DbOrTx,
  userId: string,
  options: { cursor?: string | undefined; limit: number },
): Promise<MySongsPage> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  let queries = myReleasesQueries.get(db);
  if (!queries) {
    queries = { first: myReleasesQuery(db, false), after: myReleasesQuery(db, true) };
    myReleasesQueries.set(db, queries);
  }
  const rows = cursor
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
  return { ...toReleaseForEdit(row), tracks: await editableTracks(db, releaseId) };
}

async function editableTracks(db: DbOrTx, releaseId: string): Promise<EditableTrack[]> {
  const rows = await db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [writerRows, producerRows] = await Promise.all([
    db.select().from(songwriters).where(inArray(songwriters.trackId, ids)),
    db.select().from(producers).where(inArray(producers.trackId, ids)),
  ]);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    explicit: row.explicit,
    fileName: row.originalFileName,
    durationMs: row.durationMs,
    primaryArtists: row.primaryArtistsData,
    featuredArtists: row.featuredArtistsData,
    songwriters: writerRows
      .filter((writer) => writer.trackId === row.id)
      .map((writer) => ({
        firstName: writer.firstName,
        middleName: writer.middleName,
        lastName: writer.lastName,
        role: writer.role,
      })),
    producers: producerRows
      .filter((producer) => producer.trackId === row.id)
      .map((producer) => ({
        firstName: producer.firstName,
        middleName: producer.middleName,
        lastName: producer.lastName,
      })),
  }));
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
    status: row.status,
    isEditable: isReleaseEditable(row.status),
    coverUrl: row.coverThumbMediumKey ? coverUrl(row.id, 'medium', row.coverThumbMediumKey) : null,
    tracks: [],
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
  const primaryData = mergeCredits(input.primaryArtists, current.primaryArtistsData);
  const featuredData = mergeCredits(input.featuredArtists, current.featuredArtistsData);
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(releases)
      .set({
        title: input.title,
        genre: input.genre,
        primaryArtists: input.primaryArtists,
        featuredArtists: input.featuredArtists,
        primaryArtistsData: primaryData,
        featuredArtistsData: featuredData,
        ...locked,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(releases.id, releaseId),
          eq(releases.userId, viewer.user.id),
          inArray(releases.status, [...OWNER_CHANGEABLE_STATUSES]),
        ),
      )
      .returning();
    // A moderator's decision landed between our read and this update: theirs wins.
    if (!row) throw notEditable();
    await syncTrackArtists(tx, releaseId, current, { primary: primaryData, featured: featuredData });
    return row;
  });
  return toReleaseForEdit(updated);
}

const nameKey = (name: string) => name.trim().toLowerCase();

/** `credits` without the names in `removed`, plus `added` ones not there yet (links of `added` kept). */
function applyArtistChange(credits: ArtistCredit[], removed: Set<string>, added: ArtistCredit[]) {
  const kept = credits.filter((credit) => !removed.has(nameKey(credit.name)));
  const present = new Set(kept.map((credit) => nameKey(credit.name)));
  return [...kept, ...added.filter((credit) => !present.has(nameKey(credit.name)))];
}

/**
 * One source of truth for artists (issue 18): the release's lists are the union of its tracks' credits, as
 * the builder makes them. A release-level edit therefore applies to every track: a removed name leaves each
 * track, an added name joins each track; a track left with no primary artist gets the release's first. The
 * exported ERN (release and track artists) then never disagrees with what the artist sees.
 */
async function syncTrackArtists(
  tx: DbOrTx,
  releaseId: string,
  before: { primaryArtistsData: ArtistCredit[]; featuredArtistsData: ArtistCredit[] },
  after: { primary: ArtistCredit[]; featured: ArtistCredit[] },
): Promise<void> {
  const diff = (old: ArtistCredit[], next: ArtistCredit[]) => {
    const oldKeys = new Set(old.map((credit) => nameKey(credit.name)));
    const nextKeys = new Set(next.map((credit) => nameKey(credit.name)));
    return {
      removed: new Set([...oldKeys].filter((key) => !nextKeys.has(key))),
      added: next.filter((credit) => !oldKeys.has(nameKey(credit.name))),
    };
  };
  const primary = diff(before.primaryArtistsData, after.primary);
  const featured = diff(before.featuredArtistsData, after.featured);
  const trackRows = await tx
    .select({
      id: tracks.id,
      primaryArtistsData: tracks.primaryArtistsData,
      featuredArtistsData: tracks.featuredArtistsData,
    })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId));
  const primaryKeys = new Set(after.primary.map((credit) => nameKey(credit.name)));
  const featuredKeys = new Set(after.featured.map((credit) => nameKey(credit.name)));
  for (const track of trackRows) {
    // Names the track carries that the release no longer lists at that level also go (older desyncs).
    const stalePrimary = track.primaryArtistsData.filter((credit) => !primaryKeys.has(nameKey(credit.name)));
    const staleFeatured = track.featuredArtistsData.filter(
      (credit) => !featuredKeys.has(nameKey(credit.name)),
    );
    let nextPrimary = applyArtistChange(
      track.primaryArtistsData,
      new Set([...primary.removed, ...stalePrimary.map((credit) => nameKey(credit.name))]),
      primary.added,
    );
    if (nextPrimary.length === 0 && after.primary[0]) nextPrimary = [after.primary[0]];
    if (nextPrimary.length > LIMITS.primaryArtistsPerTrack) {
      throw validationError(BUILDER_MESSAGES.maxPrimaryArtistsPerTrack, {
        primaryArtists: BUILDER_MESSAGES.maxPrimaryArtistsPerTrack,
      });
    }
    const nextFeatured = applyArtistChange(
      track.featuredArtistsData,
      new Set([...featured.removed, ...staleFeatured.map((credit) => nameKey(credit.name))]),
      featured.added,
    );
    await tx
      .update(tracks)
      .set({ primaryArtistsData: nextPrimary, featuredArtistsData: nextFeatured })
      .where(eq(tracks.id, track.id));
  }
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
    status: row.status,
    isTakedownPending: row.takedownRequested,
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
    coverUrl: row.coverThumbSmallKey ? coverUrl(row.id, 'small', row.coverThumbSmallKey) : null,
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

// ------------------------------------------------------------------ fix and resubmit (issue 18)

/**
 * Sends the owner's rejected release back to review: rejected → pending, checked in the UPDATE itself.
 * The rejection reason stays in the status history (an event carrying it) and in the audit log's
 * `before`; the release row's reason is cleared as an unreject does.
 */
export async function resubmitMyRelease(
  db: DbOrTx,
  viewer: Viewer,
  releaseId: string,
): Promise<ReleaseForEdit> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(releases)
      .where(and(eq(releases.id, releaseId), eq(releases.userId, viewer.user.id)))
      .for('update');
    if (!before) throw releaseNotFound();
    const [after] = await tx
      .update(releases)
      .set({ status: 'pending', rejectionReason: null, updatedAt: new Date() })
      .where(
        and(eq(releases.id, releaseId), eq(releases.userId, viewer.user.id), eq(releases.status, 'rejected')),
      )
      .returning();
    if (!after) throw new AppError('release_not_resubmittable', RELEASE_MESSAGES.cannotResubmit, 409);
    const reason = before.rejectionReason?.trim();
    await tx.insert(releaseStatusEvents).values({
      releaseId,
      status: 'pending',
      note: reason
        ? `Resubmitted by the artist. Rejection reason was: ${reason}`
        : 'Resubmitted by the artist.',
    });
    await tx.insert(auditLog).values({
      actorId: viewer.user.id,
      actorEmail: viewer.user.email,
      action: 'release.resubmit',
      releaseId,
      subjectUserId: viewer.user.id,
      before: { title: before.title, status: before.status, rejectionReason: before.rejectionReason },
      after: { title: after.title, status: after.status, rejectionReason: after.rejectionReason },
    });
    return toReleaseForEdit(after);
  });
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

// ------------------------------------------------------------------ tracks (issue 18)

/**
 * Replaces the tracks' titles, explicit flags, artists, songwriters, producers and order in one
 * transaction, while the release is pending, processing or rejected (checked in the release UPDATE
 * itself). The release's artist lists are then recomputed from the tracks, as the builder makes them.
 */
export async function updateMyTracks(
  db: DbOrTx,
  viewer: Viewer,
  releaseId: string,
  input: EditTracks,
): Promise<void> {
  const isPro = hasProFeatures(viewer.profile.plan, viewer.roles);
  const allPrimary = uniqueArtistsByName(input.tracks.flatMap((track) => track.primaryArtists));
  const allFeatured = uniqueArtistsByName(input.tracks.flatMap((track) => track.featuredArtists));
  if (!isPro && allPrimary.length > 1) {
    throw validationError(RELEASE_MESSAGES.basicOnePrimaryArtist, {
      tracks: RELEASE_MESSAGES.basicOnePrimaryArtist,
    });
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(releases)
      .set({
        primaryArtists: allPrimary.map((artist) => artist.name),
        featuredArtists: allFeatured.map((artist) => artist.name),
        primaryArtistsData: allPrimary,
        featuredArtistsData: allFeatured,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(releases.id, releaseId),
          eq(releases.userId, viewer.user.id),
          inArray(releases.status, [...OWNER_CHANGEABLE_STATUSES]),
        ),
      )
      .returning({ id: releases.id });
    if (!row) {
      if (!(await findOwned(tx, viewer.user.id, releaseId))) throw releaseNotFound();
      throw notEditable();
    }
    const existing = await tx.select({ id: tracks.id }).from(tracks).where(eq(tracks.releaseId, releaseId));
    const existingIds = new Set(existing.map((track) => track.id));
    const givenIds = new Set(input.tracks.map((track) => track.id.toLowerCase()));
    if (givenIds.size !== input.tracks.length || givenIds.size !== existingIds.size) {
      throw validationError('Every track of the release must be listed exactly once.');
    }
    for (const id of givenIds) {
      if (!existingIds.has(id))
        throw validationError('Every track of the release must be listed exactly once.');
    }
    const trackIds = [...existingIds];
    await tx.delete(songwriters).where(inArray(songwriters.trackId, trackIds));
    await tx.delete(producers).where(inArray(producers.trackId, trackIds));
    for (const [index, track] of input.tracks.entries()) {
      const id = track.id.toLowerCase();
      await tx
        .update(tracks)
        .set({
          position: index + 1,
          title: track.title,
          explicit: track.explicit,
          primaryArtistsData: track.primaryArtists,
          featuredArtistsData: track.featuredArtists,
        })
        .where(and(eq(tracks.id, id), eq(tracks.releaseId, releaseId)));
      await tx.insert(songwriters).values(
        track.songwriters.map((writer) => ({
          trackId: id,
          firstName: writer.firstName,
          middleName: writer.middleName ?? null,
          lastName: writer.lastName,
          role: writer.role,
        })),
      );
      await tx.insert(producers).values(
        track.producers.map((producer) => ({
          trackId: id,
          firstName: producer.firstName,
          middleName: producer.middleName ?? null,
          lastName: producer.lastName,
        })),
      );
    }
  });
}
