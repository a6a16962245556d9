/**
 * Artist profiles (issue 27, record 201): the artists an account releases as. "The account" is always its
 * owner's user id (a team member acting for an owner passes the owner's id): every function here takes it.
 * Basic holds one profile; Pro with a running subscription (or free access) any number. After a downgrade
 * or a lapse the extra profiles stay with their releases, but only the first takes new releases.
 */

import { randomBytes } from 'node:crypto';
import { hasProFeatures, passesSubscriptionGate } from '@tunedrop/shared';
import {
  ARTIST_PROFILE_IMAGE_MAX_BYTES,
  ARTIST_PROFILE_MESSAGES,
  type ArtistProfile,
  type ArtistProfileList,
  type ArtistProfileValues,
} from '@tunedrop/shared/schemas/artist-profiles';
import { isTeamMemberOf, MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import { and, asc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { DbOrTx } from '../../db/client';
import { artistProfiles, profiles, releases } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import type { Viewer } from '../../lib/context';
import { AppError, notFound, validationError } from '../../lib/errors';

/**
 * The account a request works on: the acting account's owner when the viewer carries one (teams,
 * record 202), otherwise the signed-in user.
 */
export function accountIdOf(viewer: Viewer): string {
  return (viewer as { account?: { id: string } }).account?.id ?? viewer.user.id;
}

/** What the account's plan allows: any number of profiles only on Pro features with a running subscription. */
export function hasUnlimitedProfiles(viewer: Viewer, now = new Date()): boolean {
  return (
    hasProFeatures(viewer.profile.plan, viewer.roles) &&
    passesSubscriptionGate(
      {
        subscriptionStatus: viewer.profile.subscriptionStatus,
        subscriptionEnd: viewer.profile.subscriptionEnd,
        roles: viewer.roles,
      },
      now,
    )
  );
}

type ProfileRow = typeof artistProfiles.$inferSelect;

export async function listArtistProfileRows(db: DbOrTx, accountId: string): Promise<ProfileRow[]> {
  return db
    .select()
    .from(artistProfiles)
    .where(eq(artistProfiles.userId, accountId))
    .orderBy(asc(artistProfiles.position));
}

function toArtistProfile(row: ProfileRow, canRelease: boolean, releaseCount: number): ArtistProfile {
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    isFirst: row.position === 1,
    spotifyArtistId: row.spotifyArtistId,
    appleArtistId: row.appleArtistId,
    deezerArtistId: row.deezerArtistId,
    amazonArtistId: row.amazonArtistId,
    youtubeChannelId: row.youtubeChannelId,
    spotifyArtistKey: row.spotifyArtistKey,
    newOnStores: row.newOnStores,
    imageUrl: row.imageKey
      ? `/api/artist-profiles/${row.id}/image?v=${row.updatedAt.getTime().toString(36)}`
      : null,
    canRelease,
    releaseCount,
  };
}

/** The account's profiles, the first first, each with whether it takes new releases now. */
export async function listArtistProfiles(db: DbOrTx, viewer: Viewer): Promise<ArtistProfileList> {
  const accountId = accountIdOf(viewer);
  const isUnlimited = hasUnlimitedProfiles(viewer);
  const rows = await listArtistProfileRows(db, accountId);
  const counts = await db
    .select({ id: releases.artistProfileId, count: sql<number>`count(*)::int` })
    .from(releases)
    .where(and(eq(releases.userId, accountId), sql`${releases.status} <> 'deleted'`))
    .groupBy(releases.artistProfileId);
  const countOf = new Map(counts.map((row) => [row.id, Number(row.count)]));
  const first = rows[0];
  return {
    profiles: rows.map((row) =>
      toArtistProfile(row, isUnlimited || row.id === first?.id, countOf.get(row.id) ?? 0),
    ),
    canAdd: isUnlimited || rows.length === 0,
    limit: isUnlimited ? null : 1,
  };
}

/** One of the account's profiles, or 404 (another account's profile is not there, as far as the caller knows). */
export async function findOwnArtistProfile(db: DbOrTx, accountId: string, id: string): Promise<ProfileRow> {
  const [row] = await db
    .select()
    .from(artistProfiles)
    .where(and(eq(artistProfiles.id, id), eq(artistProfiles.userId, accountId)))
    .limit(1);
  if (!row) throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
  return row;
}

/**
 * The profile a list is narrowed to: the given one when it is the account's (404 otherwise), or null for
 * "All profiles".
 */
export async function resolveProfileFilter(
  db: DbOrTx,
  accountId: string,
  artistProfileId: string | undefined,
): Promise<string | null> {
  if (!artistProfileId) return null;
  return (await findOwnArtistProfile(db, accountId, artistProfileId)).id;
}

/** The columns a profile's form sets, the same on add and on edit. */
const profileColumns = (values: ArtistProfileValues) => ({
  name: values.name,
  spotifyArtistId: values.spotifyArtistId,
  appleArtistId: values.appleArtistId,
  deezerArtistId: values.deezerArtistId,
  amazonArtistId: values.amazonArtistId,
  youtubeChannelId: values.youtubeChannelId,
  spotifyArtistKey: values.spotifyArtistKey,
  newOnStores: values.newOnStores,
});

const limitError = (viewer: Viewer) =>
  new AppError(
    'pro_feature',
    isTeamMemberOf(viewer) ? MEMBER_LOCK_TEXTS.artistProfiles : ARTIST_PROFILE_MESSAGES.limitBasic,
    403,
  );

/**
 * Adds a profile after the account's others. The account row is locked for the count, so two concurrent
 * adds on Basic cannot both pass.
 */
export async function createArtistProfile(
  db: DbOrTx,
  viewer: Viewer,
  values: ArtistProfileValues,
): Promise<ArtistProfile> {
  const accountId = accountIdOf(viewer);
  const isUnlimited = hasUnlimitedProfiles(viewer);
  return db.transaction(async (tx) => {
    await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, accountId)).for('update');
    const [stats] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        last: sql<number>`coalesce(max(${artistProfiles.position}), 0)::int`,
      })
      .from(artistProfiles)
      .where(eq(artistProfiles.userId, accountId));
    const count = Number(stats?.count ?? 0);
    if (count >= 1 && !isUnlimited) throw limitError(viewer);
    const [row] = await tx
      .insert(artistProfiles)
      .values({
        userId: accountId,
        position: Number(stats?.last ?? 0) + 1,
        ...profileColumns(values),
      })
      .returning();
    if (!row) throw new Error('artist profile insert returned nothing');
    return toArtistProfile(row, true, 0);
  });
}

