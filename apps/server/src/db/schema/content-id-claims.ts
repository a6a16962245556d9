import { CLAIM_RELEASE_REASONS, CLAIM_STATUSES } from '@tunedrop/shared/schemas/content-id-claims';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList } from './columns';
import { releases, tracks } from './releases';
import { royaltyImports } from './royalties';

type ClaimStatus = (typeof CLAIM_STATUSES)[number];
type ClaimReleaseReason = (typeof CLAIM_RELEASE_REASONS)[number];

// ---------------------------------------------------------------- Content ID claims (issue 28, migration 0045)

/**
 * A video a Content ID track claims on YouTube (record 193), one row per track and video, first seen in an
 * imported YouTube report. The artist may ask for it to be released (or the allow-list does at import);
 * staff release it in YouTube's CMS and mark it released.
 */
export const contentIdClaims = pgTable(
  'content_id_claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    assetId: text('asset_id'),
    videoId: text('video_id').notNull(),
    videoTitle: text('video_title'),
    channelId: text('channel_id'),
    channelName: text('channel_name'),
    status: text('status').$type<ClaimStatus>().notNull().default('active'),
    releaseReason: text('release_reason').$type<ClaimReleaseReason>(),
    releaseRequestedAt: timestamp('release_requested_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: text('released_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('content_id_claims_status_check', inList('status', CLAIM_STATUSES)),
    check(
      'content_id_claims_release_reason_check',
      sql`release_reason is null or ${inList('release_reason', CLAIM_RELEASE_REASONS)}`,
    ),
    check(
      'content_id_claims_release_consistent',
      sql`(status = 'active') = (release_requested_at is null) and (status = 'released') = (released_at is not null)`,
    ),
    uniqueIndex('content_id_claims_track_video_unique').on(t.trackId, t.videoId),
    index('content_id_claims_user_idx').on(t.userId),
    index('content_id_claims_to_release_idx')
      .on(t.releaseRequestedAt)
      .where(sql`${t.status} = 'release_requested'`),
  ],
);

/** A claim's views and revenue in one imported report (amount in the report's currency, exact). */
export const contentIdClaimUsage = pgTable(
  'content_id_claim_usage',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => royaltyImports.id, { onDelete: 'cascade' }),
    claimId: uuid('claim_id')
      .notNull()
      .references(() => contentIdClaims.id, { onDelete: 'cascade' }),
    views: bigint('views', { mode: 'number' }).notNull(),
    amount: numeric('amount').notNull(),
    lines: integer('lines').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.claimId] }),
    index('content_id_claim_usage_claim_idx').on(t.claimId),
  ],
);
