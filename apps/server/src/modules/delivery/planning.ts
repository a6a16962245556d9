/**
 * Which deliveries a release needs (record 102): the jobs approval, takedowns, metadata and code changes
 * queue, one row per target serving the release's stores, and the release's status events that go with
 * them. Release review calls `afterReleaseDecision` inside its deciding transaction.
 */
import type { PlatformId, ReleaseStatus } from '@tunedrop/shared';
import { DELIVERY_MESSAGES } from '@tunedrop/shared/schemas/delivery';
import type { UpdateScope } from '@tunedrop/shared/schemas/release-updates';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import {
  deliveries,
  deliveryTargets,
  releaseStatusEvents,
  releaseStoreTakedowns,
  releases,
  tracks,
} from '../../db/schema';
import { AppError } from '../../lib/errors';
import { YOUTUBE_ART_TRACK_PLATFORM } from '../ddex';
import { assignCodes, type CodesResult, readSettings, releasesNeedingCodes } from './codes';
import { enqueueReleaseDeliveries } from './jobs';
import { servesPlatform, type TargetRow } from './targets';
import { emitDeliveryEvent } from './webhook-events';
import { hasContentIdDeals, isQueuedAnywhere, youtubeTargets } from './youtube';

const activeTargets = (db: DbOrTx) =>
  db
    .select()
    .from(deliveryTargets)
    .where(and(isNull(deliveryTargets.deletedAt), eq(deliveryTargets.enabled, true)));

/** Platforms a target carries deals for: its own ∩ the release's stores − stores taken down. */
async function dealPlatforms(db: DbOrTx, releaseId: string, target: TargetRow): Promise<PlatformId[]> {
  const [release] = await db
    .select({ stores: releases.distributionStores })
    .from(releases)
    .where(eq(releases.id, releaseId));
  const removed = await db
    .select({ platformId: releaseStoreTakedowns.platformId })
    .from(releaseStoreTakedowns)
    .where(and(eq(releaseStoreTakedowns.releaseId, releaseId), ne(releaseStoreTakedowns.state, 'requested')));
  const gone = new Set<string>(removed.map((r) => r.platformId));
  // A YouTube target carries one store's deal, YouTube Music's (its Art Tracks); Content ID comes besides.
  const isCarried = (p: PlatformId) => target.profile !== 'youtube' || p === YOUTUBE_ART_TRACK_PLATFORM;
  return (release?.stores ?? []).filter((p) => servesPlatform(target, p) && isCarried(p) && !gone.has(p));
}

/** Whether the target has deals for the release: stores it serves, or Content ID for a YouTube target. */
async function hasDeals(db: DbOrTx, releaseId: string, target: TargetRow, platforms: PlatformId[]) {
  if (platforms.length > 0) return true;
  return target.profile === 'youtube' && (await hasContentIdDeals(db, releaseId));
}

export async function addEvent(db: DbOrTx, releaseId: string, status: string, note: string | null) {
  await db.insert(releaseStatusEvents).values({ releaseId, status, note });
}

/** One job per enabled target serving any of the release's stores (none for a target already holding one). */
export async function queueNewDeliveries(
  db: DbOrTx,
  releaseId: string,
  onlyTargetId?: string,
): Promise<number> {
  let queued = 0;
  for (const target of await activeTargets(db)) {
    if (onlyTargetId && target.id !== onlyTargetId) continue;
    const platforms = await dealPlatforms(db, releaseId, target);
    if (!(await hasDeals(db, releaseId, target, platforms))) continue;
    const rows = await db
      .insert(deliveries)
      .values({ releaseId, targetId: target.id, action: 'new', state: 'queued', platforms })
      // Approved again after an unapprove or a takedown: the target gets the full package again.
      .onConflictDoUpdate({
        target: [deliveries.releaseId, deliveries.targetId],
        set: {
          action: 'new',
          updateScope: null,
          state: 'queued',
          platforms,
          attempts: 0,
          nextAttemptAt: sql`now()`,
          lastError: null,
          updatedAt: new Date(),
          stateChangedAt: new Date(),
        },
        where: inArray(deliveries.state, ['taken_down', 'takedown_queued', 'failed']),
      })
      .returning({ id: deliveries.id });
    for (const row of rows) await emitDeliveryEvent(db, row.id, 'delivery.queued');
    queued += rows.length;
  }
  await enqueueReleaseDeliveries(db, releaseId);
  return queued;
}

/** Both scopes' files (record 331): an update not yet accepted keeps what it had still to send. */
export function mergeScopes(a: UpdateScope | null, b: UpdateScope | null): UpdateScope | null {
  if (!a) return b;
  if (!b) return a;
  return { cover: a.cover || b.cover, audioTrackIds: [...new Set([...a.audioTrackIds, ...b.audioTrackIds])] };
}

/** Delivery states whose last message the store has not taken yet: its files are still to be sent. */
const NOT_TAKEN: readonly string[] = ['queued', 'failed', 'rejected', 'uploading'];

/**
 * What an update to this delivery resends besides the metadata (record 331): the new change's files, plus
 * those of an earlier update the store has not taken yet; a first package the store rejected is resent
 * whole (it may never have ingested a file of it).
 */
