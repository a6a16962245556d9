-- Issue 29 (record 213): the balance log's remaining per-row costs in a bulk balance apply.
-- 1. Its user reference (migration 0025) no longer takes a key-share lock on a user whose profile row this
--    transaction has just written (the visible version's xmin is this transaction and its updated_at is this
--    transaction's now(), as every balance writer sets it): the writer's row lock on that profile, held to
--    the end of the transaction, already keeps the user from being deleted, as the key-share lock did (a
--    user's delete cascades to the profile and waits for that lock; once it may go on, its own RESTRICT
--    check sees the committed log rows and fails). Every other named user (an admin, a log row written
--    without its profile, a writer inside a savepoint, whose rows carry the subtransaction's xid) is locked
--    FOR KEY SHARE and checked as before; a missing one still fails with foreign_key_violation.
-- 2. Its two remaining foreign keys (withdrawal_request_id ON DELETE SET NULL, royalty_import_id ON DELETE
--    RESTRICT) were checked by two trigger calls per inserted row, null or not: the same rules move into the
--    same statement trigger (the named rows locked FOR KEY SHARE, a missing one fails with
--    foreign_key_violation) and into statement triggers on the referenced tables (a deleted withdrawal
--    request leaves null, deleting a report the log names fails; neither id may change while named).
-- 3. balance_updates_log_created_idx (created_at DESC over every user) is read by no query: every read of
--    the log is one user's (user_created_idx) or the whole log. Each log row wrote it.
-- schema.ts keeps declaring the withdrawal reference (drizzle-kit knows no triggers), as for the users.
CREATE OR REPLACE FUNCTION tunedrop_balance_log_references_exist() RETURNS trigger
LANGUAGE plpgsql
-- Its own plans whatever the calling transaction set (record 204); no JIT compile for one statement.
SET enable_hashjoin = on SET enable_mergejoin = on SET jit = off
AS $$
DECLARE
  me xid := pg_current_xact_id()::xid;
  others text[];
  admins text[];
  withdrawals uuid[];
  imports uuid[];
  locked bigint;
BEGIN
  -- One pass over the new rows: a user whose profile this transaction wrote is held by that row lock; the
  -- others (and the admins) are locked below. EXISTS probes the profile's primary key once per row (OFFSET
  -- 0 keeps it evaluated once), so a one-row insert never scans profiles, whatever plan is cached.
  SELECT array_agg(r.user_id) FILTER (WHERE NOT r.held),
         array_agg(DISTINCT r.admin_id) FILTER (WHERE r.admin_id IS NOT NULL),
         array_agg(r.withdrawal_request_id) FILTER (WHERE r.withdrawal_request_id IS NOT NULL),
         array_agg(r.royalty_import_id) FILTER (WHERE r.royalty_import_id IS NOT NULL)
    INTO others, admins, withdrawals, imports
    FROM (SELECT n.user_id, n.admin_id, n.withdrawal_request_id, n.royalty_import_id,
                 EXISTS (SELECT 1 FROM profiles p
                          WHERE p.id = n.user_id AND p.xmin = me AND p.updated_at = now()) AS held
            FROM new_rows n
          OFFSET 0) AS r;
  others := others || admins;
  IF others IS NOT NULL THEN
    SELECT count(*) INTO locked FROM (
      SELECT 1 FROM "user" u WHERE u.id = ANY (others) FOR KEY SHARE OF u
    ) AS l;
    IF locked < (SELECT count(DISTINCT x) FROM unnest(others) AS x) THEN
      RAISE EXCEPTION 'insert or update on table "balance_updates_log" names a user that does not exist'
        USING ERRCODE = 'foreign_key_violation';
    END IF;
  END IF;
  IF withdrawals IS NOT NULL THEN
    SELECT count(*) INTO locked FROM (
      SELECT 1 FROM withdrawal_requests w WHERE w.id = ANY (withdrawals) FOR KEY SHARE OF w
    ) AS l;
    IF locked < (SELECT count(DISTINCT x) FROM unnest(withdrawals) AS x) THEN
      RAISE EXCEPTION 'insert or update on table "balance_updates_log" names a withdrawal request that does not exist'
        USING ERRCODE = 'foreign_key_violation';
    END IF;
  END IF;
  IF imports IS NOT NULL THEN
    SELECT count(*) INTO locked FROM (
      SELECT 1 FROM royalty_imports i WHERE i.id = ANY (imports) FOR KEY SHARE OF i
    ) AS l;
    IF locked < (SELECT count(DISTINCT x) FROM unnest(imports) AS x) THEN
      RAISE EXCEPTION 'insert or update on table "balance_updates_log" names a royalty report that does not exist'
        USING ERRCODE = 'foreign_key_violation';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS balance_updates_log_users_exist_insert ON balance_updates_log;
--> statement-breakpoint
DROP TRIGGER IF EXISTS balance_updates_log_users_exist_update ON balance_updates_log;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tunedrop_balance_log_users_exist();
--> statement-breakpoint
CREATE TRIGGER balance_updates_log_references_exist_insert AFTER INSERT ON balance_updates_log
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_balance_log_references_exist();
--> statement-breakpoint
CREATE TRIGGER balance_updates_log_references_exist_update AFTER UPDATE ON balance_updates_log
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_balance_log_references_exist();
--> statement-breakpoint
ALTER TABLE "balance_updates_log" DROP CONSTRAINT IF EXISTS "balance_updates_log_withdrawal_request_id_withdrawal_requests_i";
--> statement-breakpoint
ALTER TABLE "balance_updates_log" DROP CONSTRAINT IF EXISTS "balance_updates_log_royalty_import_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_withdrawal_delete_balance_log() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE balance_updates_log l SET withdrawal_request_id = NULL
    FROM old_rows o WHERE l.withdrawal_request_id = o.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER withdrawal_delete_balance_log AFTER DELETE ON withdrawal_requests
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_withdrawal_delete_balance_log();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_royalty_import_delete_balance_log() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM balance_updates_log l JOIN old_rows o ON o.id = l.royalty_import_id) THEN
    RAISE EXCEPTION 'update or delete on table "royalty_imports" violates the reference from table "balance_updates_log"'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER royalty_import_delete_balance_log AFTER DELETE ON royalty_imports
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_royalty_import_delete_balance_log();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tunedrop_referenced_id_change_balance_log() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_TABLE_NAME = 'withdrawal_requests'
      AND EXISTS (SELECT 1 FROM balance_updates_log WHERE withdrawal_request_id = OLD.id))
     OR (TG_TABLE_NAME = 'royalty_imports'
      AND EXISTS (SELECT 1 FROM balance_updates_log WHERE royalty_import_id = OLD.id)) THEN
    RAISE EXCEPTION 'update or delete on table "%" violates the reference from table "balance_updates_log"', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER withdrawal_id_change_balance_log BEFORE UPDATE OF id ON withdrawal_requests
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION tunedrop_referenced_id_change_balance_log();
--> statement-breakpoint
CREATE TRIGGER royalty_import_id_change_balance_log BEFORE UPDATE OF id ON royalty_imports
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION tunedrop_referenced_id_change_balance_log();
--> statement-breakpoint
DROP INDEX IF EXISTS "balance_updates_log_created_idx";
