/**
 * Artist profiles (issue 27, migration 0055, record 201): the artists an account releases as. Not to be
 * confused with `profiles`, the account's own row. Position 1 is the account's first profile.
 */

import type { NewOnStore } from '@tunedrop/shared/schemas/artist-profile-rules';
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, updatedAt } from './columns';

export const artistProfiles = pgTable(
  'artist_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account (owner) the profile belongs to. */
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    imageKey: text('image_key'),
    spotifyArtistId: text('spotify_artist_id'),
    appleArtistId: text('apple_artist_id'),
    // Issue 41 (migration 0077, record 297): more stores' ids, Spotify's artist key, and the stores where the
    // artist has explicitly no artist page yet.
    deezerArtistId: text('deezer_artist_id'),
    amazonArtistId: text('amazon_artist_id'),
    youtubeChannelId: text('youtube_channel_id'),
    spotifyArtistKey: text('spotify_artist_key'),
    newOnStores: jsonb('new_on_stores').$type<NewOnStore[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('artist_profiles_position_check', sql`position >= 1`),
    check(
      'artist_profiles_spotify_artist_id_check',
      sql`spotify_artist_id is null or spotify_artist_id ~ '^[A-Za-z0-9]{22}$'`,
    ),
    check(
      'artist_profiles_apple_artist_id_check',
      sql`apple_artist_id is null or apple_artist_id ~ '^[0-9]{1,15}$'`,
    ),
    check('artist_profiles_deezer_artist_id_check', sql`deezer_artist_id ~ '^[0-9]{1,12}$'`),
    check('artist_profiles_amazon_artist_id_check', sql`amazon_artist_id ~ '^B0[0-9A-Z]{8}$'`),
    check('artist_profiles_youtube_channel_id_check', sql`youtube_channel_id ~ '^UC[A-Za-z0-9_-]{22}$'`),
    check('artist_profiles_spotify_artist_key_check', sql`spotify_artist_key ~ '^[A-Za-z0-9_-]{8,128}$'`),
    uniqueIndex('artist_profiles_user_position_unique').on(t.userId, t.position),
    uniqueIndex('artist_profiles_id_user_unique').on(t.id, t.userId),
  ],
);
