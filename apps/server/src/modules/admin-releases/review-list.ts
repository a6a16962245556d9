/**
 * The review list (spec 02 §4): the five tabs with their counts, a page of a tab in its order, and the
 * search. Counts come from the delta rows of migration 0008, pages from prepared statements per tab.
 */
import type { PlatformId, ReleaseStatus, Role } from '@tunedrop/shared';
import {
  ADMIN_RELEASE_TABS,
  ADMIN_TAB_STATUSES,
  type AdminReleaseCard,
  type AdminReleaseCounts,
  type AdminReleasesPage,
  type AdminReleaseTab,
  type AdminTrack,
  uploaderSubscription,
} from '@tunedrop/shared/schemas/admin-releases';
import type { AiReviewFilter } from '@tunedrop/shared/schemas/ai-disclosure';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  producers,
  profiles,
  releaseCountDeltas,
  releaseStoreTakedowns,
  releases,
  songwriters,
  tracks,
  userRoles,
} from '../../db/schema';
import { pageInfo, pageWindow } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import { firstRow, run } from '../../lib/sql';
import { availabilityView, coverUrl } from '../catalogue';
import { storeRejectionsOf, storeRejectionsSql } from '../delivery';
import { aiReviewCondition } from './ai-filter';

const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * A tab's condition with its statuses as literals (constants of the shared package, never user input):
 * the same text as the predicates of the partial indexes of migration 0008, so every plan, prepared ones
 * included, reads the tab's page in order from its own index.
 */
function tabCondition(tab: AdminReleaseTab): SQL {
  return tab === 'takedown'
    ? sql`(${releases.takedownRequested} or ${sql.raw(storeRequestCondition('"releases"'))})`
    : sql`${releases.status} in (${sql.raw(ADMIN_TAB_STATUSES[tab].map(quoted).join(', '))})`;
}

/**
 * A per-store takedown request the artist made (release_store_takedowns, state 'requested') on a
 * release still in the stores: it waits in the "Takedown Requests" tab beside whole-release requests
 * (issue 26 finding 3). `alias` is the releases row's alias (raw SQL, a constant of this module). The
 * requests are one uncorrelated set (few rows), so `flag or id = any(set)` reads two indexes (the tab's
 * partial index and the primary key) instead of scanning every release in the stores (record 206).
 */
function storeRequestCondition(alias: string): string {
  return `(${alias}.status in ('approved', 'live') and ${alias}.id = any (array(select s.release_id
    from release_store_takedowns s where s.state = 'requested')))`;
}

/** Every tab's count, each read by `count` (one object literal, so no tab can be left out). */
function countsOf(count: (tab: AdminReleaseTab) => number): AdminReleaseCounts {
  return {
    pending: count('pending'),
    approved: count('approved'),
    takedown: count('takedown'),
    rejected: count('rejected'),
    takendown: count('takendown'),
  };
}

/**
 * A tab's condition on the rows of tunedrop_search_releases (migration 0008), as raw SQL text. The store
 * requests are read once per search, not looked up per match.
 */
function searchTabCondition(tab: AdminReleaseTab): string {
  return tab === 'takedown'
    ? `(m.takedown_requested or ${storeRequestCondition('m')})`
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
  // Columns: one count per tab (named after it) and `ids`, the page's ids as a JSON array.
  const row = await firstRow<Partial<Record<AdminReleaseTab, number | string>> & { ids?: unknown }>(
    db,
    sql`with m as materialized (
      select * from tunedrop_search_releases(${containsPattern(q)}))
    select ${sql.raw(countColumns)},
           (select coalesce(json_agg(page.id order by ${sql.raw(SEARCH_ORDER[tab])}), '[]'::json)
              from (select m.id, m.created_at, m.takedown_requested_at from m
                     where ${sql.raw(searchTabCondition(tab))}
                     order by ${sql.raw(SEARCH_ORDER[tab])}
                     limit ${window.limit} offset ${window.offset}) page) as ids
      from m`,
  );
  const ids: unknown = typeof row?.ids === 'string' ? JSON.parse(row.ids) : row?.ids;
  return {
    counts: countsOf((name) => Number(row?.[name] ?? 0)),
    ids: Array.isArray(ids) ? ids.map(String) : [],
  };
}

