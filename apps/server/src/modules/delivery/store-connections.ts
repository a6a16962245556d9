/**
 * Stores without a connection (issue 44): a store no enabled delivery target serves gets nothing, so an
 * approved release that chose it would wait there forever. The artist's page says "No store connection"
 * for it and the admin is warned which stores these are and how many releases wait on them.
 */
import { PLATFORMS, type PlatformId } from '@tunedrop/shared';
import type { UnconnectedStoresView } from '@tunedrop/shared/schemas/delivery';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deliveryTargets } from '../../db/schema';
import { rows } from '../../lib/sql';
import { YOUTUBE_ART_TRACK_PLATFORM } from '../ddex';
import { servesPlatform } from './targets';

/** The stores some enabled target carries deals for (a YouTube target carries YouTube Music's only). */
export async function connectedPlatforms(db: DbOrTx): Promise<Set<PlatformId>> {
  const targets = await db
    .select({ platforms: deliveryTargets.platforms, profile: deliveryTargets.profile })
    .from(deliveryTargets)
    .where(and(isNull(deliveryTargets.deletedAt), eq(deliveryTargets.enabled, true)));
  const connected = new Set<PlatformId>();
  for (const target of targets) {
    for (const { id } of PLATFORMS) {
      if (target.profile === 'youtube' && id !== YOUTUBE_ART_TRACK_PLATFORM) continue;
      if (servesPlatform(target, id)) connected.add(id);
    }
  }
  return connected;
}

/**
 * Every store without a connection, with the approved or live releases that chose it, did not have it
 * taken down there and have no delivery carrying it (one sent earlier through a target since disabled).
 */
export async function unconnectedStores(db: DbOrTx): Promise<UnconnectedStoresView> {
  const connected = await connectedPlatforms(db);
  const missing = PLATFORMS.filter((p) => !connected.has(p.id));
  if (missing.length === 0) return { stores: [], releases: 0 };
  const ids = missing.map((p) => p.id);
  const waiting = await rows<{ platformId: string; releaseId: string }>(
    db,
    sql`select s.platform_id, r.id as release_id
      from releases r cross join lateral unnest(r.distribution_stores) as s(platform_id)
      where r.status in ('approved', 'live')
        and s.platform_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        and not exists (select 1 from release_store_takedowns t
          where t.release_id = r.id and t.platform_id = s.platform_id and t.state <> 'requested')
        and not exists (select 1 from deliveries d
          where d.release_id = r.id and s.platform_id = any(d.platforms)
            and d.state not in ('taken_down', 'failed'))`,
  );
  return {
    stores: missing.map((p) => ({
      platformId: p.id,
      name: p.name,
      releases: waiting.filter((w) => w.platformId === p.id).length,
    })),
    releases: new Set(waiting.map((w) => w.releaseId)).size,
  };
}
