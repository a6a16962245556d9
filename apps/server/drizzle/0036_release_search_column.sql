-- Review search at 100,000 releases within 1.5x of 1,000 (issue 29, record 183). The trigram index of
-- migration 0008 was over an expression, tunedrop_release_search_text(title, primary_artists): every
-- candidate the index found was rechecked by calling that (not inlined) SQL function and ILIKE, which
-- is what a common word ("midnight": ~4% of the rows) spent its time on. The searched text is now a
-- stored generated column, already lower-cased: the recheck reads it and runs a plain LIKE (callers pass
-- a lower-case pattern, lib/search.ts containsPattern). Same text as before (title, U+0001, the artists),
-- so a search finds the same rows. Adding the column rewrites releases once.
ALTER TABLE releases ADD COLUMN IF NOT EXISTS search_text text
  GENERATED ALWAYS AS (lower(tunedrop_release_search_text(title, primary_artists))) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS releases_search_trgm_idx;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS releases_search_text_trgm_idx ON releases USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
-- The search itself (migration 0008), now over the stored column. The pattern is lower-case already;
-- the uploader's email keeps ILIKE (its own trigram index, profiles_email_trgm_idx).
CREATE OR REPLACE FUNCTION tunedrop_search_releases(pattern text)
RETURNS TABLE (id uuid, status text, takedown_requested boolean, created_at timestamptz,
               takedown_requested_at timestamptz)
LANGUAGE sql STABLE ROWS 100 SET enable_seqscan = off AS $$
  SELECT r.id, r.status, r.takedown_requested, r.created_at, r.takedown_requested_at
    FROM releases r
   WHERE r.search_text LIKE lower(pattern)
      OR r.user_id = ANY (ARRAY(SELECT p.id FROM profiles p WHERE p.email ILIKE pattern))
$$;
