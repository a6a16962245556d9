/**
 * Seed data shared by the royalty benches: `count` artists (user bench-1 … bench-N, artistN@bench.test) and
 * splits on 30% of the tracks. Plain SQL in bulk (generate_series), as the benches' own seeding.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client';

/** Artists bench-1 … bench-`count`: a user and a profile each. */
export async function seedArtists(database: Database, count: number): Promise<void> {
  const { db } = database;
  await db.execute(sql`
    insert into "user" (id, name, email, email_verified)
    select 'bench-' || g, 'Artist ' || g, 'artist' || g || '@bench.test', true from generate_series(1, ${count}) g`);
  await db.execute(sql`
    insert into profiles (id, email, full_name, artist_name)
    select 'bench-' || g, 'artist' || g || '@bench.test', 'Artist ' || g, 'Artist ' || g
      from generate_series(1, ${count}) g`);
}

/**
 * Splits for 30% of the tracks (positions 1-3 of every release): a track version of 34% owner and 33% to
 * each of two accepted payees (the next two of the `artists` bench artists), created before the posting.
 */
export async function seedSplits(database: Database, artists: number): Promise<void> {
  const { db } = database;
  await db.execute(sql`
    insert into split_payees (release_id, email, user_id, status, token_hash, accepted_at)
    select r.id, 'artist' || a.n || '@bench.test', 'bench-' || a.n, 'accepted', md5(r.id::text || a.n), now()
      from releases r
      cross join lateral (
        select ((substring(r.user_id from 7)::int + k - 1) % ${artists}) + 1 as n from generate_series(1, 2) k
      ) a`);
  await db.execute(sql`
    insert into split_versions (release_id, track_id, version, owner_percent, created_at)
    select t.release_id, t.id, 1, 34, clock_timestamp() - interval '1 minute'
      from tracks t where t.position <= 3`);
  await db.execute(sql`
    insert into split_shares (version_id, payee_id, percent)
    select v.id, p.id, 33 from split_versions v join split_payees p on p.release_id = v.release_id`);
}
