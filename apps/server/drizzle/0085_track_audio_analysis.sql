-- The audio pre-flight analysis of each track's WAV (issue 41, record 298): spectral cut-off, clipping,
-- silence at the start and end, so review shows the warnings again. Null for a track stored before it.
ALTER TABLE "tracks" ADD COLUMN "audio_analysis" jsonb;
