-- Issue 29 (record 172): balance_updates_log's two references to "user" (user_id ON DELETE RESTRICT,
-- admin_id ON DELETE SET NULL) were foreign keys, checked by one trigger call per inserted row: 20,000
-- lookups and key-share locks for a 10,000-row bulk update, a third of its statement. The same rules,
-- checked once per statement over all its rows:
-- - an insert (or update) of log rows locks the users it names FOR KEY SHARE, as a foreign key does, so
--   none can be deleted before the transaction ends, and fails with foreign_key_violation when one is missing;
-- - deleting users that log rows name as user_id fails (RESTRICT); their admin_id is set to null;
-- - a user's id cannot change while log rows name it.
-- schema.ts still declares both references: these triggers enforce them (drizzle describes no triggers).
ALTER TABLE "balance_updates_log" DROP CONSTRAINT IF EXISTS "balance_updates_log_user_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "balance_updates_log" DROP CONSTRAINT IF EXISTS "balance_updates_log_admin_id_user_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_balance_log_users_exist() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  wanted bigint;
  found bigint;
BEGIN
  SELECT count(*) INTO wanted FROM (
    SELECT user_id AS id FROM new_rows
    UNION
    SELECT admin_id FROM new_rows WHERE admin_id IS NOT NULL
  ) AS named;
  SELECT count(*) INTO found FROM (
    SELECT 1 FROM "user" u
     WHERE u.id IN (SELECT user_id FROM new_rows UNION SELECT admin_id FROM new_rows WHERE admin_id IS NOT NULL)
       FOR KEY SHARE OF u
  ) AS locked;
  IF found < wanted THEN
    RAISE EXCEPTION 'insert or update on table "balance_updates_log" names a user that does not exist'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER balance_updates_log_users_exist_insert AFTER INSERT ON balance_updates_log
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_balance_log_users_exist();
--> statement-breakpoint
CREATE TRIGGER balance_updates_log_users_exist_update AFTER UPDATE ON balance_updates_log
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_balance_log_users_exist();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_user_delete_balance_log() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM balance_updates_log l JOIN old_rows o ON o.id = l.user_id) THEN
    RAISE EXCEPTION 'update or delete on table "user" violates the reference from table "balance_updates_log"'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  UPDATE balance_updates_log l SET admin_id = NULL FROM old_rows o WHERE l.admin_id = o.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER user_delete_balance_log AFTER DELETE ON "user"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_user_delete_balance_log();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_user_id_change_balance_log() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM balance_updates_log WHERE user_id = OLD.id OR admin_id = OLD.id) THEN
    RAISE EXCEPTION 'update or delete on table "user" violates the reference from table "balance_updates_log"'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER user_id_change_balance_log BEFORE UPDATE OF id ON "user"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION tunedrop_user_id_change_balance_log();
