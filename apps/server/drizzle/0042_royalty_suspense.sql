-- The suspense account (issue 25 finding 2, decision record 188): a posted report's unmatched lines keep
-- their money here, line by line, until an admin assigns the code (paid by a small posting of its own,
-- royalty_imports.suspense_of = the original report) or releases it to operator revenue with a reason.
CREATE TABLE "royalty_suspense_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"import_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"line_key" text NOT NULL,
	"isrc" text,
	"upc" text,
	"title" text,
	"artist" text,
	"store" text,
	"country" text,
	"period" text NOT NULL,
	"usage_type" text,
	"units" numeric NOT NULL,
	"amount" numeric NOT NULL,
	"amount_usd" numeric NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"assigned_import_id" uuid,
	"user_id" text,
	"track_id" uuid,
	"release_id" uuid,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "royalty_suspense_lines_state_check" CHECK (state in ('open', 'assigned', 'released')),
	CONSTRAINT "royalty_suspense_lines_resolved_check" CHECK ((state = 'open') = (resolved_at is null) and (state <> 'assigned' or assigned_import_id is not null) and (state <> 'released' or reason is not null))
);
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "suspense_of" uuid;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD CONSTRAINT "royalty_imports_suspense_of_royalty_imports_id_fk" FOREIGN KEY ("suspense_of") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_suspense_lines" ADD CONSTRAINT "royalty_suspense_lines_import_id_royalty_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_suspense_lines" ADD CONSTRAINT "royalty_suspense_lines_assigned_import_id_royalty_imports_id_fk" FOREIGN KEY ("assigned_import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_suspense_lines" ADD CONSTRAINT "royalty_suspense_lines_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "royalty_suspense_lines" ADD CONSTRAINT "royalty_suspense_lines_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_suspense_lines_line_unique" ON "royalty_suspense_lines" USING btree ("import_id","line_no");
--> statement-breakpoint
CREATE INDEX "royalty_suspense_lines_code_idx" ON "royalty_suspense_lines" USING btree ("state",coalesce("isrc", "upc"));
