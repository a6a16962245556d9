-- Overlap protection (issue 25 finding 1, decision record 186): every staged sales line carries an identity
-- that a later file repeating the sale shares (the DSR's SalesTransactionId with the sender and period, a
-- statement's sale id, else a fingerprint of the line plus its ordinal among identical lines of its file).
-- royalty_posted_lines holds the identity of every posted line, matched or unmatched: its primary key is
-- what refuses a sale posted twice. Lines of an import already posted elsewhere name that report in
-- posted_in and are left out of posting. Existing lines, earnings and postings are backfilled.
ALTER TABLE "royalty_import_lines" ADD COLUMN "line_identity" uuid DEFAULT gen_random_uuid() NOT NULL;
--> statement-breakpoint
ALTER TABLE "royalty_import_lines" ADD COLUMN "posted_in" uuid;
--> statement-breakpoint
ALTER TABLE "royalty_earnings" ADD COLUMN "line_identity" uuid;
--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD COLUMN "overlap" jsonb;
--> statement-breakpoint
CREATE TABLE "royalty_posted_lines" (
	"line_identity" uuid PRIMARY KEY NOT NULL,
	"import_id" uuid NOT NULL,
	"line_no" integer NOT NULL
);
--> statement-breakpoint
UPDATE "royalty_import_lines" l SET "line_identity" = md5(
  CASE
    WHEN i.format = 'dsr' AND i.sender IS NOT NULL AND i.message_id IS NOT NULL
      THEN 'dsr|' || i.sender || '|' || coalesce(i.period_start::text, '') || '..' || coalesce(i.period_end::text, '')
        || '|' || substr(l.line_key, length(i.sender) + length(i.message_id) + 3)
    WHEN i.format <> 'dsr' AND position('/' in l.line_key) > 0
      THEN 'sale|' || i.format || '|' || coalesce(l.period, '') || '|' || substr(l.line_key, position('/' in l.line_key) + 1)
    ELSE 'fp|' || i.format || '|' || coalesce(l.store, '') || '|' || coalesce(l.period, '') || '|' || coalesce(l.country, '')
      || '|' || coalesce(l.usage_type, '') || '|' || coalesce(l.isrc, '') || '|' || coalesce(l.upc, '')
      || '|' || trim_scale(l.units)::text || '|' || coalesce(trim_scale(l.amount)::text, '')
  END)::uuid
  FROM "royalty_imports" i WHERE i.id = l.import_id;
--> statement-breakpoint
UPDATE "royalty_import_lines" l SET "line_identity" = md5(l.line_identity::text || '#' || d.ordinal)::uuid
  FROM (
    SELECT import_id, line_no, row_number() OVER (PARTITION BY import_id, line_identity ORDER BY line_no) AS ordinal
      FROM "royalty_import_lines"
  ) d
 WHERE d.import_id = l.import_id AND d.line_no = l.line_no AND d.ordinal > 1;
--> statement-breakpoint
UPDATE "royalty_earnings" e SET "line_identity" = l.line_identity
  FROM "royalty_import_lines" l WHERE l.import_id = e.import_id AND l.line_no = e.line_no;
--> statement-breakpoint
INSERT INTO "royalty_posted_lines" ("line_identity", "import_id", "line_no")
SELECT l.line_identity, l.import_id, l.line_no
  FROM "royalty_import_lines" l JOIN "royalty_imports" i ON i.id = l.import_id AND i.status = 'posted'
 ORDER BY i.posted_at, l.line_no
    ON CONFLICT DO NOTHING;
