-- Catalogue import as a job (issue 43 finding 12, record 232): an import is recorded first (queued), run
-- by a pg-boss job that reports its progress here, and resumed from its report after a crash. The artist
-- profile chosen for a folder is kept with it (issue 44 finding 4, record 233). Earlier imports are done.
ALTER TABLE "catalogue_imports" ADD COLUMN "status" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "catalogue_imports" ADD COLUMN "processed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "catalogue_imports" ADD COLUMN "total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "catalogue_imports" ADD COLUMN "artist_profile" text;--> statement-breakpoint
UPDATE "catalogue_imports" SET "processed" = jsonb_array_length("report"->'releases'), "total" = jsonb_array_length("report"->'releases');--> statement-breakpoint
ALTER TABLE "catalogue_imports" ADD CONSTRAINT "catalogue_imports_status_check" CHECK (status in ('queued', 'running', 'done', 'failed'));
