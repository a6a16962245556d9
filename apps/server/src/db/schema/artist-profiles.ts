/**
 * Artist profiles (issue 27, migration 0055, record 201): the artists an account releases as. Not to be
 * confused with `profiles`, the account's own row. Position 1 is the account's first profile.
 */
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    uniqueIndex('artist_profiles_user_position_unique').on(t.userId, t.position),
    uniqueIndex('artist_profiles_id_user_unique').on(t.id, t.userId),
  ],
);
