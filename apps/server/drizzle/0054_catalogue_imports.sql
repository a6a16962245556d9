-- Catalogue import (issue 26 finding 10, decision record 200): one row per run of `catalogue:import` or
-- of the admin page, with who ran it, the folder, the owner and the per-release report (kept, listed and
-- downloadable).
CREATE TABLE "catalogue_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_user_id" text,
	"actor_label" text NOT NULL,
	"source" text NOT NULL,
	"format" text NOT NULL,
	"owner_user_id" text,
	"owner_email" text NOT NULL,
	"skip_review" boolean NOT NULL,
	"imported_count" integer NOT NULL,
	"refused_count" integer NOT NULL,
	"report" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_imports_format_check" CHECK (format in ('ern', 'csv', 'none'))
);
--> statement-breakpoint
ALTER TABLE "catalogue_imports" ADD CONSTRAINT "catalogue_imports_actor_user_id_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "catalogue_imports" ADD CONSTRAINT "catalogue_imports_owner_user_id_user_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "catalogue_imports_created_idx" ON "catalogue_imports" USING btree ("created_at" DESC NULLS LAST);
