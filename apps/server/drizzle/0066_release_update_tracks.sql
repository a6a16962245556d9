-- Issue 44 (record 236): a post-release update can fix a track's credits (performers, songwriters,
-- producers) and its ISRC; the proposed values wait in review beside the details, cover and audio.
ALTER TABLE "release_updates" ADD COLUMN "tracks" jsonb DEFAULT '[]'::jsonb NOT NULL;
