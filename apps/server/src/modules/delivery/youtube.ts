/**
 * YouTube targets (issue 28, record 192): a target with the `youtube` profile gets YouTube's DDEX feed
 * (ddex/ern-youtube.ts). Besides the release's stores, a track opted in to Content ID gives the release
 * something to deliver there, and every opt-in or opt-out the artist makes is sent as an update. The
 * `needs_youtube_update` flag of record 185 is cleared once a package carrying the choice was uploaded.
 */
import { and, eq, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { contentIdTracks, deliveries, deliveryTargets, tracks } from '../../db/schema';
import type { PackagePlan } from '../ddex';

/**
 * Whether the release has a Content ID deal to send a YouTube target: a track opted in, or one opted out
 * whose withdrawal is not sent yet (the update carries the deal with its end date).
 */
export async function hasContentIdDeals(db: DbOrTx, releaseId: string): Promise<boolean> {
  const [row] = await db
    .select({ trackId: contentIdTracks.trackId })
    .from(contentIdTracks)
    .innerJoin(tracks, eq(tracks.id, contentIdTracks.trackId))
    .where(
      and(
        eq(tracks.releaseId, releaseId),
        or(eq(contentIdTracks.isOptedIn, true), eq(contentIdTracks.needsYoutubeUpdate, true)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Enabled YouTube-profile targets. */
export const youtubeTargets = (db: DbOrTx) =>
  db
    .select()
    .from(deliveryTargets)
    .where(
      and(
        isNull(deliveryTargets.deletedAt),
        eq(deliveryTargets.enabled, true),
        eq(deliveryTargets.profile, 'youtube'),
      ),
    );

/** Whether the release was ever queued to a store (its codes were complete when it was approved). */
export async function isQueuedAnywhere(db: DbOrTx, releaseId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(eq(deliveries.releaseId, releaseId))
    .limit(1);
  return row !== undefined;
}

/**
 * After a YouTube package was uploaded: the choices it carried are sent. Only rows still in the state the
 * package carried are cleared, so a choice changed meanwhile stays marked for the next update; a
 * takedown carried none, and clears them all (nothing is at YouTube any more).
 */
export async function markContentIdSent(db: DbOrTx, plan: PackagePlan, isTakedown = false): Promise<void> {
  for (const track of plan.data.tracks) {
    if (!track.contentId && !isTakedown) continue;
    await db
      .update(contentIdTracks)
      .set({ needsYoutubeUpdate: false })
      .where(
        and(
          eq(contentIdTracks.trackId, track.id),
          eq(contentIdTracks.needsYoutubeUpdate, true),
          isTakedown || !track.contentId
            ? undefined
            : eq(contentIdTracks.isOptedIn, track.contentId.isOptedIn),
        ),
      );
  }
}
