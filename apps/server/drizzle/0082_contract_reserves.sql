-- Royalty reserves on label contract terms (issue 39, record 287): a percent held back per term at posting onto
-- the journal account reserve_held (per contract), released in parts on the following statement months.
CREATE TABLE "contract_reserve_releases" (
	"reserve_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"due_month" date NOT NULL,
	"cents" bigint NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "contract_reserve_releases_reserve_id_part_pk" PRIMARY KEY("reserve_id","part"),
	CONSTRAINT "contract_reserve_releases_cents" CHECK (cents >= 0)
);
--> statement-breakpoint
CREATE TABLE "contract_reserves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"import_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"term_position" integer NOT NULL,
	"label_id" text NOT NULL,
	"payee_user_id" text NOT NULL,
	"held_month" date NOT NULL,
	"sales_royalty_usd" numeric NOT NULL,
	"percent" numeric NOT NULL,
	"reserve_usd" numeric NOT NULL,
	"held_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_reserves_held_positive" CHECK (held_cents > 0)
);
--> statement-breakpoint
ALTER TABLE "journal_entries" DROP CONSTRAINT "journal_entries_account_check";--> statement-breakpoint
ALTER TABLE "journal_entries" DROP CONSTRAINT "journal_entries_whole_cents";--> statement-breakpoint
ALTER TABLE "journal_transactions" DROP CONSTRAINT "journal_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "balance_updates_log" DROP CONSTRAINT "balance_updates_log_type_check";--> statement-breakpoint
ALTER TABLE "contract_terms" ADD COLUMN "reserve_percent" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "contract_terms" ADD COLUMN "reserve_schedule" numeric[] DEFAULT '{}'::numeric[] NOT NULL;--> statement-breakpoint
ALTER TABLE "contract_reserve_releases" ADD CONSTRAINT "contract_reserve_releases_reserve_id_contract_reserves_id_fk" FOREIGN KEY ("reserve_id") REFERENCES "public"."contract_reserves"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_reserves" ADD CONSTRAINT "contract_reserves_import_id_royalty_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_reserves" ADD CONSTRAINT "contract_reserves_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_reserve_releases_due_idx" ON "contract_reserve_releases" USING btree ("due_month") WHERE released_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_reserves_posting_term_unique" ON "contract_reserves" USING btree ("import_id","contract_id","term_position");--> statement-breakpoint
CREATE INDEX "contract_reserves_contract_idx" ON "contract_reserves" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "contract_reserves_payee_idx" ON "contract_reserves" USING btree ("payee_user_id","held_month");--> statement-breakpoint
ALTER TABLE "contract_terms" ADD CONSTRAINT "contract_terms_reserve_range" CHECK (reserve_percent >= 0 and reserve_percent <= 100);--> statement-breakpoint
ALTER TABLE "contract_terms" ADD CONSTRAINT "contract_terms_reserve_schedule" CHECK ((reserve_percent = 0) = (cardinality(reserve_schedule) = 0));--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_account_check" CHECK (account in ('store_receivable', 'artist_payable', 'withdrawals_payable', 'withdrawals_paid', 'payee_held', 'suspense', 'fee_income', 'operator_revenue', 'rounding_residue', 'manual_adjustments', 'tax_withheld_payable', 'reserve_held'));--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_whole_cents" CHECK (account not in ('artist_payable', 'withdrawals_payable', 'payee_held', 'tax_withheld_payable', 'reserve_held') or amount = trunc(amount, 2));--> statement-breakpoint
ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_kind_check" CHECK (kind in ('royalty_posting', 'split_release', 'split_return', 'suspense_assignment', 'suspense_release', 'manual_adjustment', 'bulk_adjustment', 'cli_adjustment', 'withdrawal_request', 'withdrawal_cancel', 'withdrawal_reject', 'withdrawal_paid', 'correction', 'opening_balance', 'payout_paid', 'payout_returned', 'reserve_release'));--> statement-breakpoint
ALTER TABLE "balance_updates_log" ADD CONSTRAINT "balance_updates_log_type_check" CHECK (update_type in ('manual', 'bulk_csv', 'cli', 'withdrawal_request', 'withdrawal_cancel', 'withdrawal_refund', 'royalty_import', 'split_release', 'split_return', 'reserve_release'));