/** Review queues first come, first served; the decided tabs show the newest first. */
function tabOrder(tab: AdminReleaseTab) {
  if (tab === 'pending') return [asc(releases.createdAt), asc(releases.id)];
  if (tab === 'takedown') {
    // A per-store request has no takedown_requested_at: it is ordered by its first store request.
    return [
      asc(sql`coalesce(${releases.takedownRequestedAt}, (select min(s.requested_at)
        from ${releaseStoreTakedowns} s where s.release_id = ${releases.id} and s.state = 'requested'))`),
      asc(releases.id),
    ];
  }
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
    'featuredArtists', t.featured_artists_data, 'aiUsage', t.ai_usage, 'aiAreas', t.ai_areas,
    'audioAnalysis', t.audio_analysis,
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

/** The stores the artist asked to leave, waiting for a decision (oldest first). */
const storeRequestsJson = sql<{ platformId: PlatformId; requestedAt: string }[]>`coalesce((
  select json_agg(json_build_object('platformId', s.platform_id, 'requestedAt', s.requested_at)
                  order by s.requested_at, s.platform_id)
    from ${releaseStoreTakedowns} s where s.release_id = ${releases.id} and s.state = 'requested'), '[]'::json)`;

/**
 * Releases in the stores with per-store requests only (a whole-release request is already counted by
 * the delta rows): added to the "Takedown Requests" count. The table holds few 'requested' rows.
 */
const storeRequestOnlyCountSql = sql<number>`(select count(*)::int from ${releases} r
  where not r.takedown_requested and ${sql.raw(storeRequestCondition('r'))})`;

async function storeRequestOnlyCount(db: DbOrTx): Promise<number> {
  const row = await firstRow<{ count: number | string }>(
    db,
    sql`select ${storeRequestOnlyCountSql} as count`,
  );
  return Number(row?.count ?? 0);
}

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
      // Uncorrelated too (an InitPlan): the page's prepared statement carries it, no statement of its own.
      storeRequestOnly: withCounts ? storeRequestOnlyCountSql : sql<number | null>`null`,
      // Only what a card shows (not every column of releases, search_text included): less to read,
      // map and carry per row (record 183).
      release: {
        id: releases.id,
        title: releases.title,
        status: releases.status,
        primaryArtists: releases.primaryArtists,
        primaryArtistsData: releases.primaryArtistsData,
        featuredArtists: releases.featuredArtists,
        featuredArtistsData: releases.featuredArtistsData,
        genre: releases.genre,
        releaseDate: releases.releaseDate,
        releaseTimeMode: releases.releaseTimeMode,
        releaseTime: releases.releaseTime,
        releaseTimeZone: releases.releaseTimeZone,
        releaseAt: releases.releaseAt,
        territoryMode: releases.territoryMode,
        territories: releases.territories,
        originalReleaseDate: releases.originalReleaseDate,
        labelName: releases.labelName,
        upc: releases.upc,
        copyrightHolder: releases.copyrightHolder,
        copyrightYear: releases.copyrightYear,
        publishingHolder: releases.publishingHolder,
        publishingYear: releases.publishingYear,
        distributionStores: releases.distributionStores,
        rejectionReason: releases.rejectionReason,
        takedownRequested: releases.takedownRequested,
        takedownRequestedAt: releases.takedownRequestedAt,
        createdAt: releases.createdAt,
        coverThumbMediumKey: releases.coverThumbMediumKey,
        coverArtKey: releases.coverArtKey,
      },
      uploader: {
        id: profiles.id,
        email: profiles.email,
        artistName: profiles.artistName,
        banned: profiles.banned,
        banReason: profiles.banReason,
        // The subscription and the roles that waive it: a lapse shows on the card (issue 26).
        subscriptionStatus: profiles.subscriptionStatus,
        subscriptionEnd: profiles.subscriptionEnd,
        waivingRoles: sql<Role[]>`array(select r.role from ${userRoles} r
          where r.user_id = ${profiles.id} and r.role in ('admin', 'free_access'))`,
      },
      tracks: tracksJson,
      storeRequests: storeRequestsJson,
      storeRejections: storeRejectionsSql(releases.id),
    })
    .from(releases)
    .innerJoin(profiles, eq(profiles.id, releases.userId))
    .where(and(tabCondition(tab), search))
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
    const prepared = (tab: AdminReleaseTab) =>
      reviewPageQuery(db, tab, undefined, true).prepare(`tunedrop_review_${tab}`);
    queries = {
      pages: {
        pending: prepared('pending'),
        approved: prepared('approved'),
        takedown: prepared('takedown'),
        rejected: prepared('rejected'),
        takendown: prepared('takendown'),
      },
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
  const counts = countsOf(() => 0);
  let deltaRows = 0;
  for (const row of rows) {
    deltaRows += row.rows;
    if (row.takedownRequested) counts.takedown += row.count;
    for (const tab of ADMIN_RELEASE_TABS) {
      if (tab !== 'takedown' && ADMIN_TAB_STATUSES[tab].includes(row.status)) counts[tab] += row.count;
    }
  }
  if (deltaRows > DELTA_ROWS_TO_FOLD) {
    await run(
      db,
      sql`with gone as (delete from ${releaseCountDeltas} returning *)
      insert into ${releaseCountDeltas} (status, takedown_requested, delta)
      select status, takedown_requested, sum(delta) from gone group by 1, 2 having sum(delta) <> 0`,
    );
  }
  return counts;
}

