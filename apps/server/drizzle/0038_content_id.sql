-- YouTube Content ID (issue 28, decision record 185): a Pro artist's per-track opt-in with the eligibility answers
-- and times (kept on opt-out, with a flag for the update the YouTube delivery must still send), and the
-- artist's own YouTube channels whose videos are never claimed (the allow-list).
CREATE TABLE "content_id_channels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_id_channels_channel_id_check" CHECK (channel_id ~ '^UC[A-Za-z0-9_-]{22}$')
);
--> statement-breakpoint
CREATE TABLE "content_id_tracks" (
	"track_id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"is_opted_in" boolean NOT NULL,
	"answers" jsonb NOT NULL,
	"opted_in_at" timestamp with time zone NOT NULL,
	"opted_out_at" timestamp with time zone,
	"needs_youtube_update" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_id_channels" ADD CONSTRAINT "content_id_channels_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_id_tracks" ADD CONSTRAINT "content_id_tracks_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_id_tracks" ADD CONSTRAINT "content_id_tracks_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_id_channels_user_channel_unique" ON "content_id_channels" USING btree ("user_id","channel_id");--> statement-breakpoint
CREATE INDEX "content_id_tracks_user_idx" ON "content_id_tracks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "content_id_tracks_pending_idx" ON "content_id_tracks" USING btree ("track_id") WHERE "content_id_tracks"."needs_youtube_update";
