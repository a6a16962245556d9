-- Post-release edits (issue 26, decision record 197): an owner's change to an approved or live release
-- waits here for review (the release row and the stores keep the current version until it is approved);
-- at most one per release is in review. Proposed files are already in storage under keys no track uses.
CREATE TABLE "release_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"state" text DEFAULT 'in_review' NOT NULL,
	"before" jsonb NOT NULL,
	"details" jsonb,
	"cover" jsonb,
	"audio" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rejection_reason" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_updates_state_check" CHECK (state in ('in_review', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "release_updates" ADD CONSTRAINT "release_updates_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "release_updates" ADD CONSTRAINT "release_updates_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "release_updates_one_in_review" ON "release_updates" USING btree ("release_id") WHERE state = 'in_review';
--> statement-breakpoint
CREATE INDEX "release_updates_state_created_idx" ON "release_updates" USING btree ("state","created_at");
--> statement-breakpoint
-- What an update delivery resends besides the metadata: {"cover": bool, "audioTrackIds": [...]}; null = metadata only.
ALTER TABLE "deliveries" ADD COLUMN "update_scope" jsonb;
