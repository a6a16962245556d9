-- Issue 38 (record 267): payouts through the operator's own provider. payout_providers holds each provider's
-- credentials encrypted at rest; a payout run has one item per payee (blocked with a reason, or holding the
-- payee's pending withdrawal requests through payout_item_requests) and one batch per provider whose
-- sender_batch_id is the provider's idempotency key; payout_events keeps the provider events already applied
-- so a repeat changes nothing. The journal gains the kinds payout_paid and payout_returned (the account
-- tax_withheld_payable came with 0075).
CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"sender_batch_id" text NOT NULL,
	"provider_reference" text,
	"file_csv" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_batches_run_provider_unique" UNIQUE("run_id","provider"),
	CONSTRAINT "payout_batches_sender_batch_id_unique" UNIQUE("sender_batch_id"),
	CONSTRAINT "payout_batches_provider_check" CHECK (provider in ('bank-csv', 'paypal'))
);
--> statement-breakpoint
CREATE TABLE "payout_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"item_id" uuid,
	"status" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_events_provider_event_unique" UNIQUE("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "payout_item_requests" (
	"withdrawal_request_id" uuid PRIMARY KEY NOT NULL,
	"item_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"provider" text,
	"state" text NOT NULL,
	"blocked_code" text,
	"blocked_reason" text,
	"payment_method" text,
	"payment_details_encrypted" text,
	"gross_cents" bigint DEFAULT 0 NOT NULL,
	"withheld_cents" bigint DEFAULT 0 NOT NULL,
	"net_cents" bigint DEFAULT 0 NOT NULL,
	"withholding_summary" text,
	"withholding_decision" jsonb,
	"idempotency_key" text NOT NULL,
	"batch_id" uuid,
	"provider_reference" text,
	"provider_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"return_reason" text,
	CONSTRAINT "payout_items_run_user_unique" UNIQUE("run_id","user_id"),
	CONSTRAINT "payout_items_idempotency_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "payout_items_state_check" CHECK (state in ('blocked', 'planned', 'sent', 'paid', 'returned')),
	CONSTRAINT "payout_items_provider_check" CHECK (provider is null or provider in ('bank-csv', 'paypal')),
	CONSTRAINT "payout_items_amounts" CHECK (gross_cents >= 0 and withheld_cents >= 0 and net_cents = gross_cents - withheld_cents)
);
--> statement-breakpoint
CREATE TABLE "payout_providers" (
	"provider" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"credentials_encrypted" text,
	"base_url" text,
	"last_test_at" timestamp with time zone,
	"last_test_ok" boolean,
	"last_test_message" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "payout_providers_provider_check" CHECK (provider in ('bank-csv', 'paypal'))
);
--> statement-breakpoint
CREATE TABLE "payout_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trigger" text NOT NULL,
	"state" text DEFAULT 'planned' NOT NULL,
	"period" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"sent_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "payout_runs_period_unique" UNIQUE("period"),
	CONSTRAINT "payout_runs_state_check" CHECK (state in ('planned', 'sending', 'sent', 'done')),
	CONSTRAINT "payout_runs_trigger_check" CHECK (trigger in ('manual', 'schedule', 'withdrawal'))
);
--> statement-breakpoint
CREATE TABLE "payout_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"schedule_day" integer,
	"withdrawal_mode" text DEFAULT 'next_run' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_settings_single_row" CHECK (id = 1),
	CONSTRAINT "payout_settings_day_check" CHECK (schedule_day is null or schedule_day between 1 and 28),
	CONSTRAINT "payout_settings_mode_check" CHECK (withdrawal_mode in ('next_run', 'immediate'))
);
--> statement-breakpoint
-- An upgrade from before 0070 runs 0070 in this same transaction: its journal rows' balance checks (a
-- deferred constraint trigger) are checked now, so journal_transactions can be altered (PostgreSQL refuses
-- ALTER TABLE with pending trigger events), then deferred again for whatever follows.
SET CONSTRAINTS journal_transactions_balanced IMMEDIATE;--> statement-breakpoint
ALTER TABLE "journal_transactions" DROP CONSTRAINT "journal_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_run_id_payout_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."payout_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_events" ADD CONSTRAINT "payout_events_item_id_payout_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."payout_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_item_requests" ADD CONSTRAINT "payout_item_requests_withdrawal_request_id_withdrawal_requests_id_fk" FOREIGN KEY ("withdrawal_request_id") REFERENCES "public"."withdrawal_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_item_requests" ADD CONSTRAINT "payout_item_requests_item_id_payout_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."payout_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_run_id_payout_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."payout_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_providers" ADD CONSTRAINT "payout_providers_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_runs" ADD CONSTRAINT "payout_runs_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_items_user_idx" ON "payout_items" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payout_items_state_idx" ON "payout_items" USING btree ("state");--> statement-breakpoint
CREATE INDEX "payout_runs_created_idx" ON "payout_runs" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_kind_check" CHECK (kind in ('royalty_posting', 'split_release', 'split_return', 'suspense_assignment', 'suspense_release', 'manual_adjustment', 'bulk_adjustment', 'cli_adjustment', 'withdrawal_request', 'withdrawal_cancel', 'withdrawal_reject', 'withdrawal_paid', 'correction', 'opening_balance', 'payout_paid', 'payout_returned'));--> statement-breakpoint
SET CONSTRAINTS journal_transactions_balanced DEFERRED;