async function nextUpdateScope(
  db: DbOrTx,
  releaseId: string,
  delivery: typeof deliveries.$inferSelect,
  scope: UpdateScope | null,
): Promise<UpdateScope | null> {
  if (delivery.state === 'rejected' && delivery.action === 'new') {
    const rows = await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.releaseId, releaseId));
    return { cover: true, audioTrackIds: rows.map((row) => row.id) };
  }
  const pending =
    delivery.action === 'update' && NOT_TAKEN.includes(delivery.state) ? delivery.updateScope : null;
  return mergeScopes(pending, scope);
}

/**
 * Re-sends the release's full statement of truth to every target that has it: after a metadata or
 * code change, an approved post-release edit (`scope`: the files it changed, record 331), or after a
 * per-store takedown changed a target's deals. A target left with no stores gets a takedown. A job not
 * yet sent simply carries the new data.
 */
export async function queueReleaseUpdate(
  db: DbOrTx,
  releaseId: string,
  onlyTargetId?: string,
  scope: UpdateScope | null = null,
): Promise<number> {
  const rows = await db
    .select({ delivery: deliveries, target: deliveryTargets })
    .from(deliveries)
    .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
    .where(
      and(
        eq(deliveries.releaseId, releaseId),
        isNull(deliveryTargets.deletedAt),
        onlyTargetId ? eq(deliveries.targetId, onlyTargetId) : undefined,
      ),
    );
  let queued = 0;
  for (const { delivery, target } of rows) {
    if (delivery.action === 'takedown' || delivery.state === 'taken_down') continue;
    const platforms = await dealPlatforms(db, releaseId, target);
    const isLeftWithNothing = !(await hasDeals(db, releaseId, target, platforms));
    const isNeverSent = delivery.state === 'queued' && delivery.action === 'new';
    const action =
      isNeverSent ||
      (delivery.action === 'new' &&
        delivery.state !== 'acknowledged' &&
        delivery.state !== 'delivered' &&
        delivery.state !== 'rejected')
        ? 'new'
        : 'update';
    const updateScope = action === 'update' ? await nextUpdateScope(db, releaseId, delivery, scope) : null;
    const now = new Date();
    const changed = await db
      .update(deliveries)
      .set(
        isLeftWithNothing
          ? {
              action: 'takedown',
              updateScope: null,
              state: 'takedown_queued',
              platforms: [],
              attempts: 0,
              // Due-ness is database time (record 154): compared with now() by the claim.
              nextAttemptAt: sql`now()`,
              lastError: null,
              updatedAt: now,
              stateChangedAt: now,
            }
          : {
              action,
              updateScope,
              state: 'queued',
              platforms,
              attempts: 0,
              nextAttemptAt: sql`now()`,
              lastError: null,
              updatedAt: now,
              stateChangedAt: now,
            },
      )
      .where(and(eq(deliveries.id, delivery.id), ne(deliveries.state, 'uploading')))
      .returning({ id: deliveries.id });
    // An update or a takedown queued is a delivery.queued too (issue 40); its payload says which.
    for (const row of changed) await emitDeliveryEvent(db, row.id, 'delivery.queued');
    queued += 1;
  }
  await enqueueReleaseDeliveries(db, releaseId);
  return queued;
}

/** Release states in which the release is (or is about to be) at the stores. */
const AT_STORES: ReleaseStatus[] = ['approved', 'live'];

/**
 * An artist opted a track in to Content ID or out of it (record 192): each YouTube target gets the
 * change, as an update where it holds the release, or as a new delivery where the release had nothing
 * for it yet (no YouTube Music). Nothing is queued before the release was approved with its codes
 * (the approval queues it then) or after it was taken down.
 */
export async function queueContentIdUpdate(db: DbOrTx, releaseId: string): Promise<number> {
  const [release] = await db
    .select({ status: releases.status })
    .from(releases)
    .where(eq(releases.id, releaseId));
  if (!release || !AT_STORES.includes(release.status)) return 0;
  if (!(await isQueuedAnywhere(db, releaseId))) return 0;
  let queued = 0;
  for (const target of await youtubeTargets(db)) {
    const [held] = await db
      .select({ state: deliveries.state, action: deliveries.action })
      .from(deliveries)
      .where(and(eq(deliveries.releaseId, releaseId), eq(deliveries.targetId, target.id)));
    const isHeld = held && held.state !== 'taken_down' && held.action !== 'takedown';
    queued += isHeld
      ? await queueReleaseUpdate(db, releaseId, target.id)
      : await queueNewDeliveries(db, releaseId, target.id);
  }
  return queued;
}