export async function listReviewReleases(
  db: DbOrTx,
  query: {
    tab: AdminReleaseTab;
    q?: string | undefined;
    ai?: AiReviewFilter | undefined;
    page: number;
    pageSize: number;
  },
): Promise<AdminReleasesPage> {
  const queries = queriesOf(db);
  const window = pageWindow(query.page, query.pageSize);
  let counts: AdminReleaseCounts;
  let rows: Awaited<ReturnType<ReviewQueries['pages'][AdminReleaseTab]['execute']>>;
  if (query.ai) {
    // The AI use filter (record 295): an unprepared page and counts over the filtered releases.
    const filter = and(
      aiReviewCondition(query.ai),
      query.q
        ? sql`${releases.id} in (select id from tunedrop_search_releases(${containsPattern(query.q)}))`
        : undefined,
    );
    const countColumns = ADMIN_RELEASE_TABS.map(
      (name) => sql`(count(*) filter (where ${tabCondition(name)}))::int as ${sql.identifier(name)}`,
    );
    const row = await firstRow<Partial<Record<AdminReleaseTab, number | string>>>(
      db,
      sql`select ${sql.join(countColumns, sql`, `)} from ${releases} where ${filter}`,
    );
    counts = countsOf((name) => Number(row?.[name] ?? 0));
    rows = await reviewPageQuery(db, query.tab, filter, false).execute({
      limit: window.limit,
      offset: window.offset,
    });
  } else if (query.q) {
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
    const first = rows[0];
    counts = await tabCounts(db, first ? (first.deltas ?? []) : await queries.deltas.execute());
    counts.takedown += first ? Number(first.storeRequestOnly ?? 0) : await storeRequestOnlyCount(db);
  }

  const items: AdminReleaseCard[] = rows.map(
    ({ release, uploader, tracks: trackRows, storeRequests, storeRejections }) => ({
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
      availability: availabilityView(release),
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
      storeTakedownRequests: (storeRequests ?? []).map((request) => ({
        platformId: request.platformId,
        requestedAt: new Date(request.requestedAt).toISOString(),
      })),
      storeRejections: storeRejectionsOf(storeRejections),
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
        subscription: uploaderSubscription({ ...uploader, roles: uploader.waivingRoles }),
      },
      tracks: trackRows.map((track) => ({
        ...track,
        fileSizeBytes: Number(track.fileSizeBytes),
        audioUrl: `/api/admin/releases/${release.id}/tracks/${track.id}/audio`,
      })),
    }),
  );

  return {
    items,
    counts,
    ...pageInfo(query.page, query.pageSize, counts[query.tab]),
    totalPages: Math.max(1, Math.ceil(counts[query.tab] / query.pageSize)),
  };
}
