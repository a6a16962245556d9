-- Release time and territories (issue 26 finding 7, decision record 199). Existing releases become
-- local midnight + worldwide, the behaviour they had.
-- release_time_mode: 'local_midnight' (the release date's midnight in each territory, the default) or
--   'worldwide_moment' (one instant everywhere: release_time HH:MM in release_time_zone on release_date,
--   stored as release_at).
-- territory_mode: 'worldwide' (territories empty), 'include' (only these) or 'exclude' (everywhere except
--   these); territories holds ISO 3166-1 alpha-2 codes, upper case, sorted, no duplicates.
ALTER TABLE "releases" ADD COLUMN "release_time_mode" text DEFAULT 'local_midnight' NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "release_time" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "release_time_zone" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "release_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "territory_mode" text DEFAULT 'worldwide' NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "territories" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_release_time_mode_check" CHECK (release_time_mode in ('local_midnight', 'worldwide_moment'));--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_release_moment_check" CHECK ((release_time_mode = 'local_midnight' and release_at is null and release_time is null and release_time_zone is null) or (release_time_mode = 'worldwide_moment' and release_at is not null and release_time is not null and release_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and release_time_zone is not null));--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_territory_mode_check" CHECK (territory_mode in ('worldwide', 'include', 'exclude'));--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_territories_check" CHECK ((territory_mode = 'worldwide') = (cardinality(territories) = 0));