/**
 * Renames a profile or sets its ids. The first profile's name is the account's artist name, so renaming it
 * renames the account's too (and the account page's rename reaches it by trigger, migration 0055).
 * Editing stays open after a downgrade: only new releases are limited.
 */
export async function updateArtistProfile(
  db: DbOrTx,
  viewer: Viewer,
  id: string,
  values: ArtistProfileValues,
): Promise<ArtistProfile> {
  const accountId = accountIdOf(viewer);
  return db.transaction(async (tx) => {
    const current = await findOwnArtistProfile(tx, accountId, id);
    const [row] = await tx
      .update(artistProfiles)
      .set({
        ...profileColumns(values),
        updatedAt: new Date(),
      })
      .where(and(eq(artistProfiles.id, current.id), eq(artistProfiles.userId, accountId)))
      .returning();
    if (!row) throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
    if (row.position === 1) {
      await tx
        .update(profiles)
        .set({ artistName: row.name, updatedAt: new Date() })
        .where(eq(profiles.id, accountId));
    }
    const list = await listArtistProfiles(tx, viewer);
    return list.profiles.find((profile) => profile.id === row.id) ?? toArtistProfile(row, false, 0);
  });
}

/**
 * The profile a new release goes under: the named one (the first when none is named), which must be the
 * account's and, beyond the first, allowed by a running Pro plan.
 */
