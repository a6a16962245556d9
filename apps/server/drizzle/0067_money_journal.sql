-- Issue 36 (docs/money.md, record 241): money on one double-entry journal. journal_transactions holds one
-- balanced movement each (kind, reference, actor, memo, the report's rate, what it corrects);
-- journal_entries its legs, signed exact USD amounts (positive = debit, negative = credit).
-- The rules the database holds, on PostgreSQL and PGlite alike:
-- 1. Append-only: UPDATE, DELETE and TRUNCATE of either table are refused (a correction is a new
--    transaction naming the one it corrects). Statement triggers: refused even when no row matches.
-- 2. An entry is written in the database transaction that wrote its journal transaction (txid), checked
--    once per INSERT statement over its transition table, so a transaction cannot be extended later.
-- 3. A deferred constraint trigger, one per journal transaction (not per entry), refuses at commit a
--    transaction without entries or whose entries do not sum to zero per currency.
-- 4. Accounts a person can withdraw from (artist_payable, withdrawals_payable, payee_held) move in
--    whole cents only (a CHECK).
CREATE TABLE "journal_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" uuid NOT NULL,
	"account" text NOT NULL,
	"subject" text,
	"amount" numeric NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	CONSTRAINT "journal_entries_account_check" CHECK (account in ('store_receivable', 'artist_payable', 'withdrawals_payable', 'withdrawals_paid', 'payee_held', 'suspense', 'fee_income', 'operator_revenue', 'rounding_residue', 'manual_adjustments')),
	CONSTRAINT "journal_entries_whole_cents" CHECK (account not in ('artist_payable', 'withdrawals_payable', 'payee_held') or amount = trunc(amount, 2))
);
--> statement-breakpoint
CREATE TABLE "journal_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"reference_type" text,
	"reference_id" text,
	"actor_id" text,
	"memo" text,
	"currency" text DEFAULT 'USD' NOT NULL,
	"rate" numeric,
	"corrects_id" uuid,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"txid" bigint DEFAULT txid_current() NOT NULL,
	CONSTRAINT "journal_transactions_kind_check" CHECK (kind in ('royalty_posting', 'split_release', 'split_return', 'suspense_assignment', 'suspense_release', 'manual_adjustment', 'bulk_adjustment', 'cli_adjustment', 'withdrawal_request', 'withdrawal_cancel', 'withdrawal_reject', 'withdrawal_paid', 'correction', 'opening_balance'))
);
--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_transaction_id_journal_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."journal_transactions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_corrects_id_journal_transactions_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."journal_transactions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "journal_entries_account_subject_idx" ON "journal_entries" USING btree ("account","subject");
--> statement-breakpoint
CREATE INDEX "journal_entries_transaction_idx" ON "journal_entries" USING btree ("transaction_id");
--> statement-breakpoint
CREATE INDEX "journal_transactions_reference_idx" ON "journal_transactions" USING btree ("reference_type","reference_id");
--> statement-breakpoint
CREATE INDEX "journal_transactions_created_idx" ON "journal_transactions" USING btree ("created_at");
--> statement-breakpoint
CREATE FUNCTION tunedrop_journal_append_only() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  RAISE EXCEPTION 'the money journal is append-only: % on % is refused (write a correcting transaction instead)',
    TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER journal_transactions_append_only BEFORE UPDATE OR DELETE ON journal_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_journal_append_only();
--> statement-breakpoint
CREATE TRIGGER journal_transactions_no_truncate BEFORE TRUNCATE ON journal_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_journal_append_only();
--> statement-breakpoint
CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_journal_append_only();
--> statement-breakpoint
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_journal_append_only();
--> statement-breakpoint
CREATE FUNCTION tunedrop_journal_entries_same_transaction() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF EXISTS (
    SELECT 1
      FROM (SELECT DISTINCT transaction_id FROM new_rows) n
      JOIN journal_transactions t ON t.id = n.transaction_id
     WHERE t.txid <> txid_current()
  ) THEN
    RAISE EXCEPTION 'journal entries must be written in the database transaction of their journal transaction'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER journal_entries_same_transaction AFTER INSERT ON journal_entries
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_journal_entries_same_transaction();
--> statement-breakpoint
CREATE FUNCTION tunedrop_journal_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  off record;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM journal_entries WHERE transaction_id = NEW.id) THEN
    RAISE EXCEPTION 'journal transaction % (%) has no entries', NEW.id, NEW.kind
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  SELECT currency, sum(amount) AS total INTO off
    FROM journal_entries WHERE transaction_id = NEW.id
   GROUP BY currency HAVING sum(amount) <> 0
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'journal transaction % (%) is out of balance by % %', NEW.id, NEW.kind, off.total, off.currency
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_transactions_balanced AFTER INSERT ON journal_transactions
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION tunedrop_journal_transaction_balanced();
