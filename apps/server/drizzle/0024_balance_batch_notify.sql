-- Issue 29 (record 172): a batch that changes balances only (the bulk CSV) says so for its one statement
-- with set_config('tunedrop.changed_balances', '<columns>', true). The profile-change trigger then sends
-- ONE notification for the whole batch (the user ids when there are at most 100, else `allUsers`)
-- without joining old and new rows, and clears the setting so the transaction's next statement is
-- compared as before. Any other update of profiles is unchanged (record 126's grouped payloads).
CREATE OR REPLACE FUNCTION tunedrop_notify_profile_changes() RETURNS trigger
LANGUAGE plpgsql SET enable_nestloop = off AS $$
DECLARE
  grp record;
  chunk integer;
  batch_changed text := current_setting('tunedrop.changed_balances', true);
  batch_ids text[];
BEGIN
  IF coalesce(batch_changed, '') <> '' THEN
    PERFORM set_config('tunedrop.changed_balances', '', true);
    SELECT array_agg(id ORDER BY id) INTO batch_ids FROM (SELECT id FROM new_rows LIMIT 101) AS first_rows;
    IF batch_ids IS NULL THEN
      RETURN NULL;
    ELSIF array_length(batch_ids, 1) <= 100 THEN
      PERFORM pg_notify('profile_changes', json_build_object(
        'userIds', batch_ids, 'changed', string_to_array(batch_changed, ','))::text);
    ELSE
      PERFORM pg_notify('profile_changes', json_build_object(
        'allUsers', true, 'changed', string_to_array(batch_changed, ','))::text);
    END IF;
    RETURN NULL;
  END IF;
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
