/**
 * The claims of a YouTube Content ID report (decision 193): while its lines stream to staging, each line's
 * claim (track by ISRC or asset id, video, channel) is summed per track and video; once the import is
 * staged, the claims are written to content_id_claims with their views and revenue for this import, and
 * claims on the owner's allow-listed channels are marked for release. Writing again (a resumed job)
 * replaces this import's figures, never adds to them.
 */
import { addToSum, formatScaled } from '@tunedrop/shared/money';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { allowLongStatements } from '../../db/long-statements';
import { rows, run } from '../../lib/sql';
import { loadCodeTargets } from './stage-rows';
import type { YoutubeClaimCollector } from './youtube-claim-sums';

export { YoutubeClaimCollector } from './youtube-claim-sums';

type ClaimRow = {
  user_id: string;
  track_id: string;
  release_id: string;
  asset_id: string | null;
  video_id: string;
  video_title: string | null;
  channel_id: string | null;
  channel_name: string | null;
  views: string;
  amount: string;
  lines: number;
};

const BATCH = 2_000;

/**
 * Writes the collected claims of a staged import: one claim per (track, video), created when new (names
 * refreshed otherwise), this import's views and revenue beside it, and claims on an allow-listed channel of
 * the track's owner marked for release. Lines matched to no track have no claim (their revenue waits in
 * the import like any unmatched line). Returns the claims written and those released by the allow-list.
 */
export async function writeYoutubeClaims(
  db: Db,
  importId: string,
  collector: YoutubeClaimCollector,
): Promise<{ claims: number; autoReleased: number }> {
  const targets = await loadCodeTargets(db);
  const byClaim = new Map<string, ClaimRow>();
  for (const sum of collector.values()) {
    const target =
      (sum.isrc ? targets.isrc.get(sum.isrc) : undefined) ??
      (sum.assetId ? targets.asset.get(sum.assetId) : undefined);
    if (!target?.trackId) continue;
    const key = `${target.trackId}\u0000${sum.videoId}`;
    const known = byClaim.get(key);
    if (known) {
      // The same video reported under the track's ISRC on some lines and its asset id on others.
      known.views = String(BigInt(known.views) + sum.views);
      known.amount = formatScaled(addToSum(sum.amount, known.amount));
      known.lines += sum.lines;
      known.video_title = sum.videoTitle ?? known.video_title;
      known.channel_id = sum.channelId ?? known.channel_id;
      known.channel_name = sum.channelName ?? known.channel_name;
      known.asset_id = sum.assetId ?? known.asset_id;
      continue;
    }
    byClaim.set(key, {
      user_id: target.userId,
      track_id: target.trackId,
      release_id: target.releaseId,
      asset_id: sum.assetId,
      video_id: sum.videoId,
      video_title: sum.videoTitle,
      channel_id: sum.channelId,
      channel_name: sum.channelName,
      views: String(sum.views),
      amount: formatScaled(sum.amount),
      lines: sum.lines,
    });
  }
  const all = [...byClaim.values()];
  return db.transaction(async (tx) => {
    await allowLongStatements(tx);
    await run(tx, sql`delete from content_id_claim_usage where import_id = ${importId}`);
    for (let start = 0; start < all.length; start += BATCH) {
      const batch = JSON.stringify(all.slice(start, start + BATCH));
      await run(
        tx,
        sql`
          with input as (
            select * from jsonb_to_recordset(${batch}::jsonb) as x(
              user_id text, track_id uuid, release_id uuid, asset_id text, video_id text, video_title text,
              channel_id text, channel_name text, views bigint, amount numeric, lines integer)
          ),
          claims as (
            insert into content_id_claims as c
              (user_id, track_id, release_id, asset_id, video_id, video_title, channel_id, channel_name)
            select user_id, track_id, release_id, asset_id, video_id, video_title, channel_id, channel_name
              from input
            on conflict (track_id, video_id) do update set
              asset_id = coalesce(excluded.asset_id, c.asset_id),
              video_title = coalesce(excluded.video_title, c.video_title),
              channel_id = coalesce(excluded.channel_id, c.channel_id),
              channel_name = coalesce(excluded.channel_name, c.channel_name)
            returning c.id, c.track_id, c.video_id
          )
          insert into content_id_claim_usage (import_id, claim_id, views, amount, lines)
          select ${importId}::uuid, claims.id, input.views, input.amount, input.lines
            from claims join input on input.track_id = claims.track_id and input.video_id = claims.video_id`,
      );
    }
    const released = await rows<{ id: string }>(
      tx,
      sql`
        update content_id_claims c
           set status = 'release_requested', release_reason = 'allow_list', release_requested_at = now()
         where c.status = 'active'
           and exists (select 1 from content_id_claim_usage u where u.claim_id = c.id and u.import_id = ${importId})
           and exists (select 1 from content_id_channels ch where ch.user_id = c.user_id and ch.channel_id = c.channel_id)
        returning c.id`,
    );
    return { claims: all.length, autoReleased: released.length };
  });
}
