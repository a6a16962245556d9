ALTER TABLE "artist_profiles" ADD COLUMN "deezer_artist_id" text;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "amazon_artist_id" text;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "youtube_channel_id" text;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "spotify_artist_key" text;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "new_on_stores" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_deezer_artist_id_check" CHECK (deezer_artist_id ~ '^[0-9]{1,12}$');--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_amazon_artist_id_check" CHECK (amazon_artist_id ~ '^B0[0-9A-Z]{8}$');--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_youtube_channel_id_check" CHECK (youtube_channel_id ~ '^UC[A-Za-z0-9_-]{22}$');--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_spotify_artist_key_check" CHECK (spotify_artist_key ~ '^[A-Za-z0-9_-]{8,128}$');