-- Sanity warnings of a staged royalty report (issue 25 finding 7, decision record 187): sales dated before
-- the release, an artist-supplied ISRC of another registrant that the report credits to another artist.
-- One row per (report, kind, subject); posting is refused while a row is neither accepted nor resolved.
CREATE TABLE "royalty_import_warnings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"import_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"line_count" integer NOT NULL,
	"amount" numeric NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "royalty_import_warnings_kind_check" CHECK (kind in ('period_before_release', 'foreign_isrc'))
);
--> statement-breakpoint
ALTER TABLE "royalty_import_warnings" ADD CONSTRAINT "royalty_import_warnings_import_id_royalty_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "royalty_import_warnings" ADD CONSTRAINT "royalty_import_warnings_accepted_by_user_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "royalty_import_warnings" ADD CONSTRAINT "royalty_import_warnings_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_import_warnings_subject_unique" ON "royalty_import_warnings" USING btree ("import_id","kind","subject");
