/**
 * Release review (spec 02 §2, §4, §6): the five tabs with counts and search, the decisions, permanent
 * delete and bans of the uploader. Each decision locks the row, re-checks the status in the UPDATE's
 * WHERE, and writes its audit row and the artist's mail in the same transaction, so two moderators can
 * never both decide one release.
 */
import type { ReleaseStatus } from '@tunedrop/shared';
import {
  ADMIN_RELEASE_TABS,
  ADMIN_TAB_STATUSES,
  type AdminReleaseCard,
  type AdminReleaseCounts,
  type AdminReleasesPage,
  type AdminReleaseTab,
  type AdminTrack,
  DECISION_FROM,
} from '@tunedrop/shared/schemas/admin-releases';
import { RELEASE_STATUS_LABELS } from '@tunedrop/shared/schemas/releases';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import {
  producers,
  profiles,
  releaseCountDeltas,
  releases,
  songwriters,
  tracks,
  userRoles,
} from '../../db/schema';
import type { Deps } from '../../deps';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { pageInfo, pageWindow } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import { afterReleaseDecision, assertNotAtStores } from '../delivery/planning';
import { enqueueReleaseMail, type ReleaseMailKind } from '../releases/mails';
import { coverUrl, deleteReleaseRows, releaseNotFound, removeStoredFiles } from '../releases/service';
import { type AuditAction, writeAudit } from './audit';

// ------------------------------------------------------------------ list

const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Each tab's condition with its statuses as literals (constants of the shared package, never user input):
 * the same text as the predicates of the partial indexes of migration 0008, so every plan, prepared ones
 * included, reads the tab's page in order from its own index.
 */
const TAB_CONDITIONS: Record<AdminReleaseTab, SQL> = Object.fromEntries(
  ADMIN_RELEASE_TABS.map((tab) => [
    tab,
    tab === 'takedown'
      ? sql`${releases.takedownRequested}`
      : sql`${releases.status} in (${sql.raw(ADMIN_TAB_STATUSES[tab].map(quoted).join(', '))})`,
  ]),
) as Record<AdminReleaseTab, SQL>;

/** A tab's condition on the rows of tunedrop_search_releases (migration 0008), as raw SQL text. */
function searchTabCondition(tab: AdminReleaseTab): string {
  return tab === 'takedown'
    ? 'm.takedown_requested'
    : `m.status in (${ADMIN_TAB_STATUSES[tab].map(quoted).join(', ')})`;
}

const SEARCH_ORDER: Record<AdminReleaseTab, string> = {
  pending: 'created_at, id',
  takedown: 'takedown_requested_at, id',
  approved: 'created_at desc, id desc',
  rejected: 'created_at desc, id desc',
  takendown: 'created_at desc, id desc',
};

/**
 * A search in one pass over its trigram index (title and artists, or the uploader's email; migration
 * 0008): every tab's count within the matches and the ids of the requested page, in the tab's order.
 */
async function searchSummary(
  db: DbOrTx,
  q: string,
  tab: AdminReleaseTab,
  window: { limit: number; offset: number },
): Promise<{ counts: AdminReleaseCounts; ids: string[] }> {
  const countColumns = ADMIN_RELEASE_TABS.map(
    (name) => `(count(*) filter (where ${searchTabCondition(name)}))::int as "${name}"`,
  ).join(', ');
  const result = (await db.execute(sql`with m as materialized (
      select * from tunedrop_search_releases(${containsPattern(q)}))
    select ${sql.raw(countColumns)},
           (select coalesce(json_agg(page.id order by ${sql.raw(SEARCH_ORDER[tab])}), '[]'::json)
              from (select m.id, m.created_at, m.takedown_requested_at from m
                     where ${sql.raw(searchTabCondition(tab))}
                     order by ${sql.raw(SEARCH_ORDER[tab])}
                     limit ${window.limit} offset ${window.offset}) page) as ids
      from m`)) as unknown as { rows: Record<string, unknown>[] };
  const row = result.rows[0] ?? {};
  const ids = typeof row.ids === 'string' ? JSON.parse(row.ids) : row.ids;
  return {
    counts: Object.fromEntries(
      ADMIN_RELEASE_TABS.map((name) => [name, Number(row[name] ?? 0)]),
    ) as AdminReleaseCounts,
    ids: Array.isArray(ids) ? ids.map(String) : [],
  };
}

