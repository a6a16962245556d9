-- Issue 29 (record 204): a batch that changes balances only (it sets tunedrop.changed_balances for its one
-- statement, migration 0024) changes no plan and no ban, so the profile count trigger has no delta to
-- compute for it: it returns at once instead of grouping the batch's old and new rows. The setting is
-- still cleared by the notification trigger, which runs after this one (triggers fire in name order).
CREATE OR REPLACE FUNCTION tunedrop_profile_count_deltas() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  batch_changed text := coalesce(current_setting('tunedrop.changed_balances', true), '');
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO profile_count_deltas (plan, banned, delta)
      SELECT plan, banned, count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO profile_count_deltas (plan, banned, delta)
      SELECT plan, banned, -count(*) FROM old_rows GROUP BY 1, 2;
  ELSIF batch_changed <> '' AND batch_changed !~ '(plan|banned)' THEN
    RETURN NULL;
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
-- The bulk apply walks its rows with a nested loop (transaction-local enable_hashjoin/enable_mergejoin
-- off, so two batches lock profiles in the same id order); the balance log's reference check keeps its
-- own hash plans whatever the transaction set.
ALTER FUNCTION tunedrop_balance_log_users_exist() SET enable_hashjoin = on SET enable_mergejoin = on;