export async function profileForNewRelease(
  db: DbOrTx,
  viewer: Viewer,
  artistProfileId: string | undefined,
): Promise<ProfileRow> {
  const accountId = accountIdOf(viewer);
  const rows = await listArtistProfileRows(db, accountId);
  const first = rows[0];
  if (!first) throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
  if (!artistProfileId || artistProfileId === first.id) return first;
  const chosen = rows.find((row) => row.id === artistProfileId);
  if (!chosen) throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
  if (!hasUnlimitedProfiles(viewer)) {
    const message = isTeamMemberOf(viewer)
      ? MEMBER_LOCK_TEXTS.readOnlyProfile(first.name)
      : ARTIST_PROFILE_MESSAGES.readOnly(first.name);
    throw new AppError('profile_read_only', message, 403, { artistProfileId: message });
  }
  return chosen;
}

/** The stored image's longest side in pixels: plenty for the page (96 px) and the switcher, at 2x. */
const IMAGE_EDGE = 1024;

/**
 * Checks a profile image (record 332) by content (JPEG or PNG, at most 5 MB, any shape) and stores a
 * re-encoded JPEG of it (at most 1024 px a side, no metadata) under a new key; the old image is removed
 * after the row names the new one.
 */
export async function saveArtistProfileImage(
  deps: { db: DbOrTx; storage: Storage },
  viewer: Viewer,
  id: string,
  bytes: Buffer,
): Promise<ArtistProfile> {
  const { db, storage } = deps;
  const accountId = accountIdOf(viewer);
  const current = await findOwnArtistProfile(db, accountId, id);
  if (bytes.length > ARTIST_PROFILE_IMAGE_MAX_BYTES) {
    throw validationError(ARTIST_PROFILE_MESSAGES.imageTooLarge, {
      image: ARTIST_PROFILE_MESSAGES.imageTooLarge,
    });
  }
  let format: string | undefined;
  try {
    format = (await sharp(bytes).metadata()).format;
  } catch {
    format = undefined;
  }
  if (format !== 'jpeg' && format !== 'png') {
    throw validationError(ARTIST_PROFILE_MESSAGES.imageFormat, {
      image: ARTIST_PROFILE_MESSAGES.imageFormat,
    });
  }
  let jpeg: Buffer;
  try {
    jpeg = await sharp(bytes, { failOn: 'truncated' })
      .rotate()
      .resize(IMAGE_EDGE, IMAGE_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw validationError(ARTIST_PROFILE_MESSAGES.imageDamaged, {
      image: ARTIST_PROFILE_MESSAGES.imageDamaged,
    });
  }
  const key = `${accountId}/artist-profiles/${current.id}-${randomBytes(8).toString('hex')}.jpg`;
  await storage.putBuffer(key, jpeg, 'image/jpeg');
  const [row] = await db
    .update(artistProfiles)
    .set({ imageKey: key, updatedAt: new Date() })
    .where(and(eq(artistProfiles.id, current.id), eq(artistProfiles.userId, accountId)))
    .returning();
  if (!row) {
    await storage.delete(key);
    throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
  }
  if (current.imageKey && current.imageKey !== key) await storage.delete(current.imageKey).catch(() => {});
  const list = await listArtistProfiles(db, viewer);
  return list.profiles.find((profile) => profile.id === row.id) ?? toArtistProfile(row, false, 0);
}

/** Removes the profile's image (a profile without one is left as it is). */
export async function removeArtistProfileImage(
  deps: { db: DbOrTx; storage: Storage },
  viewer: Viewer,
  id: string,
): Promise<ArtistProfile> {
  const { db, storage } = deps;
  const accountId = accountIdOf(viewer);
  const current = await findOwnArtistProfile(db, accountId, id);
  if (current.imageKey) {
    await db
      .update(artistProfiles)
      .set({ imageKey: null, updatedAt: new Date() })
      .where(and(eq(artistProfiles.id, current.id), eq(artistProfiles.userId, accountId)));
    await storage.delete(current.imageKey).catch(() => {});
  }
  const list = await listArtistProfiles(db, viewer);
  const profile = list.profiles.find((item) => item.id === current.id);
  if (!profile) throw notFound(ARTIST_PROFILE_MESSAGES.notFound);
  return profile;
}

/** The stored key of the account's profile image, or 404 (no such profile in this account, or no image). */
export async function artistProfileImageKey(db: DbOrTx, viewer: Viewer, id: string): Promise<string> {
  const row = await findOwnArtistProfile(db, accountIdOf(viewer), id);
  if (!row.imageKey) throw notFound('Profile image not found');
  return row.imageKey;
}
