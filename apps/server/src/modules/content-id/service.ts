/**
 * YouTube Content ID (issue 28, decision 185): a Pro artist's per-track opt-in with the eligibility answers,
 * opt-out, and the allow-list of the artist's own channels; the admin's view of both, to apply by hand what
 * the YouTube feed cannot carry. Plan, ownership and answers are checked here, never only in the browser.
 */

import { hasProFeatures } from '@tunedrop/shared';
import {
  type AdminContentIdArtist,
  CONTENT_ID_LIMITS,
  CONTENT_ID_MESSAGES,
  type ContentIdAnswers,
  type ContentIdChannelView,
  type ContentIdReleaseView,
  type ContentIdTrackView,
} from '@tunedrop/shared/schemas/content-id';
import { isTeamMemberOf, MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import {
  auditLog,
  contentIdChannels,
  contentIdTracks,
  profiles,
  releases,
  tracks,
  user,
} from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AppError, conflict, notFound } from '../../lib/errors';
import { queueContentIdUpdate } from '../delivery';

/** Content ID is a Pro feature: a Pro plan (the route's subscriber rule adds "in force"), free access or admin. */
export function requireContentIdPlan(viewer: Viewer): void {
  if (!hasProFeatures(viewer.profile.plan, viewer.roles))
    throw new AppError(
      'pro_required',
      isTeamMemberOf(viewer) ? MEMBER_LOCK_TEXTS.contentId : CONTENT_ID_MESSAGES.proOnly,
      403,
    );
}

export async function getReleaseContentId(
  db: DbOrTx,
  userId: string,
  releaseId: string,
): Promise<ContentIdReleaseView> {
  const [release] = await db
    .select({ id: releases.id })
    .from(releases)
    .where(and(eq(releases.id, releaseId), eq(releases.userId, userId)));
  if (!release) throw notFound('Release not found');
  const found = await db
    .select({
      trackId: tracks.id,
      position: tracks.position,
      title: tracks.title,
      isrc: tracks.isrc,
      isOptedIn: contentIdTracks.isOptedIn,
      optedInAt: contentIdTracks.optedInAt,
      optedOutAt: contentIdTracks.optedOutAt,
    })
    .from(tracks)
    .leftJoin(contentIdTracks, eq(contentIdTracks.trackId, tracks.id))
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  return {
    releaseId,
    tracks: found.map((row): ContentIdTrackView => {
      const state = row.isOptedIn === null ? 'not_opted_in' : row.isOptedIn ? 'opted_in' : 'opted_out';
      const changedAt = state === 'opted_in' ? row.optedInAt : state === 'opted_out' ? row.optedOutAt : null;
      return {
        trackId: row.trackId,
        position: row.position,
        title: row.title,
        isrc: row.isrc,
        state,
        changedAt: changedAt ? changedAt.toISOString() : null,
      };
    }),
  };
}

/** The track with its release, when the artist owns it; another artist's track is not found (404). */
async function ownTrack(db: DbOrTx, userId: string, trackId: string) {
  const [row] = await db
    .select({ trackId: tracks.id, releaseId: tracks.releaseId, title: tracks.title })
    .from(tracks)
    .innerJoin(releases, eq(releases.id, tracks.releaseId))
    .where(and(eq(tracks.id, trackId), eq(releases.userId, userId)));
  if (!row) throw notFound(CONTENT_ID_MESSAGES.trackNotFound);
  return row;
}

/** Opts a track in with answers the shared schema found eligible; the answers and time are kept and audited. */
export async function optTrackIn(
  db: Db,
  viewer: Viewer,
  trackId: string,
  answers: ContentIdAnswers,
  now: Date = new Date(),
): Promise<ContentIdReleaseView> {
  const userId = viewer.account.id;
  const releaseId = await db.transaction(async (tx) => {
    const track = await ownTrack(tx, userId, trackId);
    await tx
      .insert(contentIdTracks)
      .values({ trackId, userId, isOptedIn: true, answers, optedInAt: now, needsYoutubeUpdate: true })
      .onConflictDoUpdate({
        target: contentIdTracks.trackId,
        set: { isOptedIn: true, answers, optedInAt: now, optedOutAt: null, needsYoutubeUpdate: true },
      });
    await tx.insert(auditLog).values({
      actorId: viewer.user.id,
      actorEmail: viewer.user.email,
      action: 'content_id.opt_in',
      releaseId: track.releaseId,
      subjectUserId: userId,
      after: { trackId, title: track.title, answers },
    });
    // YouTube targets get the Content ID deal (record 192); before approval, the approval sends it.
    await queueContentIdUpdate(tx, track.releaseId);
    return track.releaseId;
  });
  return getReleaseContentId(db, userId, releaseId);
}

/**
 * Opts a track out. The row stays (answers and times on record) and is marked for the update each YouTube
 * target gets, queued here (record 192); opting out a track that is not opted in changes nothing.
 */
