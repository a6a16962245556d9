/**
 * Content ID claims (issue 28, decision 193): the videos an artist's tracks claim on YouTube, read from the
 * imported YouTube reports (royalty-imports/youtube-claims.ts writes them), with views and earnings of the posted
 * reports. The artist asks for a claim to be released; staff release it in YouTube's CMS and mark it done.
 * Ownership is in every query: another artist's claim answers 404 like an unknown one.
 */
import {
  type AdminContentIdClaim,
  CLAIM_MESSAGES,
  type ClaimReleaseReason,
  type ClaimStatus,
  type ClaimsPage,
  type ClaimsQuery,
  type ContentIdClaimView,
} from '@tunedrop/shared/schemas/content-id-claims';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { contentIdClaims, contentIdTracks, tracks } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { containsPattern } from '../../lib/search';
import { rows } from '../../lib/sql';
import { recordAudit } from '../audit';

type ClaimRow = {
  id: string;
  videoId: string;
  videoTitle: string | null;
  channelId: string | null;
  channelName: string | null;
  trackId: string;
  trackTitle: string;
  assetId: string | null;
  views: string | number;
  earningsUsd: string;
  status: ClaimStatus;
  releaseReason: ClaimReleaseReason | null;
  releaseRequestedAt: Date | string | null;
  releasedAt: Date | string | null;
  userId: string;
  artistName: string | null;
  email: string;
};

const iso = (value: Date | string | null) =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

function view(row: ClaimRow): ContentIdClaimView {
  return {
    id: row.id,
    videoId: row.videoId,
    videoTitle: row.videoTitle,
    channelId: row.channelId,
    channelName: row.channelName,
    trackId: row.trackId,
    trackTitle: row.trackTitle,
    assetId: row.assetId,
    views: Number(row.views),
    earningsUsd: row.earningsUsd,
    status: row.status,
    releaseReason: row.releaseReason,
    releaseRequestedAt: iso(row.releaseRequestedAt),
    releasedAt: iso(row.releasedAt),
  };
}

/** What a claims list asks for: a search and a page (claimsQuerySchema); none is every claim. */
type Paging = Pick<ClaimsQuery, 'q' | 'page' | 'limit'>;

/**
 * Claims with their views and USD earnings summed over the posted reports (each report's amounts at its
 * fixed rate, exact decimal text), filtered by `where` and the search, one page of them with the count of
 * all (issue 43 finding 11). A claim only in reports not yet posted is not shown to the artist
 * (`postedOnly`), staff see it.
 */
async function selectClaims(db: DbOrTx, where: SQL, postedOnly: boolean, paging?: Paging) {
  const q = paging?.q ?? '';
  const search = q
    ? sql`and (lower(coalesce(c.video_title, '')) like ${containsPattern(q)}
           or lower(c.video_id) like ${containsPattern(q)}
           or lower(t.title) like ${containsPattern(q)}
           or lower(coalesce(t.isrc, '')) like ${containsPattern(q)}
           or lower(coalesce(c.asset_id, '')) like ${containsPattern(q)})`
    : sql``;
  const page = paging ? sql`limit ${paging.limit} offset ${(paging.page - 1) * paging.limit}` : sql``;
  return rows<ClaimRow & { total: string | number }>(
    db,
    sql`
      select c.id, c.video_id, c.video_title, c.channel_id, c.channel_name, c.track_id, t.title as track_title,
             c.asset_id, c.status, c.release_reason, c.release_requested_at, c.released_at, c.user_id,
             p.artist_name, u.email,
             coalesce(sum(g.views) filter (where i.status = 'posted'), 0)::text as views,
             trim_scale(coalesce(sum(g.amount * coalesce(i.exchange_rate, 1)) filter (where i.status = 'posted'), 0))::text as earnings_usd,
             count(*) over () as total
        from content_id_claims c
        join tracks t on t.id = c.track_id
        join "user" u on u.id = c.user_id
        left join profiles p on p.id = c.user_id
        join content_id_claim_usage g on g.claim_id = c.id
        join royalty_imports i on i.id = g.import_id and i.status <> 'failed'
       where ${where} ${search}
       group by c.id, t.title, p.artist_name, u.email
      having ${postedOnly ? sql`bool_or(i.status = 'posted')` : sql`true`}
       order by c.release_requested_at nulls first, sum(g.amount * coalesce(i.exchange_rate, 1)) desc, c.video_id, c.id
       ${page}`,
  );
}

/** One page of claims and how many match; a page past the last counts them apart. */
async function pageOf<Claim>(
  db: DbOrTx,
  where: SQL,
  postedOnly: boolean,
  paging: Paging,
  toView: (row: ClaimRow) => Claim,
): Promise<ClaimsPage<Claim>> {
  const found = await selectClaims(db, where, postedOnly, paging);
  let total = Number(found[0]?.total ?? 0);
  if (found.length === 0 && paging.page > 1) {
    const [first] = await selectClaims(db, where, postedOnly, { ...paging, page: 1, limit: 1 });
    total = Number(first?.total ?? 0);
  }
  return { items: found.map(toView), page: paging.page, pageSize: paging.limit, total };
}

/** The artist's claims, a page at a time (the Pro check is the route's and the caller's). */
export async function listClaims(
  db: DbOrTx,
  userId: string,
  paging: Paging,
): Promise<ClaimsPage<ContentIdClaimView>> {
  return pageOf(db, sql`c.user_id = ${userId}`, true, paging, view);
}

async function claimById(db: DbOrTx, claimId: string, userId: string | null): Promise<ClaimRow | undefined> {
  const where = userId === null ? sql`c.id = ${claimId}` : sql`c.id = ${claimId} and c.user_id = ${userId}`;
  const [row] = await selectClaims(db, where, userId !== null);
  return row;
}

