-- Live updates (GET /api/events): every committed change to what a signed-in user sees about their own
-- account (plan, subscription, balances, names, ban, roles) sends a NOTIFY on 'profile_changes' from the
-- same transaction, whichever module made it. The payload names the user and what changed; listeners
-- read the current row themselves, so the 8000-byte payload limit never matters.
CREATE OR REPLACE FUNCTION tunedrop_notify_profile_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  changed := array_remove(ARRAY[
    CASE WHEN NEW.plan IS DISTINCT FROM OLD.plan THEN 'plan' END,
    CASE WHEN NEW.pending_plan IS DISTINCT FROM OLD.pending_plan THEN 'pending_plan' END,
    CASE WHEN NEW.subscription_status IS DISTINCT FROM OLD.subscription_status THEN 'subscription_status' END,
    CASE WHEN NEW.subscription_end IS DISTINCT FROM OLD.subscription_end THEN 'subscription_end' END,
    CASE WHEN NEW.cancel_at_period_end IS DISTINCT FROM OLD.cancel_at_period_end THEN 'cancel_at_period_end' END,
    CASE WHEN NEW.balance_cents IS DISTINCT FROM OLD.balance_cents THEN 'balance_cents' END,
    CASE WHEN NEW.pending_balance_cents IS DISTINCT FROM OLD.pending_balance_cents THEN 'pending_balance_cents' END,
    CASE WHEN NEW.total_earnings_cents IS DISTINCT FROM OLD.total_earnings_cents THEN 'total_earnings_cents' END,
    CASE WHEN NEW.full_name IS DISTINCT FROM OLD.full_name THEN 'full_name' END,
    CASE WHEN NEW.artist_name IS DISTINCT FROM OLD.artist_name THEN 'artist_name' END,
    CASE WHEN NEW.banned IS DISTINCT FROM OLD.banned OR NEW.ban_reason IS DISTINCT FROM OLD.ban_reason THEN 'banned' END
  ], NULL);
  IF coalesce(array_length(changed, 1), 0) = 0 THEN
    RETURN NEW;
  END IF;
  PERFORM pg_notify('profile_changes', json_build_object('userId', NEW.id, 'changed', changed)::text);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_notify_change AFTER UPDATE ON profiles
  FOR EACH ROW EXECUTE FUNCTION tunedrop_notify_profile_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_notify_role_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    'profile_changes',
    json_build_object('userId', coalesce(NEW.user_id, OLD.user_id), 'changed', ARRAY['roles'])::text
  );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER user_roles_notify_change AFTER INSERT OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION tunedrop_notify_role_change();
