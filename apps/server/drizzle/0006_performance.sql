-- Issue 19 (record 126): the profile-change NOTIFY runs once per statement instead of once per row. A bulk
-- balance update of 100,000 profiles sent 100,000 notifications from one transaction; now the statement's
-- changed rows are grouped by what changed and sent in payloads of at most 100 user ids (well under the
-- 8000-byte limit). Listeners (infra/events/profile-events.ts) read `userIds` as well as `userId`.
DROP TRIGGER IF EXISTS profiles_notify_change ON profiles;
--> statement-breakpoint
-- Transition tables carry no statistics, so the planner would join old and new rows by nested loop
-- (100 million comparisons at 10,000 rows): the function forbids it, a hash join takes milliseconds.
CREATE OR REPLACE FUNCTION tunedrop_notify_profile_changes() RETURNS trigger
LANGUAGE plpgsql SET enable_nestloop = off AS $$
DECLARE
  grp record;
  chunk integer;
BEGIN
  FOR grp IN
    SELECT c.changed, array_agg(c.id ORDER BY c.id) AS ids
      FROM (
        SELECT n.id, array_remove(ARRAY[
          CASE WHEN n.plan IS DISTINCT FROM o.plan THEN 'plan' END,
          CASE WHEN n.pending_plan IS DISTINCT FROM o.pending_plan THEN 'pending_plan' END,
          CASE WHEN n.subscription_status IS DISTINCT FROM o.subscription_status THEN 'subscription_status' END,
          CASE WHEN n.subscription_end IS DISTINCT FROM o.subscription_end THEN 'subscription_end' END,
          CASE WHEN n.cancel_at_period_end IS DISTINCT FROM o.cancel_at_period_end THEN 'cancel_at_period_end' END,
          CASE WHEN n.balance_cents IS DISTINCT FROM o.balance_cents THEN 'balance_cents' END,
          CASE WHEN n.pending_balance_cents IS DISTINCT FROM o.pending_balance_cents THEN 'pending_balance_cents' END,
          CASE WHEN n.total_earnings_cents IS DISTINCT FROM o.total_earnings_cents THEN 'total_earnings_cents' END,
          CASE WHEN n.full_name IS DISTINCT FROM o.full_name THEN 'full_name' END,
          CASE WHEN n.artist_name IS DISTINCT FROM o.artist_name THEN 'artist_name' END,
          CASE WHEN n.banned IS DISTINCT FROM o.banned OR n.ban_reason IS DISTINCT FROM o.ban_reason THEN 'banned' END
        ], NULL) AS changed
          FROM new_rows n JOIN old_rows o ON o.id = n.id
      ) c
     WHERE coalesce(array_length(c.changed, 1), 0) > 0
     GROUP BY c.changed
  LOOP
    FOR chunk IN 0 .. (array_length(grp.ids, 1) - 1) / 100 LOOP
      PERFORM pg_notify('profile_changes', json_build_object(
        'userIds', grp.ids[chunk * 100 + 1 : chunk * 100 + 100], 'changed', grp.changed)::text);
    END LOOP;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_notify_changes AFTER UPDATE ON profiles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_notify_profile_changes();
--> statement-breakpoint
-- My Songs pages by (created_at desc, id desc) per owner: the whole order from the index, so a label with
-- 20,000 releases reads 21 rows, not a sort of 20,000 (also under a prepared statement's generic plan).
CREATE INDEX IF NOT EXISTS releases_user_created_id_idx ON releases (user_id, created_at DESC, id DESC);
--> statement-breakpoint
DROP INDEX IF EXISTS releases_user_created_idx;
