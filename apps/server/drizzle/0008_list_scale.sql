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
-- with PGlite (loaded in db/client.ts). array_to_string is only STABLE, so the artists column is indexed
-- through an IMMUTABLE wrapper (text[] to text does not depend on any setting); queries use the wrapper.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_joined_text(text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT array_to_string($1, ' ') $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_title_trgm_idx ON releases USING gin (title gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_artists_trgm_idx ON releases
  USING gin (tunedrop_joined_text(primary_artists) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_email_trgm_idx ON profiles USING gin (email gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_artist_name_trgm_idx ON profiles USING gin (artist_name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_full_name_trgm_idx ON profiles USING gin (full_name gin_trgm_ops);
--> statement-breakpoint
-- The admin user list's order (created_at desc, id) whole from an index, also per plan and for the banned.
CREATE INDEX IF NOT EXISTS profiles_created_id_idx ON profiles (created_at DESC, id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_plan_created_id_idx ON profiles (plan, created_at DESC, id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS profiles_banned_created_id_idx ON profiles (created_at DESC, id) WHERE banned;
--> statement-breakpoint
DROP INDEX IF EXISTS profiles_created_at_idx;