/** A takedown (NewReleaseMessage without deals) to each target holding the release, or to one. */
export async function queueTakedowns(db: DbOrTx, releaseId: string, targetId?: string): Promise<number> {
  const now = new Date();
  const rows = await db
    .update(deliveries)
    .set({
      action: 'takedown',
      state: 'takedown_queued',
      platforms: [],
      attempts: 0,
      nextAttemptAt: sql`now()`,
      lastError: null,
      updatedAt: now,
      stateChangedAt: now,
    })
    .where(
      and(
        eq(deliveries.releaseId, releaseId),
        targetId ? eq(deliveries.targetId, targetId) : undefined,
        ne(deliveries.state, 'taken_down'),
        ne(deliveries.state, 'uploading'),
        // A removed target holds nothing any more (record 177): no job may wait for it.
        sql`${deliveries.targetId} not in (select id from delivery_targets where deleted_at is not null)`,
      ),
    )
    .returning({ id: deliveries.id });
  // A job never sent needs no takedown: drop it instead.
  await db
    .delete(deliveries)
    .where(
      and(
        eq(deliveries.releaseId, releaseId),
        eq(deliveries.action, 'takedown'),
        isNull(deliveries.deliveredAt),
        sql`not exists (select 1 from delivery_attempts a where a.delivery_id = ${deliveries.id} and a.outcome = 'uploaded')`,
      ),
    );
  // The takedowns that go out (a dropped job is gone, and emitDeliveryEvent finds nothing for it).
  for (const row of rows) await emitDeliveryEvent(db, row.id, 'delivery.queued');
  await enqueueReleaseDeliveries(db, releaseId);
  return rows.length;
}

/**
 * Called by release review inside the deciding transaction (admin-releases/service.ts), after the
 * release row was locked and updated. Returns the release status to keep (takedowns wait for stores).
 */
export async function afterReleaseDecision(
  tx: DbOrTx,
  config: Config,
  decision: string,
  before: { id: string; status: ReleaseStatus },
  rejectionReason: string | null,
): Promise<{ codes?: CodesResult; keepStatus?: ReleaseStatus }> {
  const releaseId = before.id;
  if (decision === 'approve') {
    const codes = await assignCodes(tx, releaseId, await readSettings(tx, config), new Date());
    if (codes.isComplete) {
      await queueNewDeliveries(tx, releaseId);
      await addEvent(tx, releaseId, 'approved', null);
    } else {
      await addEvent(tx, releaseId, 'approved', `Waiting for codes (${codes.missing.join(', ')}).`);
    }
    return { codes };
  }
  if (decision === 'takedown_approve' || decision === 'unapprove') {
    const queued = await queueTakedowns(tx, releaseId);
    if (queued > 0 && decision === 'takedown_approve') {
      await addEvent(tx, releaseId, 'takedown_in_progress', 'Takedown sent to every store.');
      return { keepStatus: before.status };
    }
    await addEvent(tx, releaseId, decision === 'unapprove' ? 'pending' : 'taken_down', null);
    return {};
  }
  if (decision === 'reject') {
    await addEvent(tx, releaseId, 'rejected', rejectionReason ? `Reason: ${rejectionReason}` : null);
  } else if (decision === 'unreject') {
    await addEvent(tx, releaseId, 'pending', null);
  }
  return {};
}

/**
 * Refuses a permanent delete while a store may still sell the release: the package was sent and not
 * yet taken down (a deleted release could never be taken down afterwards).
 */
export async function assertNotAtStores(tx: DbOrTx, releaseId: string): Promise<void> {
  const [out] = await tx
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.releaseId, releaseId),
        ne(deliveries.state, 'taken_down'),
        sql`exists (select 1 from delivery_attempts a where a.delivery_id = ${deliveries.id} and a.outcome = 'uploaded')`,
      ),
    )
    .limit(1);
  if (out) throw new AppError('release_at_stores', DELIVERY_MESSAGES.deleteWhileAtStores, 409);
}

/** Gives codes to every approved release that still lacks them, then queues or updates its deliveries. */
export async function backfillCodes(
  db: Db,
  config: Config,
): Promise<{ releases: number; isrc: number; upc: number; stillMissing: number }> {
  const current = await readSettings(db, config);
  const ids = await releasesNeedingCodes(db);
  const total = { releases: 0, isrc: 0, upc: 0, stillMissing: 0 };
  for (const id of ids) {
    const isDone = await db
      .transaction(async (tx) => {
        const [row] = await tx
          .select({ status: releases.status })
          .from(releases)
          .where(eq(releases.id, id))
          .for('update');
        if (!row || !['approved', 'live'].includes(row.status)) return;
        const result = await assignCodes(tx, id, current, new Date());
        total.isrc += result.assigned.isrc;
        total.upc += result.assigned.upc;
        if (result.assigned.isrc + result.assigned.upc > 0) total.releases += 1;
        if (!result.isComplete) {
          total.stillMissing += 1;
          return;
        }
        const [existing] = await tx
          .select({ id: deliveries.id })
          .from(deliveries)
          .where(eq(deliveries.releaseId, id))
          .limit(1);
        if (existing) await queueReleaseUpdate(tx, id);
        else await queueNewDeliveries(tx, id);
        await addEvent(tx, id, row.status, 'Codes assigned.');
      })
      .then(
        () => true,
        (error: unknown) => {
          // A UPC two releases carry stops only that release; the others still get their codes.
          if (error instanceof AppError && error.code === 'upc_taken') return false;
          throw error;
        },
      );
    if (!isDone) total.stillMissing += 1;
  }
  return total;
}
