/**
 * Editing a submitted release (spec 02 §2, issue 18): load it for Edit Release, change its details and
 * its tracks' titles, flags, credits and order, fix and resubmit a rejected one. Every state rule sits in
 * the UPDATE's WHERE; only the owner reaches a release (anyone else gets 404).
 */
import { hasProFeatures, LIMITS } from '@tunedrop/shared';
import { BUILDER_MESSAGES, uniqueArtistsByName } from '@tunedrop/shared/schemas/builder';
import {
  type EditableTrack,
  type EditRelease,
  type EditTracks,
  isReleaseEditable,
  OWNER_CHANGEABLE_STATUSES,
  RELEASE_MESSAGES,
  type ReleaseForEdit,
} from '@tunedrop/shared/schemas/releases';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  type ArtistCredit,
  producers,
  releaseStatusEvents,
  releases,
  songwriters,
  tracks,
} from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AppError, validationError } from '../../lib/errors';
import { changedFields, recordAudit } from '../audit';
import {
  availabilityColumns,
  availabilityView,
  coverUrl,
  releaseNotFound,
  replaceCredits,
} from '../catalogue';
import { emitWebhookEvent } from '../webhook-outbox';
import { lockChangeable } from './files';
import { findOwned, notEditable } from './service';

// ------------------------------------------------------------------ load and edit

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
    releaseDate: row.releaseDate,
    availability: availabilityView(row),
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
 * The release columns an Edit Release form writes, with the plan rules applied (spec 02 §1): without Pro
 * features there is one primary artist, the label cannot be set and both holders are the artist name, the
 * copyright year stays as submitted. Shared by Edit Release and post-release updates (record 197).
 */
export function editedReleaseColumns(
  viewer: Viewer,
  current: typeof releases.$inferSelect,
  input: EditRelease,
) {
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
  return {
    title: input.title,
    genre: input.genre,
    primaryArtists: input.primaryArtists,
    featuredArtists: input.featuredArtists,
    primaryArtistsData: mergeCredits(input.primaryArtists, current.primaryArtistsData),
    featuredArtistsData: mergeCredits(input.featuredArtists, current.featuredArtistsData),
    ...locked,
    // Release time and territories (record 199): left out of the input, they stay as they are.
    ...(input.availability ? availabilityColumns(current.releaseDate, input.availability) : {}),
  };
}

/** Edits the release while it is pending or processing (plan rules: editedReleaseColumns). */
export async function updateMyRelease(
  db: DbOrTx,
  viewer: Viewer,
  releaseId: string,
  input: EditRelease,
): Promise<ReleaseForEdit> {
  const current = await findOwned(db, viewer.account.id, releaseId);
  if (!current) throw releaseNotFound();
  if (!isReleaseEditable(current.status)) throw notEditable();
  const columns = editedReleaseColumns(viewer, current, input);
  const primaryData = columns.primaryArtistsData;
  const featuredData = columns.featuredArtistsData;
  const updated = await db.transaction(async (tx) => {
    // A moderator's decision landed between our read and this update: theirs wins (409).
    const row = await lockChangeable(tx, viewer, releaseId, columns);
    await syncTrackArtists(tx, releaseId, current, { primary: primaryData, featured: featuredData });
    // Who changed what, a team member named with the account (issue 43 finding 10, record 229).
    const { primaryArtistsData: _p, featuredArtistsData: _f, ...edited } = columns;
    const diff = changedFields(current as Record<string, unknown>, edited);
    if (diff) {
      await recordAudit(tx, viewer, {
        kind: 'release.edit',
        releaseId,
        subjectUserId: viewer.account.id,
        before: diff.before,
        after: diff.after,
      });
      // The changed fields' names, thin (issue 40): a receiver reads the release for their values.
      await emitWebhookEvent(tx, viewer.account.id, 'release.metadata_changed', {
        releaseId,
        fields: Object.keys(diff.after),
      });
    }
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
export async function syncTrackArtists(
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
      .where(and(eq(releases.id, releaseId), eq(releases.userId, viewer.account.id)))
      .for('update');
    if (!before) throw releaseNotFound();
    const [after] = await tx
      .update(releases)
      .set({ status: 'pending', rejectionReason: null, updatedAt: new Date() })
      .where(
        and(
          eq(releases.id, releaseId),
          eq(releases.userId, viewer.account.id),
          eq(releases.status, 'rejected'),
        ),
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
    await recordAudit(tx, viewer, {
      kind: 'release.resubmit',
      releaseId,
      subjectUserId: viewer.account.id,
      before: { title: before.title, status: before.status, rejectionReason: before.rejectionReason },
      after: { title: after.title, status: after.status, rejectionReason: after.rejectionReason },
    });
    return toReleaseForEdit(after);
  });
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
    const trackSummary = (list: { title: string; explicit: boolean }[]) =>
      list
        .map((track, index) => `${index + 1}. ${track.title}${track.explicit ? ' (explicit)' : ''}`)
        .join('; ');
    const previous = await tx
      .select({ title: tracks.title, explicit: tracks.explicit })
      .from(tracks)
      .where(eq(tracks.releaseId, releaseId))
      .orderBy(tracks.position);
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
          eq(releases.userId, viewer.account.id),
          inArray(releases.status, [...OWNER_CHANGEABLE_STATUSES]),
        ),
      )
      .returning({ id: releases.id });
    if (!row) {
      if (!(await findOwned(tx, viewer.account.id, releaseId))) throw releaseNotFound();
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
          // Left out: the stored answer stays (record 295).
          ...(track.aiDisclosure
            ? { aiUsage: track.aiDisclosure.usage, aiAreas: track.aiDisclosure.areas }
            : {}),
        })
        .where(and(eq(tracks.id, id), eq(tracks.releaseId, releaseId)));
      await replaceCredits(tx, id, track);
    }
    // Credits are replaced as a whole: the row names the tracks; the artists are in the release's row.
    await recordAudit(tx, viewer, {
      kind: 'release.edit_tracks',
      releaseId,
      subjectUserId: viewer.account.id,
      before: { tracks: trackSummary(previous) },
      after: {
        tracks: trackSummary(input.tracks),
        primaryArtists: allPrimary.map((artist) => artist.name).join(', '),
      },
    });
    await emitWebhookEvent(tx, viewer.account.id, 'release.metadata_changed', {
      releaseId,
      fields: ['tracks'],
    });
  });
}
