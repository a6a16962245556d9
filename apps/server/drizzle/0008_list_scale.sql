-- Issue 19 (decision record 129): the review tabs and the admin user list at 100,000 releases.
--
-- Tab counts without a scan. Every INSERT, UPDATE and DELETE on releases (and profiles) appends what it
-- changed per status (per plan and ban) to a small delta table, once per statement, from its transition
-- tables; nothing is ever updated in place, so concurrent writers never wait on a shared counter row.
-- The lists sum the deltas (a few hundred rows at most) and fold them back into one row per key when they
-- grow (service code: DELETE ... RETURNING and re-INSERT of the sums, safe under concurrency).
CREATE TABLE IF NOT EXISTS "release_count_deltas" (
	"status" text NOT NULL,
	"takedown_requested" boolean NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_release_count_deltas() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO release_count_deltas (status, takedown_requested, delta)
      SELECT status, takedown_requested, count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO release_count_deltas (status, takedown_requested, delta)
      SELECT status, takedown_requested, -count(*) FROM old_rows GROUP BY 1, 2;
  ELSE
    -- An update that changes neither the status nor the flag nets to zero and writes nothing.
    INSERT INTO release_count_deltas (status, takedown_requested, delta)
      SELECT status, takedown_requested, sum(delta) FROM (
        SELECT status, takedown_requested, 1 AS delta FROM new_rows
        UNION ALL
        SELECT status, takedown_requested, -1 AS delta FROM old_rows
      ) AS changed
      GROUP BY 1, 2 HAVING sum(delta) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_release_counts_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM release_count_deltas;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS releases_count_insert ON releases;
--> statement-breakpoint
DROP TRIGGER IF EXISTS releases_count_update ON releases;
--> statement-breakpoint
DROP TRIGGER IF EXISTS releases_count_delete ON releases;
--> statement-breakpoint
DROP TRIGGER IF EXISTS releases_count_truncate ON releases;
--> statement-breakpoint
CREATE TRIGGER releases_count_insert AFTER INSERT ON releases
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_release_count_deltas();
--> statement-breakpoint
CREATE TRIGGER releases_count_update AFTER UPDATE ON releases
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_release_count_deltas();
--> statement-breakpoint
CREATE TRIGGER releases_count_delete AFTER DELETE ON releases
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_release_count_deltas();
--> statement-breakpoint
CREATE TRIGGER releases_count_truncate AFTER TRUNCATE ON releases
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_release_counts_truncate();
--> statement-breakpoint
-- The triggers exist (and CREATE TRIGGER holds a lock that keeps writers out until the migration commits),
-- so the starting figures cannot miss a row.
DELETE FROM release_count_deltas;
--> statement-breakpoint
INSERT INTO release_count_deltas (status, takedown_requested, delta)
  SELECT status, takedown_requested, count(*) FROM releases GROUP BY 1, 2;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "profile_count_deltas" (
	"plan" text NOT NULL,
	"banned" boolean NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_profile_count_deltas() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO profile_count_deltas (plan, banned, delta)
      SELECT plan, banned, count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO profile_count_deltas (plan, banned, delta)
      SELECT plan, banned, -count(*) FROM old_rows GROUP BY 1, 2;
  ELSE
    INSERT INTO profile_count_deltas (plan, banned, delta)
      SELECT plan, banned, sum(delta) FROM (
        SELECT plan, banned, 1 AS delta FROM new_rows
        UNION ALL
        SELECT plan, banned, -1 AS delta FROM old_rows
      ) AS changed
      GROUP BY 1, 2 HAVING sum(delta) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_profile_counts_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM profile_count_deltas;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS profiles_count_insert ON profiles;
--> statement-breakpoint
DROP TRIGGER IF EXISTS profiles_count_update ON profiles;
--> statement-breakpoint
DROP TRIGGER IF EXISTS profiles_count_delete ON profiles;
--> statement-breakpoint
DROP TRIGGER IF EXISTS profiles_count_truncate ON profiles;
--> statement-breakpoint
CREATE TRIGGER profiles_count_insert AFTER INSERT ON profiles
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_profile_count_deltas();
--> statement-breakpoint
CREATE TRIGGER profiles_count_update AFTER UPDATE ON profiles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_profile_count_deltas();
--> statement-breakpoint
CREATE TRIGGER profiles_count_delete AFTER DELETE ON profiles
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_profile_count_deltas();
--> statement-breakpoint
CREATE TRIGGER profiles_count_truncate AFTER TRUNCATE ON profiles
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_profile_counts_truncate();
--> statement-breakpoint
DELETE FROM profile_count_deltas;
--> statement-breakpoint
INSERT INTO profile_count_deltas (plan, banned, delta)
  SELECT plan, banned, count(*) FROM profiles GROUP BY 1, 2;
--> statement-breakpoint
-- One partial index per review tab, in the tab's own order: page 1 reads 10 rows, not a sort of a fifth of
-- the table. The predicates repeat ADMIN_TAB_STATUSES literally (the query inlines the same lists).
CREATE INDEX IF NOT EXISTS releases_review_pending_idx ON releases (created_at, id)
  WHERE status IN ('pending', 'processing');
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_review_approved_idx ON releases (created_at DESC, id DESC)
  WHERE status IN ('approved', 'live');
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_review_rejected_idx ON releases (created_at DESC, id DESC)
  WHERE status = 'rejected';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_review_takendown_idx ON releases (created_at DESC, id DESC)
  WHERE status IN ('taken_down', 'deleted');
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_review_takedown_idx ON releases (takedown_requested_at, id)
  WHERE takedown_requested;
--> statement-breakpoint
-- Partial search (ILIKE '%term%') through trigram indexes: pg_trgm ships with PostgreSQL's contrib and
-- with PGlite (loaded in db/client.ts). One index per list over the searched fields joined by U+0001: no
-- search can contain a control character (safeText), so a pattern matches the joined text exactly when it
-- matches one of the fields, and one index scan replaces one per field (each costs the same: the posting
-- lists of common trigrams). array_to_string is only STABLE, so the function is declared IMMUTABLE (text[]
-- to text with a fixed separator depends on no setting) and is not inlined: queries use it as indexed.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_release_search_text(title text, artists text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT title || chr(1) || array_to_string(artists, ' ') $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_profile_search_text(email text, artist_name text, full_name text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT email || chr(1) || artist_name || chr(1) || full_name
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_search_trgm_idx ON releases
  USING gin (tunedrop_release_search_text(title, primary_artists) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_email_trgm_idx ON profiles USING gin (email gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_search_trgm_idx ON profiles
  USING gin (tunedrop_profile_search_text(email, artist_name, full_name) gin_trgm_ops);
--> statement-breakpoint
-- The admin user list's order (created_at desc, id) whole from an index, also per plan and for the banned.
CREATE INDEX IF NOT EXISTS profiles_created_id_idx ON profiles (created_at DESC, id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_plan_created_id_idx ON profiles (plan, created_at DESC, id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_banned_created_id_idx ON profiles (created_at DESC, id) WHERE banned;
--> statement-breakpoint
DROP INDEX IF EXISTS profiles_created_at_idx;
--> statement-breakpoint
-- The searches themselves. The planner prices a trigram bitmap scan far above what it costs and picks a
-- scan of every row (93 ms against 6 ms at 100,000 releases). Inside these functions sequential scans are
-- off, so a search always goes through the trigram indexes; the uploader's email joins the same bitmap
-- through the index on releases.user_id. ROWS 100 keeps callers on primary-key lookups, not a hash join
-- over the whole table. They return what the tab counts and the page order need.
CREATE OR REPLACE FUNCTION tunedrop_search_releases(pattern text)
RETURNS TABLE (id uuid, status text, takedown_requested boolean, created_at timestamptz,
               takedown_requested_at timestamptz)
LANGUAGE sql STABLE ROWS 100 SET enable_seqscan = off AS $$
  SELECT r.id, r.status, r.takedown_requested, r.created_at, r.takedown_requested_at
    FROM releases r
   WHERE tunedrop_release_search_text(r.title, r.primary_artists) ILIKE pattern
      OR r.user_id = ANY (ARRAY(SELECT p.id FROM profiles p WHERE p.email ILIKE pattern))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_search_profiles(pattern text)
RETURNS TABLE (id text, plan text, banned boolean, created_at timestamptz)
LANGUAGE sql STABLE ROWS 100 SET enable_seqscan = off AS $$
  SELECT p.id, p.plan, p.banned, p.created_at FROM profiles p
   WHERE tunedrop_profile_search_text(p.email, p.artist_name, p.full_name) ILIKE pattern
$$;
--> statement-breakpoint
-- Bulk balance updates (issue 19, records 126 and 129): a bulk apply rewrites every named profile in one
-- transaction. On full pages no update can stay on its page (HOT), so each one inserted into every index
-- of profiles (the trigram ones too): 10,000 rows spent 415-460 ms in the UPDATE, 2 of 10,001 HOT. Half of
-- each page kept free lets every row of a page get its new version beside the old one (all 20,001 HOT,
-- 130-175 ms). Applies to pages written from now on; existing pages gain the room as they are rewritten.
ALTER TABLE profiles SET (fillfactor = 50);