/** The artist asks for their claim on a video to be released: it joins the admin queue. */
export async function releaseClaim(db: Db, viewer: Viewer, claimId: string): Promise<ContentIdClaimView> {
  const userId = viewer.account.id;
  await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(contentIdClaims)
      .set({ status: 'release_requested', releaseReason: 'artist', releaseRequestedAt: sql`now()` })
      .where(
        and(
          eq(contentIdClaims.id, claimId),
          eq(contentIdClaims.userId, userId),
          eq(contentIdClaims.status, 'active'),
        ),
      )
      .returning({
        id: contentIdClaims.id,
        videoId: contentIdClaims.videoId,
        videoTitle: contentIdClaims.videoTitle,
        trackId: contentIdClaims.trackId,
        releaseId: contentIdClaims.releaseId,
      });
    if (!changed) {
      const [mine] = await tx
        .select({ id: contentIdClaims.id })
        .from(contentIdClaims)
        .where(and(eq(contentIdClaims.id, claimId), eq(contentIdClaims.userId, userId)));
      if (!mine) throw notFound(CLAIM_MESSAGES.claimNotFound);
      throw new AppError('claim_not_active', CLAIM_MESSAGES.notActive, 409);
    }
    await recordAudit(tx, viewer, {
      kind: 'content_id.claim_release_request',
      subject: { type: 'track', id: changed.trackId, label: changed.videoTitle ?? changed.videoId },
      releaseId: changed.releaseId,
      subjectUserId: userId,
      before: { status: 'active' },
      after: { claimId, videoId: changed.videoId, status: 'release_requested' },
    });
  });
  const row = await claimById(db, claimId, userId);
  if (!row) throw notFound(CLAIM_MESSAGES.claimNotFound);
  return view(row);
}

function adminView(row: ClaimRow): AdminContentIdClaim {
  return { ...view(row), userId: row.userId, artistName: row.artistName, email: row.email };
}

/** Staff's queue: claims to release in YouTube's CMS, the oldest request first, a page at a time. */
export async function listClaimsToRelease(
  db: DbOrTx,
  paging: Paging,
): Promise<ClaimsPage<AdminContentIdClaim>> {
  return pageOf(db, sql`c.status = 'release_requested'`, false, paging, adminView);
}

/** Staff released the claim in YouTube's CMS. */
export async function markClaimReleased(
  db: Db,
  admin: Viewer,
  claimId: string,
): Promise<AdminContentIdClaim> {
  await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(contentIdClaims)
      .set({ status: 'released', releasedAt: sql`now()`, releasedBy: admin.user.id })
      .where(and(eq(contentIdClaims.id, claimId), eq(contentIdClaims.status, 'release_requested')))
      .returning({
        userId: contentIdClaims.userId,
        videoId: contentIdClaims.videoId,
        videoTitle: contentIdClaims.videoTitle,
        trackId: contentIdClaims.trackId,
        releaseId: contentIdClaims.releaseId,
        releaseReason: contentIdClaims.releaseReason,
      });
    if (!changed) {
      const [known] = await tx
        .select({ id: contentIdClaims.id })
        .from(contentIdClaims)
        .where(eq(contentIdClaims.id, claimId));
      if (!known) throw notFound(CLAIM_MESSAGES.claimNotFound);
      throw new AppError('claim_not_waiting', CLAIM_MESSAGES.notWaiting, 409);
    }
    await recordAudit(tx, admin, {
      kind: 'content_id.claim_released',
      subject: { type: 'track', id: changed.trackId, label: changed.videoTitle ?? changed.videoId },
      releaseId: changed.releaseId,
      subjectUserId: changed.userId,
      before: { status: 'release_requested' },
      after: { claimId, videoId: changed.videoId, status: 'released', reason: changed.releaseReason },
    });
  });
  const row = await claimById(db, claimId, null);
  if (!row) throw notFound(CLAIM_MESSAGES.claimNotFound);
  return adminView(row);
}

/**
 * Records YouTube's asset id of a Content ID track (from YouTube's CMS or an acknowledgement), so report
 * lines that name only the asset are matched to it. A track never opted in has no row: 404.
 */
export async function setTrackAssetId(
  db: Db,
  admin: Viewer,
  trackId: string,
  assetId: string,
): Promise<{ trackId: string; assetId: string }> {
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ trackId: contentIdTracks.trackId })
      .from(contentIdTracks)
      .where(eq(contentIdTracks.youtubeAssetId, assetId));
    if (taken && taken.trackId !== trackId) throw new AppError('asset_taken', CLAIM_MESSAGES.assetTaken, 409);
    const [changed] = await tx
      .select({ userId: contentIdTracks.userId, previous: contentIdTracks.youtubeAssetId })
      .from(contentIdTracks)
      .where(eq(contentIdTracks.trackId, trackId))
      .for('update');
    if (!changed) throw notFound(CLAIM_MESSAGES.notOptedIn);
    await tx
      .update(contentIdTracks)
      .set({ youtubeAssetId: assetId })
      .where(eq(contentIdTracks.trackId, trackId));
    const [track] = await tx
      .select({ releaseId: tracks.releaseId, title: tracks.title })
      .from(tracks)
      .where(eq(tracks.id, trackId));
    await recordAudit(tx, admin, {
      kind: 'content_id.asset_id',
      subject: { type: 'track', id: trackId, label: track?.title ?? trackId },
      releaseId: track?.releaseId ?? null,
      subjectUserId: changed.userId,
      before: { assetId: changed.previous },
      after: { assetId },
    });
    return { trackId, assetId };
  });
}
