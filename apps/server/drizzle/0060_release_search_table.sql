-- Review search at 100,000 releases (issue 29, record 206). The search pass (tunedrop_search_releases)
-- found its matches through the trigram index on releases.search_text (migration 0036), then read every
-- match's row of releases (about 370 bytes, search_text its last column) to recheck the pattern and count
-- the tabs: a common word (3% of 100,000) read 2,853 of the table's 4,700 pages. The same few columns
-- now live in a narrow table kept by statement triggers (set-based, as the count deltas of migration
-- 0008): the matches of a search sit on a quarter of the pages and each recheck reads a short row.
-- Same text, same pattern, same matches as before; only where they are read from changes.
CREATE TABLE IF NOT EXISTS release_search (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  takedown_requested_at timestamptz,
  takedown_requested boolean NOT NULL,
  status text NOT NULL,
  user_id text NOT NULL,
  search_text text NOT NULL,
  CONSTRAINT release_search_id_releases_id_fk FOREIGN KEY (id) REFERENCES releases (id) ON DELETE CASCADE
);
--> statement-breakpoint
INSERT INTO release_search (id, created_at, takedown_requested_at, takedown_requested, status, user_id, search_text)
SELECT id, created_at, takedown_requested_at, takedown_requested, status, user_id, search_text FROM releases
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS release_search_text_trgm_idx ON release_search USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS release_search_user_idx ON release_search (user_id);
--> statement-breakpoint
-- The trigram index on releases itself is read by nothing now.
DROP INDEX IF EXISTS releases_search_text_trgm_idx;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_release_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO release_search (id, created_at, takedown_requested_at, takedown_requested, status, user_id, search_text)
  SELECT n.id, n.created_at, n.takedown_requested_at, n.takedown_requested, n.status, n.user_id, n.search_text
    FROM new_rows n;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Transition tables allow no column list, so every UPDATE of releases runs this once; it writes only the
-- rows whose searched or listed columns changed (a cover or a delivery flag writes nothing here).
CREATE OR REPLACE FUNCTION tunedrop_release_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE release_search s
     SET created_at = n.created_at, takedown_requested_at = n.takedown_requested_at,
         takedown_requested = n.takedown_requested, status = n.status, user_id = n.user_id,
         search_text = n.search_text
    FROM new_rows n
   WHERE s.id = n.id
     AND (s.created_at, s.takedown_requested_at, s.takedown_requested, s.status, s.user_id, s.search_text)
         IS DISTINCT FROM
         (n.created_at, n.takedown_requested_at, n.takedown_requested, n.status, n.user_id, n.search_text);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS releases_search_insert ON releases;
--> statement-breakpoint
DROP TRIGGER IF EXISTS releases_search_update ON releases;
--> statement-breakpoint
CREATE TRIGGER releases_search_insert AFTER INSERT ON releases
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_release_search_insert();
--> statement-breakpoint
CREATE TRIGGER releases_search_update AFTER UPDATE ON releases
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_release_search_update();
--> statement-breakpoint
-- The search (migrations 0008, 0036) over the narrow table. Deleted releases leave it by the cascade.
CREATE OR REPLACE FUNCTION tunedrop_search_releases(pattern text)
RETURNS TABLE (id uuid, status text, takedown_requested boolean, created_at timestamptz,
               takedown_requested_at timestamptz)
LANGUAGE sql STABLE ROWS 100 SET enable_seqscan = off AS $$
  SELECT s.id, s.status, s.takedown_requested, s.created_at, s.takedown_requested_at
    FROM release_search s
   WHERE s.search_text LIKE lower(pattern)
      OR s.user_id = ANY (ARRAY(SELECT p.id FROM profiles p WHERE p.email ILIKE pattern))
$$;
