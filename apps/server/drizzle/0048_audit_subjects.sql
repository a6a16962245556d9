-- A complete audit trail (issue 25 finding 8, decision record 191): every row names what it was about
-- (type, id and the name at write time, so the log stays readable after that row is deleted) and is
-- filtered by kind (the action column) newest first. Existing rows get their release or user name now.
ALTER TABLE "audit_log" ADD COLUMN "subject_type" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "subject_id" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "subject_label" text;--> statement-breakpoint
CREATE INDEX "audit_log_action_created_idx" ON "audit_log" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
UPDATE "audit_log" SET "action" = 'splits.expense' WHERE "action" = 'release.expense_add';--> statement-breakpoint
UPDATE "audit_log" a SET "subject_type" = 'release', "subject_id" = a."release_id"::text, "subject_label" = r."title"
  FROM "releases" r WHERE r."id" = a."release_id" AND a."subject_label" IS NULL;--> statement-breakpoint
UPDATE "audit_log" a SET "subject_type" = 'user', "subject_id" = a."subject_user_id", "subject_label" = u."email"
  FROM "user" u WHERE u."id" = a."subject_user_id" AND a."subject_label" IS NULL;
