/**
 * Post-release updates as the artist and the reviewer see them (issue 26, record 197): the before/after
 * diff of details, tracks' credits and ISRC (record 236), cover and audio; the lists; the files behind it.
 */
import {
  RELEASE_UPDATE_FIELD_LABELS,
  type ReleaseUpdateChange,
  type ReleaseUpdateView,
} from '@tunedrop/shared/schemas/release-updates';
import type { EditRelease } from '@tunedrop/shared/schemas/releases';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profiles, releases } from '../../db/schema';
import { releaseUpdates } from '../../db/schema/release-updates';
import type { Viewer } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { releaseNotFound } from '../catalogue';
import { trackCreditChanges } from './track-credits';

type ReleaseRow = typeof releases.$inferSelect;
type UpdateRow = typeof releaseUpdates.$inferSelect;

export const updateNotFound = () => notFound('Update not found.');

const DETAIL_FIELDS = Object.keys(RELEASE_UPDATE_FIELD_LABELS) as (keyof EditRelease)[];

export const detailsOf = (row: ReleaseRow): EditRelease => ({
  title: row.title,
  primaryArtists: row.primaryArtists,
  featuredArtists: row.featuredArtists,
  genre: row.genre as EditRelease['genre'],
  labelName: row.labelName,
  copyrightHolder: row.copyrightHolder,
  copyrightYear: row.copyrightYear,
  publishingHolder: row.publishingHolder,
});

export const shown = (value: unknown): string =>
  Array.isArray(value)
    ? value.join(', ') || '—'
    : value === null || value === undefined || value === ''
      ? '—'
      : String(value);

export function changedFields(before: EditRelease, after: EditRelease) {
  return DETAIL_FIELDS.filter((field) => shown(before[field]) !== shown(after[field]));
}

/** The before/after lines the artist and the reviewer see. */
function changesOf(row: UpdateRow): ReleaseUpdateChange[] {
  const changes: ReleaseUpdateChange[] = [];
  if (row.details) {
    for (const field of changedFields(row.before.details, row.details)) {
      changes.push({
        kind: 'detail',
        field,
        label: RELEASE_UPDATE_FIELD_LABELS[field] ?? field,
        before: shown(row.before.details[field]),
        after: shown(row.details[field]),
      });
    }
  }
  changes.push(...trackCreditChanges(row.before, row.tracks));
  if (row.cover) {
    changes.push({
      kind: 'cover',
      label: 'Cover art',
      beforeUrl: row.before.coverThumbMediumKey ? `/api/release-updates/${row.id}/cover/before` : null,
      afterUrl: `/api/release-updates/${row.id}/cover/after`,
      afterName: row.cover.originalName,
    });
  }
  for (const item of row.audio) {
    const track = row.before.tracks.find((t) => t.id === item.trackId);
    changes.push({
      kind: 'audio',
      label: 'Audio',
      trackId: item.trackId,
      trackTitle: track?.title ?? 'Track',
      before: track?.originalFileName ?? '—',
      after: item.originalFileName,
      afterUrl: `/api/release-updates/${row.id}/tracks/${item.trackId}/audio`,
    });
  }
  return changes;
}

export function toView(
  row: UpdateRow,
  release: Pick<ReleaseRow, 'title' | 'status'>,
  artistName: string,
): ReleaseUpdateView {
  return {
    id: row.id,
    releaseId: row.releaseId,
    releaseTitle: release.title,
    releaseStatus: release.status,
    artistName,
    state: row.state,
    changes: changesOf(row),
    rejectionReason: row.rejectionReason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

async function views(db: DbOrTx, where: SQL | undefined, limit: number): Promise<ReleaseUpdateView[]> {
  const rows = await db
    .select({ update: releaseUpdates, release: releases, artistName: profiles.artistName })
    .from(releaseUpdates)
    .innerJoin(releases, eq(releases.id, releaseUpdates.releaseId))
    .innerJoin(profiles, eq(profiles.id, releases.userId))
    .where(where)
    .orderBy(desc(releaseUpdates.createdAt))
    .limit(limit);
  return rows.map((row) => toView(row.update, row.release, row.artistName));
}

/** GET /api/releases/:id/update: the owner's update in review, else the last decided one (or null). */
export async function latestUpdate(
  db: DbOrTx,
  accountId: string,
  releaseId: string,
): Promise<ReleaseUpdateView | null> {
  const [owned] = await db
    .select({ id: releases.id })
    .from(releases)
    .where(and(eq(releases.id, releaseId), eq(releases.userId, accountId)));
  if (!owned) throw releaseNotFound();
  const [latest] = await views(db, eq(releaseUpdates.releaseId, releaseId), 1);
  return latest ?? null;
}

/** GET /api/admin/release-updates: the updates waiting for review, oldest last (the newest first). */
export async function updatesInReview(db: DbOrTx, releaseId?: string): Promise<ReleaseUpdateView[]> {
  return views(
    db,
    and(
      eq(releaseUpdates.state, 'in_review'),
      releaseId ? eq(releaseUpdates.releaseId, releaseId) : undefined,
    ),
    200,
  );
}

/**
 * The storage key behind a diff's picture or player: the cover before or after, or a proposed WAV. The
 * owner of the release or staff only (anyone else: 404).
 */
export async function updateFileKey(
  db: DbOrTx,
  viewer: Viewer,
  isStaff: boolean,
  updateId: string,
  file: { kind: 'cover'; which: 'before' | 'after' } | { kind: 'audio'; trackId: string },
): Promise<string> {
  const [row] = await db.select().from(releaseUpdates).where(eq(releaseUpdates.id, updateId));
  if (!row || (!isStaff && row.userId !== viewer.account.id)) throw updateNotFound();
  const key =
    file.kind === 'cover'
      ? file.which === 'before'
        ? row.before.coverThumbMediumKey
        : (row.cover?.thumbMediumKey ?? row.cover?.artKey)
      : row.audio.find((item) => item.trackId === file.trackId)?.fileKey;
  // A decided update's proposed files may be gone; the release's own routes serve what it has now.
  if (!key || (row.state !== 'in_review' && !(file.kind === 'cover' && file.which === 'before')))
    throw notFound('File not found.');
  return key;
}
