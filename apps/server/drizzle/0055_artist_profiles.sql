-- Artist profiles (issue 27, decision record 201): an account holds artist profiles (1 on Basic, any
-- number on Pro); every release belongs to one of its owner's profiles. This is not the `profiles` table,
-- which is the account's own row (plan, balance, subscription).
--
-- position 1 is the account's first profile: it always exists, mirrors profiles.artist_name, and is the one
-- a Basic (or lapsed Pro) account releases under.
CREATE TABLE "artist_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"image_key" text,
	"spotify_artist_id" text,
	"apple_artist_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artist_profiles_position_check" CHECK (position >= 1),
	CONSTRAINT "artist_profiles_spotify_artist_id_check" CHECK (spotify_artist_id is null or spotify_artist_id ~ '^[A-Za-z0-9]{22}$'),
	CONSTRAINT "artist_profiles_apple_artist_id_check" CHECK (apple_artist_id is null or apple_artist_id ~ '^[0-9]{1,15}$')
);
--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "artist_profiles_user_position_unique" ON "artist_profiles" USING btree ("user_id","position");
--> statement-breakpoint
CREATE UNIQUE INDEX "artist_profiles_id_user_unique" ON "artist_profiles" USING btree ("id","user_id");
--> statement-breakpoint
-- Today's accounts: one profile each, named as the account's artist name. An owner of releases without an
-- account row (none should exist) gets one named after the user.
INSERT INTO "artist_profiles" ("user_id", "position", "name")
	SELECT "id", 1, "artist_name" FROM "profiles";
--> statement-breakpoint
INSERT INTO "artist_profiles" ("user_id", "position", "name")
	SELECT DISTINCT r."user_id", 1, u."name" FROM "releases" r JOIN "user" u ON u."id" = r."user_id"
	WHERE NOT EXISTS (SELECT 1 FROM "artist_profiles" a WHERE a."user_id" = r."user_id");
--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "artist_profile_id" uuid;
--> statement-breakpoint
UPDATE "releases" r SET "artist_profile_id" = a."id"
	FROM "artist_profiles" a WHERE a."user_id" = r."user_id" AND a."position" = 1;
--> statement-breakpoint
ALTER TABLE "releases" ALTER COLUMN "artist_profile_id" SET NOT NULL;
--> statement-breakpoint
-- The profile belongs to the release's owner, by construction: the pair is the key.
ALTER TABLE "releases" ADD CONSTRAINT "releases_artist_profile_owner_fk" FOREIGN KEY ("artist_profile_id","user_id") REFERENCES "public"."artist_profiles"("id","user_id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "releases_artist_profile_created_id_idx" ON "releases" USING btree ("artist_profile_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
-- A new account gets its first profile with its account row, whichever path made it (sign-up, CLI, fixtures).
CREATE OR REPLACE FUNCTION tunedrop_first_artist_profile() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO artist_profiles (user_id, position, name) VALUES (NEW.id, 1, NEW.artist_name)
    ON CONFLICT (user_id, position) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_first_artist_profile AFTER INSERT ON profiles
  FOR EACH ROW EXECUTE FUNCTION tunedrop_first_artist_profile();
--> statement-breakpoint
-- The account page's artist name is the first profile's name.
CREATE OR REPLACE FUNCTION tunedrop_first_artist_profile_name() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE artist_profiles SET name = NEW.artist_name, updated_at = now()
    WHERE user_id = NEW.id AND position = 1 AND name IS DISTINCT FROM NEW.artist_name;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_first_artist_profile_name AFTER UPDATE OF artist_name ON profiles
  FOR EACH ROW WHEN (OLD.artist_name IS DISTINCT FROM NEW.artist_name)
  EXECUTE FUNCTION tunedrop_first_artist_profile_name();
--> statement-breakpoint
-- A release inserted without a profile (catalogue import, fixtures, benches) belongs to its owner's first
-- profile; the builder always names one, after checking the plan.
CREATE OR REPLACE FUNCTION tunedrop_release_default_artist_profile() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.artist_profile_id IS NULL THEN
    SELECT id INTO NEW.artist_profile_id FROM artist_profiles
      WHERE user_id = NEW.user_id ORDER BY position LIMIT 1;
    IF NEW.artist_profile_id IS NULL THEN
      INSERT INTO artist_profiles (user_id, position, name)
        VALUES (NEW.user_id, 1, coalesce(
          (SELECT artist_name FROM profiles WHERE id = NEW.user_id),
          (SELECT name FROM "user" WHERE id = NEW.user_id), ''))
        ON CONFLICT (user_id, position) DO UPDATE SET updated_at = artist_profiles.updated_at
        RETURNING id INTO NEW.artist_profile_id;
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER releases_default_artist_profile BEFORE INSERT ON releases
  FOR EACH ROW EXECUTE FUNCTION tunedrop_release_default_artist_profile();
