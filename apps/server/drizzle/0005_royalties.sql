-- Royalty import (issue 16, decision records 110-115): imported reports, their staged lines, remembered
-- code mappings and CSV presets, immutable earnings lines, and one posting row per artist per report.
-- The two big tables (staged lines, earnings lines) have no foreign keys: a per-row referential check costs
-- more than the insert (decision 114). Their integrity comes from the small tables: every earnings line of
-- an artist and report has a royalty_postings row, whose foreign keys restrict deleting the user or the
-- report; staged lines are deleted with their report by the service.
CREATE TABLE "royalty_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"format" text NOT NULL,
	"status" text DEFAULT 'staging' NOT NULL,
	"currency" text,
	"exchange_rate" numeric,
	"sender" text,
	"message_id" text,
	"file_number" integer,
	"period_start" date,
	"period_end" date,
	"line_count" integer DEFAULT 0 NOT NULL,
	"refused_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"totals" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"posted_at" timestamp with time zone,
	"posted_by" text,
	"posted_cents" bigint,
	"residue" numeric,
	"posted_artists" integer,
	CONSTRAINT "royalty_imports_format_check" CHECK (format in ('dsr', 'distrokid', 'tunecore', 'fuga', 'csv')),
	CONSTRAINT "royalty_imports_status_check" CHECK (status in ('staging', 'staged', 'failed', 'posted')),
	CONSTRAINT "royalty_imports_posted_consistent" CHECK ((status = 'posted') = (posted_at is not null))
);
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD CONSTRAINT "royalty_imports_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD CONSTRAINT "royalty_imports_posted_by_user_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_imports_file_sha256_unique" ON "royalty_imports" USING btree ("file_sha256");
--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_imports_message_unique" ON "royalty_imports" USING btree ("sender","message_id","file_number") WHERE message_id is not null;
--> statement-breakpoint
CREATE INDEX "royalty_imports_created_idx" ON "royalty_imports" USING btree ("created_at" DESC,"id" DESC);
--> statement-breakpoint
CREATE TABLE "royalty_import_summaries" (
	"import_id" uuid NOT NULL,
	"summary_id" text NOT NULL,
	"net_revenue" numeric NOT NULL,
	"usages" numeric,
	CONSTRAINT "royalty_import_summaries_pk" PRIMARY KEY("import_id","summary_id")
);
--> statement-breakpoint
ALTER TABLE "royalty_import_summaries" ADD CONSTRAINT "royalty_import_summaries_import_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "royalty_import_lines" (
	"import_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"line_key" text NOT NULL,
	"summary_id" text,
	"isrc" text,
	"upc" text,
	"title" text,
	"artist" text,
	"store" text,
	"country" text,
	"period" text,
	"usage_type" text,
	"units" numeric NOT NULL,
	"amount" numeric,
	"royalty_bearing" boolean DEFAULT true NOT NULL,
	"track_id" uuid,
	"release_id" uuid,
	"user_id" text,
	CONSTRAINT "royalty_import_lines_pk" PRIMARY KEY("import_id","line_no"),
	CONSTRAINT "royalty_import_lines_amount_or_summary" CHECK (amount is not null or summary_id is not null)
);
--> statement-breakpoint
CREATE INDEX "royalty_import_lines_unmatched_idx" ON "royalty_import_lines" USING btree ("isrc","upc") WHERE user_id is null;
--> statement-breakpoint
CREATE TABLE "royalty_code_mappings" (
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"track_id" uuid,
	"release_id" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "royalty_code_mappings_pk" PRIMARY KEY("kind","code"),
	CONSTRAINT "royalty_code_mappings_kind_check" CHECK (kind in ('isrc', 'upc')),
	CONSTRAINT "royalty_code_mappings_target_check" CHECK ((track_id is null) <> (release_id is null))
);
--> statement-breakpoint
ALTER TABLE "royalty_code_mappings" ADD CONSTRAINT "royalty_code_mappings_track_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_code_mappings" ADD CONSTRAINT "royalty_code_mappings_release_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_code_mappings" ADD CONSTRAINT "royalty_code_mappings_created_by_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "royalty_csv_presets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"delimiter" text DEFAULT ',' NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"mapping" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_csv_presets_name_unique" ON "royalty_csv_presets" USING btree (lower("name"));
--> statement-breakpoint
CREATE TABLE "royalty_earnings" (
	"import_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"line_key" text NOT NULL,
	"user_id" text NOT NULL,
	"track_id" uuid,
	"release_id" uuid,
	"store" text,
	"country" text,
	"period" text NOT NULL,
	"usage_type" text,
	"units" numeric NOT NULL,
	"amount" numeric NOT NULL,
	"amount_usd" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "royalty_earnings_pk" PRIMARY KEY("import_id","line_no")
);
--> statement-breakpoint
CREATE INDEX "royalty_earnings_user_period_idx" ON "royalty_earnings" USING btree ("user_id","period");
--> statement-breakpoint
CREATE FUNCTION tunedrop_royalty_earnings_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'royalty earnings lines are immutable';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER royalty_earnings_immutable BEFORE UPDATE OR DELETE ON royalty_earnings
FOR EACH ROW EXECUTE FUNCTION tunedrop_royalty_earnings_immutable();
--> statement-breakpoint
CREATE TABLE "royalty_postings" (
	"import_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"amount_usd" numeric NOT NULL,
	"cents" bigint NOT NULL,
	"lines" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "royalty_postings_pk" PRIMARY KEY("import_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "royalty_postings" ADD CONSTRAINT "royalty_postings_import_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_postings" ADD CONSTRAINT "royalty_postings_user_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "royalty_postings_user_idx" ON "royalty_postings" USING btree ("user_id");
--> statement-breakpoint
ALTER TABLE "balance_updates_log" ADD COLUMN "royalty_import_id" uuid;
--> statement-breakpoint
ALTER TABLE "balance_updates_log" ADD CONSTRAINT "balance_updates_log_royalty_import_fk" FOREIGN KEY ("royalty_import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "balance_updates_log" DROP CONSTRAINT "balance_updates_log_type_check";
--> statement-breakpoint
ALTER TABLE "balance_updates_log" ADD CONSTRAINT "balance_updates_log_type_check" CHECK (update_type in ('manual', 'bulk_csv', 'cli', 'withdrawal_request', 'withdrawal_cancel', 'withdrawal_refund', 'royalty_import'));
--> statement-breakpoint
ALTER TABLE "balance_updates_log" ADD CONSTRAINT "balance_updates_log_royalty_import_consistent" CHECK ((update_type = 'royalty_import') = (royalty_import_id is not null));
