ALTER TABLE "tracks" ADD COLUMN "ai_usage" text;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "ai_areas" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_ai_usage_check" CHECK (ai_usage in ('none', 'assisted', 'generated'));