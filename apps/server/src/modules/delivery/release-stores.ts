/**
 * The artist's release page (spec 02): the release with one row per chosen store and where it stands
 * there, and the artist's request to take the release down from one store.
 */
import { PLATFORMS, type PlatformId } from '@tunedrop/shared';
import {
  DELIVERY_MESSAGES,
  type ReleaseDetail,
  type ReleaseDetailStore,
  type StoreState,
} from '@tunedrop/shared/schemas/delivery';
import { asc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import {
  deliveries,
  deliveryTargets,
  releaseStatusEvents,
  releaseStoreTakedowns,
  releases,
} from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { availabilityView, coverUrl, releaseForDelivery } from '../catalogue';
import { notifyTakedownRequested } from '../staff-notifications';
import { releaseStoreRejections } from './needs-action';
import { connectedPlatforms } from './store-connections';
import { REMOVED_BEFORE_SENT } from './target-lifecycle';
import { servesPlatform } from './targets';

// ------------------------------------------------------------------ the artist's view

function storeState(
  delivery: typeof deliveries.$inferSelect | undefined,
  takedown: typeof releaseStoreTakedowns.$inferSelect | undefined,
  releaseStatus: string,
  isConnected: boolean,
): { state: StoreState; date: Date | null; message: string | null } {
  if (takedown?.state === 'requested')
    return { state: 'takedown_requested', date: takedown.requestedAt, message: null };
  if (takedown?.state === 'approved')
    return { state: 'takedown_queued', date: takedown.approvedAt, message: null };
  if (takedown?.state === 'done') return { state: 'taken_down', date: takedown.doneAt, message: null };
  if (!delivery) {
    if (releaseStatus === 'taken_down') return { state: 'taken_down', date: null, message: null };
    // Approved, yet no enabled target serves the store: it is not coming (issue 44), not "Waiting".
    const isStranded = !isConnected && ['approved', 'live'].includes(releaseStatus);
    return { state: isStranded ? 'no_connection' : 'waiting', date: null, message: null };
  }
  const at = delivery.stateChangedAt;
  switch (delivery.state) {
    case 'queued':
      return { state: 'queued', date: at, message: null };
    case 'uploading':
      return {
        state: delivery.action === 'takedown' ? 'takedown_queued' : 'uploading',
        date: at,
        message: null,
      };
    case 'delivered':
      return { state: 'delivered', date: delivery.deliveredAt, message: null };
    case 'acknowledged':
      return {
        state: releaseStatus === 'live' ? 'live' : 'acknowledged',
        date: delivery.acknowledgedAt,
        message: null,
      };
    case 'rejected':
      return { state: 'rejected', date: at, message: delivery.lastError };
    case 'failed':
      // A job closed because its target was removed says so (record 177); other failures stay the admin's.
      return {
        state: 'failed',
        date: at,
        message: delivery.lastError === REMOVED_BEFORE_SENT ? REMOVED_BEFORE_SENT : null,
      };
    case 'takedown_queued':
    case 'takedown_sent':
      return { state: 'takedown_queued', date: at, message: null };
    case 'taken_down':
      return { state: 'taken_down', date: at, message: null };
  }
}

async function ownedRelease(db: DbOrTx, userId: string, releaseId: string) {
  const [release] = await db.select().from(releases).where(eq(releases.id, releaseId));
  // Someone else's release is "not found", never "forbidden" (spec 02 My Songs).
  if (!release || release.userId !== userId || release.status === 'deleted')
    throw notFound(DELIVERY_MESSAGES.releaseNotFound);
  return release;
}

export async function releaseDetail(db: DbOrTx, userId: string, releaseId: string): Promise<ReleaseDetail> {
  const release = await ownedRelease(db, userId, releaseId);
  const data = await releaseForDelivery(db, releaseId);
  const rows = await db
    .select({ delivery: deliveries, target: deliveryTargets })
    .from(deliveries)
    .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
    .where(eq(deliveries.releaseId, releaseId));
  const takedowns = await db
    .select()
    .from(releaseStoreTakedowns)
    .where(eq(releaseStoreTakedowns.releaseId, releaseId));
  const events = await db
    .select()
    .from(releaseStatusEvents)
    .where(eq(releaseStatusEvents.releaseId, releaseId))
    .orderBy(asc(releaseStatusEvents.at));
  const isOut = ['approved', 'live'].includes(release.status);
  const connected = await connectedPlatforms(db);
  const stores: ReleaseDetailStore[] = release.distributionStores.map((platformId) => {
    const served = rows.find((r) => servesPlatform(r.target, platformId));
    const delivery = served?.delivery;
    const takedown = takedowns.find((t) => t.platformId === platformId);
    const s = storeState(delivery, takedown, release.status, connected.has(platformId));
    return {
      platformId,
      name: PLATFORMS.find((p) => p.id === platformId)?.name ?? platformId,
      state: s.state,
      date: s.date?.toISOString() ?? null,
      message: s.message,
      canRequestTakedown: isOut && !takedown && !['takedown_queued', 'taken_down'].includes(s.state),
      target: served ? { id: served.target.id, name: served.target.name } : null,
    };
  });
  const isApproved = ['approved', 'live'].includes(release.status);
  return {
    id: release.id,
    title: release.title,
    status: release.status,
    coverUrl:
      release.coverThumbMediumKey || release.coverArtKey
        ? coverUrl(release.id, 'medium', release.coverThumbMediumKey ?? release.coverArtKey)
        : null,
    primaryArtists: release.primaryArtists,
    featuredArtists: release.featuredArtists,
    genre: release.genre,
    releaseDate: release.releaseDate,
    availability: availabilityView(release),
    originalReleaseDate: release.originalReleaseDate,
    labelName: release.labelName,
    copyrightHolder: release.copyrightHolder,
    copyrightYear: release.copyrightYear,
    publishingHolder: release.publishingHolder,
    publishingYear: release.publishingYear,
    upc: release.upc,
    codesPending: isApproved && (!release.upc || data.tracks.some((t) => !t.isrc)),
    takedownRequested: release.takedownRequested,
    rejectionReason: release.status === 'rejected' ? release.rejectionReason : null,
    isEditable: ['pending', 'processing', 'rejected'].includes(release.status),
    tracks: data.tracks.map((t) => ({
      id: t.id,
      position: t.position,
      title: t.title,
      isrc: t.isrc,
      explicit: t.explicit,
      durationMs: t.durationMs,
      primaryArtists: t.primaryArtistsData.map((a) => a.name),
      featuredArtists: t.featuredArtistsData.map((a) => a.name),
      songwriters: t.songwriters,
      producers: t.producers,
    })),
    stores,
    storeRejections: await releaseStoreRejections(db, releaseId),
    statusHistory: [
      { status: 'pending', at: release.createdAt.toISOString(), note: 'Submitted.' },
      ...events.map((e) => ({ status: e.status, at: e.at.toISOString(), note: e.note })),
    ],
  };
}

export async function requestStoreTakedown(
  db: Db,
  userId: string,
  releaseId: string,
  platformId: PlatformId,
) {
  await db.transaction(async (tx) => {
    const release = await ownedRelease(tx, userId, releaseId);
    if (!['approved', 'live'].includes(release.status)) {
      throw new AppError('release_state', DELIVERY_MESSAGES.takedownNotAllowed, 409);
    }
    if (!release.distributionStores.some((store) => store === platformId)) {
      throw new AppError('store_not_selected', DELIVERY_MESSAGES.storeNotSelected, 409);
    }
    const rows = await tx
      .insert(releaseStoreTakedowns)
      .values({ releaseId, platformId, state: 'requested', requestedBy: userId })
      .onConflictDoNothing()
      .returning({ releaseId: releaseStoreTakedowns.releaseId });
    if (rows.length === 0)
      throw new AppError('store_takedown_exists', DELIVERY_MESSAGES.storeAlreadyTakenDown, 409);
    await notifyTakedownRequested(tx, releaseId, platformId);
  });
  return releaseDetail(db, userId, releaseId);
}
