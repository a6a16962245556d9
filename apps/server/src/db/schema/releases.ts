import {
  type Plan,
  type PlatformId,
  RELEASE_STATUSES,
  type ReleaseStatus,
  SONGWRITER_ROLES,
  type SongwriterRole,
} from '@tunedrop/shared';
import { AI_USAGES, type AiArea, type AiUsage } from '@tunedrop/shared/schemas/ai-disclosure';
import type { AudioAnalysis } from '@tunedrop/shared/schemas/audio-checks';
import { UPLOAD_KINDS, type UploadInfo, type UploadKind } from '@tunedrop/shared/schemas/builder';
import {
  RELEASE_TIME_MODES,
  type ReleaseTimeMode,
  TERRITORY_MODES,
  type TerritoryMode,
} from '@tunedrop/shared/schemas/release-availability';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { artistProfiles } from './artist-profiles';
import { user } from './auth';
import { createdAt, inList, updatedAt } from './columns';

// ---------------------------------------------------------------- releases

export type ArtistCredit = { name: string; spotifyLink?: string; appleMusicLink?: string };

export const releases = pgTable(
  'releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    /**
     * The owner's artist profile it is released under (migration 0055). Left out of an insert, the database
     * (trigger releases_default_artist_profile) fills in the owner's first profile.
     */
    artistProfileId: uuid('artist_profile_id')
      .notNull()
      .$defaultFn(() => sql`default`),
    title: text('title').notNull(),
    primaryArtists: text('primary_artists').array().notNull().default(sql`'{}'::text[]`),
    featuredArtists: text('featured_artists').array().notNull().default(sql`'{}'::text[]`),
    primaryArtistsData: jsonb('primary_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    featuredArtistsData: jsonb('featured_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    genre: text('genre').notNull(),
    releaseDate: date('release_date').notNull(),
    originalReleaseDate: date('original_release_date'),
    /** Release time and territories (migration 0053, record 199; rules in @tunedrop/shared/schemas/release-availability). */
    releaseTimeMode: text('release_time_mode').$type<ReleaseTimeMode>().notNull().default('local_midnight'),
    /** 'HH:MM' in releaseTimeZone on the release date; null for local midnight. */
    releaseTime: text('release_time'),
    releaseTimeZone: text('release_time_zone'),
    /** The one worldwide instant; null for local midnight. */
    releaseAt: timestamp('release_at', { withTimezone: true }),
    territoryMode: text('territory_mode').$type<TerritoryMode>().notNull().default('worldwide'),
    /** ISO 3166-1 alpha-2, upper case, sorted; empty for worldwide. */
    territories: text('territories').array().notNull().default(sql`'{}'::text[]`),
    labelName: text('label_name'),
    upc: text('upc'),
    copyrightHolder: text('copyright_holder').notNull(),
    publishingHolder: text('publishing_holder').notNull(),
    copyrightYear: integer('copyright_year').notNull(),
    publishingYear: integer('publishing_year').notNull(),
    distributionStores: text('distribution_stores')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`)
      .$type<PlatformId[]>(),
    status: text('status').$type<ReleaseStatus>().notNull().default('pending'),
    coverArtKey: text('cover_art_key'),
    coverThumbSmallKey: text('cover_thumb_small_key'),
    coverThumbMediumKey: text('cover_thumb_medium_key'),
    rejectionReason: text('rejection_reason'),
    takedownRequested: boolean('takedown_requested').notNull().default(false),
    takedownRequestedAt: timestamp('takedown_requested_at', { withTimezone: true }),
    /** Client-chosen key so a double click or a retried submission makes one release. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Title and artists, lower-cased, for the review search's trigram index (migration 0036). */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(tunedrop_release_search_text(title, primary_artists))`,
    ),
  },
  (t) => [
    check('releases_status_check', inList('status', RELEASE_STATUSES)),
    check('releases_copyright_year_check', sql`copyright_year >= 1900`),
    check('releases_publishing_year_check', sql`publishing_year >= 1900`),
    check('releases_upc_check', sql`upc is null or upc ~ '^[0-9]{12,13}$'`),
    check('releases_release_time_mode_check', inList('release_time_mode', RELEASE_TIME_MODES)),
    check(
      'releases_release_moment_check',
      sql`(release_time_mode = 'local_midnight' and release_at is null and release_time is null and release_time_zone is null) or (release_time_mode = 'worldwide_moment' and release_at is not null and release_time is not null and release_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and release_time_zone is not null)`,
    ),
    check('releases_territory_mode_check', inList('territory_mode', TERRITORY_MODES)),
    check('releases_territories_check', sql`(territory_mode = 'worldwide') = (cardinality(territories) = 0)`),
    index('releases_user_created_id_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    foreignKey({
      name: 'releases_artist_profile_owner_fk',
      columns: [t.artistProfileId, t.userId],
      foreignColumns: [artistProfiles.id, artistProfiles.userId],
    }).onDelete('restrict'),
    index('releases_artist_profile_created_id_idx').on(t.artistProfileId, t.createdAt.desc(), t.id.desc()),
    index('releases_status_created_idx').on(t.status, t.createdAt.desc()),
    index('releases_takedown_idx').on(t.createdAt.desc()).where(sql`takedown_requested`),
    uniqueIndex('releases_user_idempotency_key').on(t.userId, t.idempotencyKey),
    // Review tabs (migration 0008): one partial index per tab in the tab's order; trigram search.
    index('releases_review_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`status in ('pending', 'processing')`),
    index('releases_review_approved_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`status in ('approved', 'live')`),
    index('releases_review_rejected_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`status = 'rejected'`),
    index('releases_review_takendown_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`status in ('taken_down', 'deleted')`),
    index('releases_review_takedown_idx').on(t.takedownRequestedAt, t.id).where(sql`takedown_requested`),
  ],
);

/**
 * What the review search reads (migration 0060, record 206): a narrow copy of each release's searched text
 * and listed columns, kept by statement triggers on releases, so a common word's matches sit on few pages.
 */
export const releaseSearch = pgTable(
  'release_search',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => releases.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    takedownRequestedAt: timestamp('takedown_requested_at', { withTimezone: true }),
    takedownRequested: boolean('takedown_requested').notNull(),
    status: text('status').$type<ReleaseStatus>().notNull(),
    userId: text('user_id').notNull(),
    searchText: text('search_text').notNull(),
  },
  (t) => [
    index('release_search_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('release_search_user_idx').on(t.userId),
  ],
);

/**
 * Tab counts kept by statement triggers on releases (migration 0008): each statement appends what it
 * changed per (status, takedown flag); the review list sums these rows and folds them up when they grow.
 */
export const releaseCountDeltas = pgTable('release_count_deltas', {
  status: text('status').$type<ReleaseStatus>().notNull(),
  takedownRequested: boolean('takedown_requested').notNull(),
  delta: bigint('delta', { mode: 'number' }).notNull(),
});

/** The same for profiles per (plan, banned), read by the admin user list's tab counts. */
export const profileCountDeltas = pgTable('profile_count_deltas', {
  plan: text('plan').$type<Plan>().notNull(),
  banned: boolean('banned').notNull(),
  delta: bigint('delta', { mode: 'number' }).notNull(),
});

export const tracks = pgTable(
  'tracks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    isrc: text('isrc'),
    explicit: boolean('explicit').notNull().default(false),
    /** Duration in milliseconds, read from the WAV header. */
    durationMs: integer('duration_ms'),
    fileKey: text('file_key').notNull(),
    originalFileName: text('original_file_name').notNull(),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }).notNull(),
    sampleRate: integer('sample_rate'),
    bitDepth: integer('bit_depth'),
    channels: integer('channels'),
    primaryArtistsData: jsonb('primary_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    featuredArtistsData: jsonb('featured_artists_data').$type<ArtistCredit[]>().notNull().default([]),
    /** What the audio pre-flight analysis measured (record 298); null on a track stored before it. */
    audioAnalysis: jsonb('audio_analysis').$type<AudioAnalysis>(),
    /** How AI was used (record 295); null on a track submitted before the question was asked. */
    aiUsage: text('ai_usage').$type<AiUsage>(),
    /** What AI helped with on an assisted track; empty otherwise. */
    aiAreas: jsonb('ai_areas').$type<AiArea[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    // Null passes: a track submitted before the question was asked (record 295).
    check('tracks_ai_usage_check', inList('ai_usage', AI_USAGES)),
    check('tracks_isrc_check', sql`isrc is null or isrc ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'`),
    check('tracks_position_check', sql`position between 1 and 20`),
    index('tracks_release_idx').on(t.releaseId, t.position),
    uniqueIndex('tracks_isrc_unique').on(t.isrc),
  ],
);

export const songwriters = pgTable(
  'songwriters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
    role: text('role').$type<SongwriterRole>().notNull().default('music_and_lyrics'),
  },
  (t) => [
    check('songwriters_role_check', inList('role', SONGWRITER_ROLES)),
    index('songwriters_track_idx').on(t.trackId),
  ],
);