export async function optTrackOut(
  db: Db,
  viewer: Viewer,
  trackId: string,
  now: Date = new Date(),
): Promise<ContentIdReleaseView> {
  const userId = viewer.account.id;
  const releaseId = await db.transaction(async (tx) => {
    const track = await ownTrack(tx, userId, trackId);
    const changed = await tx
      .update(contentIdTracks)
      .set({ isOptedIn: false, optedOutAt: now, needsYoutubeUpdate: true })
      .where(and(eq(contentIdTracks.trackId, trackId), eq(contentIdTracks.isOptedIn, true)))
      .returning({ trackId: contentIdTracks.trackId });
    if (changed.length > 0) {
      await tx.insert(auditLog).values({
        actorId: viewer.user.id,
        actorEmail: viewer.user.email,
        action: 'content_id.opt_out',
        releaseId: track.releaseId,
        subjectUserId: userId,
        after: { trackId, title: track.title },
      });
      // The update withdrawing the Content ID deal (record 192).
      await queueContentIdUpdate(tx, track.releaseId);
    }
    return track.releaseId;
  });
  return getReleaseContentId(db, userId, releaseId);
}

// ------------------------------------------------------------------ the channel allow-list

export async function listChannels(db: DbOrTx, userId: string): Promise<ContentIdChannelView[]> {
  const found = await db
    .select({
      id: contentIdChannels.id,
      channelId: contentIdChannels.channelId,
      createdAt: contentIdChannels.createdAt,
    })
    .from(contentIdChannels)
    .where(eq(contentIdChannels.userId, userId))
    .orderBy(asc(contentIdChannels.createdAt), asc(contentIdChannels.id));
  return found.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

export async function addChannel(db: Db, viewer: Viewer, channelId: string): Promise<ContentIdChannelView[]> {
  const userId = viewer.account.id;
  await db.transaction(async (tx) => {
    // The user row is locked so two adds at once cannot pass the limit together.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for('update');
    const [{ total = 0 } = {}] = await tx
      .select({ total: count() })
      .from(contentIdChannels)
      .where(eq(contentIdChannels.userId, userId));
    if (total >= CONTENT_ID_LIMITS.maxChannels)
      throw new AppError(
        'channel_limit',
        CONTENT_ID_MESSAGES.channelLimit(CONTENT_ID_LIMITS.maxChannels),
        409,
      );
    const inserted = await tx
      .insert(contentIdChannels)
      .values({ userId, channelId })
      .onConflictDoNothing()
      .returning({ id: contentIdChannels.id });
    if (inserted.length === 0) throw conflict(CONTENT_ID_MESSAGES.channelDuplicate);
    await tx.insert(auditLog).values({
      actorId: viewer.user.id,
      actorEmail: viewer.user.email,
      action: 'content_id.add_channel',
      subjectUserId: userId,
      after: { channelId },
    });
  });
  return listChannels(db, userId);
}

export async function removeChannel(db: Db, viewer: Viewer, id: string): Promise<ContentIdChannelView[]> {
  const userId = viewer.account.id;
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(contentIdChannels)
      .where(and(eq(contentIdChannels.id, id), eq(contentIdChannels.userId, userId)))
      .returning({ channelId: contentIdChannels.channelId });
    if (removed.length === 0) throw notFound(CONTENT_ID_MESSAGES.channelNotFound);
    await tx.insert(auditLog).values({
      actorId: viewer.user.id,
      actorEmail: viewer.user.email,
      action: 'content_id.remove_channel',
      subjectUserId: userId,
      before: { channelId: removed[0]?.channelId },
    });
  });
  return listChannels(db, userId);
}

// ------------------------------------------------------------------ the admin's view

/** Every artist with an allow-listed channel or an opted-in track: what staff apply by hand in YouTube's CMS. */
export async function listContentIdForAdmin(db: DbOrTx): Promise<AdminContentIdArtist[]> {
  const channelRows = await db
    .select({ userId: contentIdChannels.userId, channelId: contentIdChannels.channelId })
    .from(contentIdChannels)
    .orderBy(asc(contentIdChannels.createdAt), asc(contentIdChannels.id));
  const trackRows = await db
    .select({
      userId: contentIdTracks.userId,
      trackId: tracks.id,
      title: tracks.title,
      isrc: tracks.isrc,
      releaseTitle: releases.title,
      optedInAt: contentIdTracks.optedInAt,
      assetId: contentIdTracks.youtubeAssetId,
    })
    .from(contentIdTracks)
    .innerJoin(tracks, eq(tracks.id, contentIdTracks.trackId))
    .innerJoin(releases, eq(releases.id, tracks.releaseId))
    .where(eq(contentIdTracks.isOptedIn, true))
    .orderBy(asc(releases.title), asc(tracks.position));
  const userIds = [...new Set([...channelRows, ...trackRows].map((row) => row.userId))];
  if (userIds.length === 0) return [];
  const people = await db
    .select({ userId: user.id, email: user.email, artistName: profiles.artistName })
    .from(user)
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(inArray(user.id, userIds));
  return people
    .map((person) => ({
      userId: person.userId,
      artistName: person.artistName,
      email: person.email,
      channels: channelRows.filter((row) => row.userId === person.userId).map((row) => row.channelId),
      tracks: trackRows
        .filter((row) => row.userId === person.userId)
        .map(({ userId: _userId, optedInAt, ...rest }) => ({ ...rest, optedInAt: optedInAt.toISOString() })),
    }))
    .sort((a, b) => (a.artistName ?? a.email).localeCompare(b.artistName ?? b.email));
}
