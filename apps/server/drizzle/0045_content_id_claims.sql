-- YouTube Content ID claims and revenue (issue 28, decision record 193): the YouTube report format, the asset id
-- of a Content ID track (matches report lines that carry no known ISRC), the videos each track claims and their
-- views and revenue per imported report, and the release of a claim (asked by the artist or by the allow-list,
-- applied by staff in YouTube's CMS).
ALTER TABLE "royalty_imports" DROP CONSTRAINT "royalty_imports_format_check";--> statement-breakpoint
ALTER TABLE "royalty_imports" ADD CONSTRAINT "royalty_imports_format_check" CHECK (format in ('dsr', 'distrokid', 'tunecore', 'fuga', 'youtube', 'csv'));--> statement-breakpoint
ALTER TABLE "content_id_tracks" ADD COLUMN "youtube_asset_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "content_id_tracks_youtube_asset_unique" ON "content_id_tracks" USING btree ("youtube_asset_id");--> statement-breakpoint
CREATE TABLE "content_id_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"track_id" uuid NOT NULL,
	"release_id" uuid NOT NULL,
	"asset_id" text,
	"video_id" text NOT NULL,
	"video_title" text,
	"channel_id" text,
	"channel_name" text,
	"status" text DEFAULT 'active' NOT NULL,
	"release_reason" text,
	"release_requested_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"released_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_id_claims_status_check" CHECK (status in ('active', 'release_requested', 'released')),
	CONSTRAINT "content_id_claims_release_reason_check" CHECK (release_reason is null or release_reason in ('artist', 'allow_list')),
	CONSTRAINT "content_id_claims_release_consistent" CHECK ((status = 'active') = (release_requested_at is null) and (status = 'released') = (released_at is not null))
);
--> statement-breakpoint
CREATE TABLE "content_id_claim_usage" (
	"import_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"views" bigint NOT NULL,
	"amount" numeric NOT NULL,
	"lines" integer NOT NULL,
	CONSTRAINT "content_id_claim_usage_import_id_claim_id_pk" PRIMARY KEY("import_id","claim_id")
);
--> statement-breakpoint
ALTER TABLE "content_id_claims" ADD CONSTRAINT "content_id_claims_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_id_claims" ADD CONSTRAINT "content_id_claims_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_id_claims" ADD CONSTRAINT "content_id_claims_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_id_claims" ADD CONSTRAINT "content_id_claims_released_by_user_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_id_claim_usage" ADD CONSTRAINT "content_id_claim_usage_import_id_royalty_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_id_claim_usage" ADD CONSTRAINT "content_id_claim_usage_claim_id_content_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."content_id_claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_id_claims_track_video_unique" ON "content_id_claims" USING btree ("track_id","video_id");--> statement-breakpoint
CREATE INDEX "content_id_claims_user_idx" ON "content_id_claims" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "content_id_claims_to_release_idx" ON "content_id_claims" USING btree ("release_requested_at") WHERE "content_id_claims"."status" = 'release_requested';--> statement-breakpoint
CREATE INDEX "content_id_claim_usage_claim_idx" ON "content_id_claim_usage" USING btree ("claim_id");