export const producers = pgTable(
  'producers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trackId: uuid('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
  },
  (t) => [index('producers_track_idx').on(t.trackId)],
);

/** Files received through tus: staged, checked by content, then moved into storage. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<UploadKind>().notNull(),
    originalName: text('original_name').notNull(),
    sanitizedName: text('sanitized_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    status: text('status').$type<Exclude<UploadInfo['status'], 'missing'>>().notNull().default('uploading'),
    storageKey: text('storage_key'),
    thumbSmallKey: text('thumb_small_key'),
    thumbMediumKey: text('thumb_medium_key'),
    /** What the content check read: pixels for images; sample rate, bit depth, channels, duration for audio. */
    details: jsonb('details').$type<Record<string, number | string>>(),
    error: text('error'),
    releaseId: uuid('release_id').references(() => releases.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('uploads_kind_check', inList('kind', UPLOAD_KINDS)),
    check('uploads_status_check', inList('status', ['uploading', 'checked', 'rejected', 'consumed'])),
    index('uploads_user_idx').on(t.userId, t.createdAt.desc()),
    index('uploads_status_updated_idx').on(t.status, t.updatedAt),
  ],
);

/** The builder's draft, one per user, so a reload or a later visit restores the wizard. */
export const releaseDrafts = pgTable('release_drafts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  updatedAt: updatedAt(),
});