/** Review queues first come, first served; the decided tabs show the newest first. */
function tabOrder(tab: AdminReleaseTab) {
  if (tab === 'pending') return [asc(releases.createdAt), asc(releases.id)];
  if (tab === 'takedown') return [asc(releases.takedownRequestedAt), asc(releases.id)];
  return [desc(releases.createdAt), desc(releases.id)];
}

type TrackJson = Omit<AdminTrack, 'audioUrl'>;

/** A page's tracks with their credits, built in the page query (no query per table). */
const tracksJson = sql<TrackJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', t.id, 'position', t.position, 'title', t.title, 'isrc', t.isrc, 'explicit', t.explicit,
    'durationMs', t.duration_ms, 'originalFileName', t.original_file_name, 'fileKey', t.file_key,
    'fileSizeBytes', t.file_size_bytes, 'sampleRate', t.sample_rate, 'bitDepth', t.bit_depth,
    'channels', t.channels, 'primaryArtists', t.primary_artists_data,
    'featuredArtists', t.featured_artists_data,
    'songwriters', coalesce((
      select json_agg(json_build_object('firstName', w.first_name, 'middleName', w.middle_name,
                                        'lastName', w.last_name, 'role', w.role))
        from ${songwriters} w where w.track_id = t.id), '[]'::json),
    'producers', coalesce((
      select json_agg(json_build_object('firstName', p.first_name, 'middleName', p.middle_name,
                                        'lastName', p.last_name))
        from ${producers} p where p.track_id = t.id), '[]'::json)
  ) order by t.position)
  from ${tracks} t where t.release_id = ${releases.id}), '[]'::json)`;

type DeltaRow = { status: ReleaseStatus; takedownRequested: boolean; count: number; rows: number };

/**
 * The summed delta rows as one JSON value. Uncorrelated, so in the page query it is an InitPlan: run once
 * per statement, and the page and its counts come in one round trip.
 */
const deltasJson = sql<DeltaRow[] | null>`(select json_agg(d) from (
  select status, takedown_requested as "takedownRequested", sum(delta)::int as count, count(*)::int as rows
    from ${releaseCountDeltas} group by 1, 2) d)`;

function reviewPageQuery(db: DbOrTx, tab: AdminReleaseTab, search: SQL | undefined, withCounts: boolean) {
  return db
    .select({
      deltas: withCounts ? deltasJson : sql<DeltaRow[] | null>`null`,
      release: releases,
      uploader: {
        id: profiles.id,
        email: profiles.email,
        artistName: profiles.artistName,
        banned: profiles.banned,
        banReason: profiles.banReason,
      },
      tracks: tracksJson,
    })
    .from(releases)
    .innerJoin(profiles, eq(profiles.id, releases.userId))
    .where(and(TAB_CONDITIONS[tab], search))
    .orderBy(...tabOrder(tab))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

type ReviewQueries = {
  pages: Record<AdminReleaseTab, ReturnType<ReturnType<typeof reviewPageQuery>['prepare']>>;
  deltas: ReturnType<typeof deltaQuery>;
};

function deltaQuery(db: DbOrTx) {
  return db
    .select({
      status: releaseCountDeltas.status,
      takedownRequested: releaseCountDeltas.takedownRequested,
      count: sql<number>`sum(${releaseCountDeltas.delta})::int`.mapWith(Number),
      rows: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(releaseCountDeltas)
    .groupBy(releaseCountDeltas.status, releaseCountDeltas.takedownRequested)
    .prepare('tunedrop_review_counts');
}

/** The list's statements without a search, built once per database (building cost more than running). */
const reviewQueries = new WeakMap<object, ReviewQueries>();

function queriesOf(db: DbOrTx): ReviewQueries {
  let queries = reviewQueries.get(db);
  if (!queries) {
    queries = {
      pages: Object.fromEntries(
        ADMIN_RELEASE_TABS.map((tab) => [
          tab,
          reviewPageQuery(db, tab, undefined, true).prepare(`tunedrop_review_${tab}`),
        ]),
      ) as ReviewQueries['pages'],
      deltas: deltaQuery(db),
    };
    reviewQueries.set(db, queries);
  }
  return queries;
}

/** Delta rows beyond this are folded into one row per (status, flag) by the next reader. */
const DELTA_ROWS_TO_FOLD = 200;

/**
 * Every tab's count from the delta rows the triggers of migration 0008 append (no scan of releases).
 * When they have grown, they are folded: each row is deleted by exactly one statement (a concurrent fold
 * skips the rows another one deleted) and its sum inserted by that same statement, so no change is lost.
 */
async function tabCounts(db: DbOrTx, rows: DeltaRow[]): Promise<AdminReleaseCounts> {
  const counts = Object.fromEntries(ADMIN_RELEASE_TABS.map((tab) => [tab, 0])) as AdminReleaseCounts;
  let deltaRows = 0;
  for (const row of rows) {
    deltaRows += row.rows;
    if (row.takedownRequested) counts.takedown += row.count;
    for (const tab of ADMIN_RELEASE_TABS) {
      if (tab !== 'takedown' && ADMIN_TAB_STATUSES[tab].includes(row.status)) counts[tab] += row.count;
    }
  }
  if (deltaRows > DELTA_ROWS_TO_FOLD) {
    await db.execute(sql`with gone as (delete from ${releaseCountDeltas} returning *)
      insert into ${releaseCountDeltas} (status, takedown_requested, delta)
      select status, takedown_requested, sum(delta) from gone group by 1, 2 having sum(delta) <> 0`);
  }
  return counts;
}

export async function listReviewReleases(
  db: DbOrTx,
  query: { tab: AdminReleaseTab; q?: string | undefined; page: number; pageSize: number },
): Promise<AdminReleasesPage> {
  const queries = queriesOf(db);
  const window = pageWindow(query.page, query.pageSize);
  let counts: AdminReleaseCounts;
  let rows: Awaited<ReturnType<ReviewQueries['pages'][AdminReleaseTab]['execute']>>;
  if (query.q) {
    // A search has no prepared shape: its page is read by the ids its one pass found.
    const summary = await searchSummary(db, query.q, query.tab, window);
    counts = summary.counts;
    rows = summary.ids.length
      ? await reviewPageQuery(db, query.tab, inArray(releases.id, summary.ids), false).execute({
          limit: window.limit,
          offset: 0,
        })
      : [];
  } else {
    rows = await queries.pages[query.tab].execute({ limit: window.limit, offset: window.offset });
    // The page query carries the counts; past the last page (no row) they are read on their own.
    counts = await tabCounts(db, rows[0] ? (rows[0].deltas ?? []) : await queries.deltas.execute());
  }

  const items: AdminReleaseCard[] = rows.map(({ release, uploader, tracks: trackRows }) => ({
    id: release.id,
    title: release.title,
    status: release.status,
    primaryArtists:
      release.primaryArtistsData.length > 0
        ? release.primaryArtistsData
        : release.primaryArtists.map((name) => ({ name })),
    featuredArtists:
      release.featuredArtistsData.length > 0
        ? release.featuredArtistsData
        : release.featuredArtists.map((name) => ({ name })),
    genre: release.genre,
    releaseDate: release.releaseDate,
    originalReleaseDate: release.originalReleaseDate,
    labelName: release.labelName,
    upc: release.upc,
    copyrightHolder: release.copyrightHolder,
    copyrightYear: release.copyrightYear,
    publishingHolder: release.publishingHolder,
    publishingYear: release.publishingYear,
    distributionStores: release.distributionStores,
    rejectionReason: release.rejectionReason,
    isTakedownRequested: release.takedownRequested,
    takedownRequestedAt: release.takedownRequestedAt?.toISOString() ?? null,
    createdAt: release.createdAt.toISOString(),
    coverUrl: release.coverThumbMediumKey
      ? coverUrl(release.id, 'medium', release.coverThumbMediumKey)
      : null,
    coverArtKey: release.coverArtKey,
    uploader: {
      id: uploader.id,
      email: uploader.email,
      artistName: uploader.artistName,
      isBanned: uploader.banned,
      banReason: uploader.banReason,
    },
    tracks: trackRows.map((track) => ({
      ...track,
      fileSizeBytes: Number(track.fileSizeBytes),
      audioUrl: `/api/admin/releases/${release.id}/tracks/${track.id}/audio`,
    })),
  }));

  return {
    items,
    counts,
    ...pageInfo(query.page, query.pageSize, counts[query.tab]),
    totalPages: Math.max(1, Math.ceil(counts[query.tab] / query.pageSize)),
  };
}

// ------------------------------------------------------------------ decisions

export type Decision =
  | 'approve'
  | 'reject'
  | 'unapprove'
  | 'unreject'
  | 'takedown_approve'
  | 'takedown_reject';

type DecisionPlan = {
  action: AuditAction;
  where: SQL;
  set: Partial<typeof releases.$inferInsert>;
  mail?: ReleaseMailKind;
};

function planDecision(decision: Decision, reason?: string): DecisionPlan {
  switch (decision) {
    case 'approve':
      return {
        action: 'release.approve',
        where: inArray(releases.status, [...DECISION_FROM.approve]),
        set: { status: 'approved', rejectionReason: null },
        mail: 'approved',
      };
    case 'reject':
      return {
        action: 'release.reject',
        where: inArray(releases.status, [...DECISION_FROM.reject]),
        set: { status: 'rejected', rejectionReason: reason ?? null },
        mail: 'rejected',
      };
    case 'unapprove':
      return {
        action: 'release.unapprove',
        where: inArray(releases.status, [...DECISION_FROM.unapprove]),
        set: { status: 'pending' },
      };
    case 'unreject':
      return {
        action: 'release.unreject',
        where: inArray(releases.status, [...DECISION_FROM.unreject]),
        set: { status: 'pending', rejectionReason: null },
      };
    case 'takedown_approve':
      return {
        action: 'release.takedown_approve',
        where: eq(releases.takedownRequested, true),
        set: { status: 'taken_down', takedownRequested: false },
        mail: 'taken_down',
      };
    case 'takedown_reject':
      return {
        action: 'release.takedown_reject',
        where: eq(releases.takedownRequested, true),
        set: { takedownRequested: false, takedownRequestedAt: null },
      };
  }
}

const snapshot = (row: typeof releases.$inferSelect) => ({
  status: row.status,
  rejectionReason: row.rejectionReason,
  takedownRequested: row.takedownRequested,
  takedownRequestedAt: row.takedownRequestedAt?.toISOString() ?? null,
});

/** 409 for a card that no longer matches the database; the message says what the release is now. */
export function staleDecision(decision: Decision, current: typeof releases.$inferSelect): AppError {
  const label = RELEASE_STATUS_LABELS[current.status] ?? current.status;
  const message =
    decision === 'takedown_approve' || decision === 'takedown_reject'
      ? `This takedown request has already been decided (the release is now ${label}). The list has been refreshed.`
      : `This release was changed in the meantime and is now ${label}${
          current.takedownRequested ? ' with a takedown request' : ''
        }. The list has been refreshed.`;
  return new AppError('release_state_changed', message, 409);
}

export async function decideRelease(
  deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>,
  viewer: Viewer,
  releaseId: string,
  decision: Decision,
  reason?: string,
): Promise<{ status: ReleaseStatus; isTakedownRequested: boolean }> {
  const plan = planDecision(decision, reason);
  const result = await deps.db.transaction(async (tx) => {
    // The lock makes a concurrent decision wait here, then fail the WHERE below on the new status.
    const [before] = await tx.select().from(releases).where(eq(releases.id, releaseId)).for('update');
    if (!before) throw releaseNotFound();
    const [after] = await tx
      .update(releases)
      .set({ ...plan.set, updatedAt: new Date() })
      .where(and(eq(releases.id, releaseId), plan.where))
      .returning();
    if (!after) throw staleDecision(decision, before);
    // Delivery (issue 15): codes and jobs at approval, takedown messages to the stores, status events.
    const delivery = await afterReleaseDecision(tx, deps.config, decision, before, after.rejectionReason);
    if (delivery.keepStatus && delivery.keepStatus !== after.status) {
      // The release stays out until every store confirmed the takedown (the worker then sets taken_down).
      await tx.update(releases).set({ status: delivery.keepStatus }).where(eq(releases.id, releaseId));
      after.status = delivery.keepStatus;
    }
    await writeAudit(tx, viewer, {
      action: plan.action,
      releaseId,
      subjectUserId: before.userId,
      before: { title: before.title, ...snapshot(before) },
      after: { title: after.title, ...snapshot(after) },
    });
    if (plan.mail) {
      const [uploader] = await tx
        .select({ email: profiles.email, artistName: profiles.artistName })
        .from(profiles)
        .where(eq(profiles.id, before.userId));
      if (uploader) {
        await enqueueReleaseMail(tx, plan.mail, {
          to: uploader.email,
          artistName: uploader.artistName,
          releaseTitle: after.title,
          appUrl: deps.config.appUrl,
          reason: after.rejectionReason,
        });
      }
    }
    return after;
  });
  if (plan.mail) deps.wakeMail();
  return { status: result.status, isTakedownRequested: result.takedownRequested };
}

export async function deleteReleasePermanently(
  deps: Pick<Deps, 'db' | 'storage' | 'logger'>,
  viewer: Viewer,
  releaseId: string,
): Promise<void> {
  const removed = await deps.db.transaction(async (tx) => {
    await assertNotAtStores(tx, releaseId);
    const result = await deleteReleaseRows(
      tx,
      releaseId,
      inArray(releases.status, [...DECISION_FROM.delete]),
    );
    if (!result) {
      const [current] = await tx.select().from(releases).where(eq(releases.id, releaseId));
      if (!current) throw releaseNotFound();
      throw new AppError(
        'release_state_changed',
        `Only approved, rejected or taken-down releases can be deleted permanently; this release is now ${
          RELEASE_STATUS_LABELS[current.status] ?? current.status
        }. The list has been refreshed.`,
        409,
      );
    }
    const { row } = result;
    await writeAudit(tx, viewer, {
      action: 'release.delete',
      releaseId,
      subjectUserId: row.userId,
      before: {
        title: row.title,
        ...snapshot(row),
        primaryArtists: row.primaryArtists,
        trackCount: result.trackCount,
        files: result.fileKeys,
      },
      after: null,
    });
    return result;
  });
  await removeStoredFiles(deps.storage, deps.logger, removed.fileKeys);
}

// ------------------------------------------------------------------ bans

export async function setUploaderBan(
  db: Db,
  viewer: Viewer,
  releaseId: string,
  ban: { reason: string } | null,
): Promise<{ isBanned: boolean; banReason: string | null }> {
  return db.transaction(async (tx) => {
    const [release] = await tx
      .select({ userId: releases.userId })
      .from(releases)
      .where(eq(releases.id, releaseId))
      .limit(1);
    if (!release) throw releaseNotFound();
    if (ban && release.userId === viewer.user.id) {
      throw new AppError('cannot_ban_self', 'You cannot ban your own account.', 409);
    }
    if (ban) {
      const staff = await tx
        .select({ role: userRoles.role })
        .from(userRoles)
        .where(and(eq(userRoles.userId, release.userId), inArray(userRoles.role, ['admin', 'moderator'])));
      if (staff.length > 0) {
        throw new AppError(
          'cannot_ban_staff',
          'Admins and moderators cannot be banned from release review.',
          403,
        );
      }
    }
    const [before] = await tx
      .select({ banned: profiles.banned, banReason: profiles.banReason, bannedAt: profiles.bannedAt })
      .from(profiles)
      .where(eq(profiles.id, release.userId))
      .for('update');
    if (!before) throw notFound('User not found.');
    const [after] = await tx
      .update(profiles)
      .set(
        ban
          ? { banned: true, banReason: ban.reason, bannedAt: new Date(), updatedAt: new Date() }
          : { banned: false, banReason: null, bannedAt: null, updatedAt: new Date() },
      )
      .where(and(eq(profiles.id, release.userId), eq(profiles.banned, !ban)))
      .returning({ banned: profiles.banned, banReason: profiles.banReason, bannedAt: profiles.bannedAt });
    if (!after) {
      throw new AppError(
        'user_state_changed',
        ban
          ? 'This user is already banned. The list has been refreshed.'
          : 'This user is not banned any more. The list has been refreshed.',
        409,
      );
    }
    const view = (state: typeof before) => ({
      banned: state.banned,
      banReason: state.banReason,
      bannedAt: state.bannedAt?.toISOString() ?? null,
    });
    await writeAudit(tx, viewer, {
      action: ban ? 'user.ban' : 'user.unban',
      releaseId,
      subjectUserId: release.userId,
      before: view(before),
      after: view(after),
    });
    return { isBanned: after.banned, banReason: after.banReason };
  });
}

// ------------------------------------------------------------------ files

export async function trackFile(
  db: DbOrTx,
  releaseId: string,
  trackId: string,
): Promise<{ key: string; name: string }> {
  const [track] = await db
    .select({ key: tracks.fileKey, name: tracks.originalFileName })
    .from(tracks)
    .where(and(eq(tracks.id, trackId), eq(tracks.releaseId, releaseId)))
    .limit(1);
  if (!track) throw notFound('Track not found.');
  return track;
}
