-- The operator's fee (issue 25 finding 3, decision record 189): a distribution fee in percent per plan
-- (settings FEE_PERCENT_BASIC/PRO/PAYEE) or per account (account_fees), taken from each artist's gross of
-- a report before recoupment and splits; what it kept is recorded on the posting and booked as the
-- operator's revenue, beside released suspense.
ALTER TABLE "royalty_postings" ADD COLUMN "fee_percent" numeric;
--> statement-breakpoint
ALTER TABLE "royalty_postings" ADD COLUMN "fee_cents" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE "operator_revenue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"import_id" uuid,
	"user_id" text,
	"period" text,
	"cents" bigint NOT NULL,
	"amount_usd" numeric NOT NULL,
	"reason" text,
	"reference_id" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_revenue_kind_check" CHECK (kind in ('fee', 'suspense_release', 'rounding'))
);
--> statement-breakpoint
CREATE TABLE "account_fees" (
	"user_id" text PRIMARY KEY NOT NULL,
	"fee_percent" numeric NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_revenue" ADD CONSTRAINT "operator_revenue_import_id_royalty_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "operator_revenue" ADD CONSTRAINT "operator_revenue_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "operator_revenue" ADD CONSTRAINT "operator_revenue_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_fees" ADD CONSTRAINT "account_fees_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_fees" ADD CONSTRAINT "account_fees_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_revenue_fee_unique" ON "operator_revenue" USING btree ("import_id","user_id") WHERE kind = 'fee';
--> statement-breakpoint
CREATE INDEX "operator_revenue_import_idx" ON "operator_revenue" USING btree ("import_id");
--> statement-breakpoint
CREATE INDEX "royalty_import_lines_import_unmatched_idx" ON "royalty_import_lines" USING btree ("import_id","line_no") WHERE user_id is null;
