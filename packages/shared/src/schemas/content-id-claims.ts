/**
 * YouTube Content ID claims (issue 28, decision 193): the videos a Content ID track claimed, read from the
 * YouTube reports the admin imports (royalty format `youtube`), with their views and earnings. A Pro artist
 * releases a claim on a video; staff apply the release in YouTube's CMS and mark it done. Claims on the
 * artist's allow-listed channels are released at import.
 *
 * Routes (apps/server/src/modules/content-id/claims-routes.ts):
 *   Artist (access('subscriber'), then Pro in the service):
 *     GET    /api/content-id/claims?q&page&limit        → ClaimsPage<ContentIdClaimView>
 *     POST   /api/content-id/claims/:id/release         → ContentIdClaimView (404 another artist's claim)
 *   Admin (access('admin')):
 *     GET    /api/admin/content-id/claims?q&page&limit  → ClaimsPage<AdminContentIdClaim> (to release)
 *     POST   /api/admin/content-id/claims/:id/done      → AdminContentIdClaim (409 when not waiting)
 *     PUT    /api/admin/content-id/tracks/:trackId/asset contentIdAssetSchema → { trackId, assetId }
 */
import { z } from 'zod';
import type { PageInfo } from '../paging';
import { safeText } from '../text';

/**
 * active: YouTube claims the video (its earnings come to the artist); release_requested: the artist (or
 * the allow-list) asked for the claim to go, staff still have to release it in YouTube's CMS; released:
 * staff released it.
 */
export const CLAIM_STATUSES = ['active', 'release_requested', 'released'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** Why a claim is to be released: the artist's request, or the video is on an allow-listed channel. */
export const CLAIM_RELEASE_REASONS = ['artist', 'allow_list'] as const;
export type ClaimReleaseReason = (typeof CLAIM_RELEASE_REASONS)[number];

export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  active: 'Claimed',
  release_requested: 'Release requested',
  released: 'Released',
};

export const CLAIM_MESSAGES = {
  claimNotFound: 'Claim not found.',
  notActive: 'This claim is already released or waiting to be released.',
  notWaiting: 'This claim is not waiting to be released.',
  released: 'Release requested: our team will release the claim in YouTube.',
  markedDone: 'Marked as released',
  assetInvalid: 'Enter a YouTube asset id: A followed by 6 to 31 letters or digits.',
  assetTaken: 'This asset id belongs to another track.',
  notOptedIn: 'This track is not opted in to Content ID.',
  releaseConfirm: (video: string) =>
    `Release the claim on "${video}"? The video's owner keeps its earnings from then on, and the claim cannot be restored here.`,
  noClaims: 'No claims yet. Claims appear here once a YouTube report for your Content ID tracks is imported.',
  allowListReason: 'Your allow-listed channel',
  noMatch: 'No claims match your search.',
  queueEmpty: 'No claim is waiting to be released.',
} as const;

/**
 * Claims lists are paged (issue 43 finding 11: one YouTube report of 100,000 lines made a 57 MB answer):
 * `q` searches the video's title and id, the track's title and ISRC and the asset id; `limit` at most 100.
 */
export const CLAIMS_PAGE_SIZE = 25;
export const CLAIMS_MAX_PAGE_SIZE = 100;
export const claimsQuerySchema = z.object({
  q: safeText().trim().max(200).optional().default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(CLAIMS_MAX_PAGE_SIZE).default(CLAIMS_PAGE_SIZE),
});
export type ClaimsQuery = z.infer<typeof claimsQuerySchema>;

/** A YouTube asset id, as in YouTube's reports (asset_id) and CMS: A and letters or digits. */
export const youtubeAssetIdSchema = safeText(CLAIM_MESSAGES.assetInvalid, CLAIM_MESSAGES.assetInvalid)
  .trim()
  .regex(/^A[A-Za-z0-9]{6,31}$/, CLAIM_MESSAGES.assetInvalid);

export const contentIdAssetSchema = z.object({ assetId: youtubeAssetIdSchema });
export type ContentIdAssetInput = z.input<typeof contentIdAssetSchema>;

export type ContentIdClaimView = {
  id: string;
  videoId: string;
  videoTitle: string | null;
  channelId: string | null;
  channelName: string | null;
  trackId: string;
  trackTitle: string;
  assetId: string | null;
  /** Views summed over the posted reports. */
  views: number;
  /** Earnings in USD over the posted reports (the report amounts at their rates, before splits), exact. */
  earningsUsd: string;
  status: ClaimStatus;
  releaseReason: ClaimReleaseReason | null;
  releaseRequestedAt: string | null;
  releasedAt: string | null;
};

export type AdminContentIdClaim = ContentIdClaimView & {
  userId: string;
  artistName: string | null;
  email: string;
};

/** A page of claims (PageInfo: 1-based page, its size, the matching claims over every page). */
export type ClaimsPage<Claim> = PageInfo & { items: Claim[] };
