import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt } from './columns';
import { tracks } from './releases';

// ---------------------------------------------------------------- Content ID (issue 28, migration 0038)

/**
 * A track's Content ID choice (record 185): one row per track once it was opted in, kept on opt-out so the
 * answers and times stay on record. needs_youtube_update marks a change the YouTube delivery (not built
 * yet) must still send.
 */
export const contentIdTracks = pgTable(
  'content_id_tracks',
  {
    trackId: uuid('track_id')
      .primaryKey()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    isOptedIn: boolean('is_opted_in').notNull(),
    /** The eligibility answers given at the last opt-in, question id to 'yes' / 'no'. */
    answers: jsonb('answers').$type<Record<string, string>>().notNull(),
    optedInAt: timestamp('opted_in_at', { withTimezone: true }).notNull(),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    needsYoutubeUpdate: boolean('needs_youtube_update').notNull().default(true),
    /** YouTube's asset id for the track's sound recording, once known (record 193): matches YouTube reports. */
    youtubeAssetId: text('youtube_asset_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('content_id_tracks_user_idx').on(t.userId),
    index('content_id_tracks_pending_idx').on(t.trackId).where(sql`${t.needsYoutubeUpdate}`),
    uniqueIndex('content_id_tracks_youtube_asset_unique').on(t.youtubeAssetId),
  ],
);

/** An artist's own YouTube channel, whose videos are never claimed (the allow-list, record 185). */
export const contentIdChannels = pgTable(
  'content_id_channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    channelId: text('channel_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('content_id_channels_channel_id_check', sql`channel_id ~ '^UC[A-Za-z0-9_-]{22}$'`),
    uniqueIndex('content_id_channels_user_channel_unique').on(t.userId, t.channelId),
  ],
);
