-- A delivery target profile for YouTube's DDEX feed (issue 28, decision record 192): release by release,
-- with a TrackRelease per track carrying the Art Track deal and, for tracks opted in, the Content ID deal.
ALTER TABLE "delivery_targets" DROP CONSTRAINT "delivery_targets_profile_check";--> statement-breakpoint
ALTER TABLE "delivery_targets" ADD CONSTRAINT "delivery_targets_profile_check" CHECK (profile in ('release', 'batch', 'youtube'));
