-- Issue 26 (record 177): a removed delivery target stranded what it held. Its takedowns sat at
-- "Takedown queued · Attempt 0 of 6" forever, because the worker only claimed jobs of enabled targets.
-- A removed target that still holds a release (a package uploaded there and not taken down) comes back
-- disabled, named so the admin sees what happened: a disabled target still sends the updates and
-- takedowns of what it holds, so the waiting takedowns now go out (or fail after their attempts, shown
-- as failed like any other), and the admin can remove it once it holds nothing.
UPDATE "delivery_targets" AS t
SET "deleted_at" = NULL,
    "enabled" = false,
    "name" = left(t."name", 70) || ' (restored ' || left(t."id"::text, 8) || ')',
    "updated_at" = now()
WHERE t."deleted_at" IS NOT NULL
  AND EXISTS (
    SELECT 1 FROM "deliveries" AS d
    WHERE d."target_id" = t."id"
      AND d."state" <> 'taken_down'
      AND EXISTS (
        SELECT 1 FROM "delivery_attempts" AS a WHERE a."delivery_id" = d."id" AND a."outcome" = 'uploaded'
      )
  );
--> statement-breakpoint
-- Jobs of targets that stay removed were never sent there: closed as failed, with the reason the admin's
-- delivery list and the artist's store row show (the text of REMOVED_BEFORE_SENT in target-lifecycle.ts).
UPDATE "deliveries" AS d
SET "state" = 'failed',
    "last_error" = 'The delivery target was removed before this was sent.',
    "updated_at" = now(),
    "state_changed_at" = now()
FROM "delivery_targets" AS t
WHERE t."id" = d."target_id"
  AND t."deleted_at" IS NOT NULL
  AND d."state" NOT IN ('taken_down', 'failed');
