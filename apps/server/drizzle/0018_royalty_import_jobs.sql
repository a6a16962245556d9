-- Royalty imports as jobs (issue 24, decision records 161 and 162): the upload answers 202 once the file
-- is in storage, a worker reads and stages it in chunks and posts it in chunks. The row carries where the
-- work is (phase) and how far (lines read of the file's lines, money so far), the file's storage key and
-- the options it was uploaded with, and the posting progress.
ALTER TABLE "royalty_imports" ADD COLUMN "phase" text DEFAULT 'queued' NOT NULL;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "lines_read" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "lines_total" integer;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "amount_read" numeric;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "lines_posted" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "file_key" text;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "options" jsonb;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "post_error" text;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "progress_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
UPDATE "royalty_imports" SET "phase" = CASE "status" WHEN 'staged' THEN 'ready' WHEN 'posted' THEN 'posted' ELSE 'failed' END, "lines_read" = "line_count";
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD CONSTRAINT "royalty_imports_phase_check" CHECK ("phase" in ('queued', 'reading', 'staging', 'ready', 'posting', 'posted', 'failed'));
--> statement-breakpoint
-- Sums per (artist, release, track, period) of the earnings lines written so far by a posting in chunks:
-- each chunk adds to them in its own transaction, the last step reads a few thousand rows, not a million.
CREATE TABLE "royalty_posting_groups" (
  "import_id" uuid NOT NULL,
  "user_id" text NOT NULL,
  "release_id" uuid,
  "track_id" uuid,
  "period" text NOT NULL,
  "amount" numeric NOT NULL,
  "lines" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_posting_groups_key" ON "royalty_posting_groups" USING btree ("import_id","user_id","release_id","track_id","period") NULLS NOT DISTINCT;
--> statement-breakpoint
-- Earnings lines of a posting still in progress may be removed when that posting cannot complete
-- (an artist would go below zero...): they belong to no posted report yet. Posted lines stay immutable.
CREATE OR REPLACE FUNCTION tunedrop_royalty_earnings_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (
    SELECT 1 FROM royalty_imports WHERE id = OLD.import_id AND status = 'posted'
  ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'royalty earnings lines are immutable';
END;
$$;
--> statement-breakpoint
-- Whether a report still has lines waiting for their share of a summary (posting asks before each run):
-- an index of those few lines answers at once instead of scanning a million staged lines.
CREATE INDEX "royalty_import_lines_unallocated_idx" ON "royalty_import_lines" USING btree ("import_id") WHERE amount is null;
