/**
 * Delivery rules: which jobs approval, takedowns and updates queue (record 102), the admin's lists,
 * retries and takedowns, and the artist's release detail with a row per store.
 */
import { PLATFORMS, type PlatformId, type ReleaseStatus } from '@tunedrop/shared';
import {
  type AckView,
  DELIVERY_MESSAGES,
  type DeliveryAttemptView,
  type DeliveryDetail,
  type DeliveryListItem,
  type DeliveryListResponse,
  type DeliverySettingsView,
  type ReleaseDetail,
  type ReleaseDetailStore,
  type SettingsValues,
  type StoreState,
} from '@tunedrop/shared/schemas/delivery';
import { and, asc, desc, eq, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import {
  deliveries,
  deliveryAcks,
  deliveryAttempts,
  deliveryTargets,
  profiles,
  releaseStatusEvents,
  releaseStoreTakedowns,
  releases,
} from '../../db/schema';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { AppError, notFound } from '../../lib/errors';
import { loadReleaseData } from '../ddex';
import { coverUrl } from '../releases/service';
import {
  assignCodes,
  type CodesResult,
  readSettings,
  releasesNeedingCodes,
  upcRemaining,
  writeSetting,
} from './codes';
import { enqueueDelivery, enqueueReleaseDeliveries } from './queues';
import { servesPlatform, type TargetRow } from './targets';

// ------------------------------------------------------------------ settings

export async function settingsView(db: DbOrTx, config: Config): Promise<DeliverySettingsView> {
  const current = await readSettings(db, config);
  return {
    isrcRegistrant: current.isrcRegistrant,
    upcPrefix: current.upcPrefix,
    ddexSenderPartyId: current.ddexSenderPartyId,
    ddexSenderName: current.ddexSenderName,
    sources: current.sources,
    needsCodesCount: (await releasesNeedingCodes(db)).length,
    upcRemaining: await upcRemaining(db, current.upcPrefix),
  };
}

/** Saves the settings, then gives waiting releases their codes (and queues their deliveries). */
export async function saveSettings(db: Db, config: Config, values: SettingsValues, by: string | null) {
  await db.transaction(async (tx) => {
    await writeSetting(tx, 'ISRC_REGISTRANT', values.isrcRegistrant, by);
    await writeSetting(tx, 'UPC_PREFIX', values.upcPrefix, by);
    await writeSetting(tx, 'DDEX_SENDER_PARTY_ID', values.ddexSenderPartyId, by);
    await writeSetting(tx, 'DDEX_SENDER_NAME', values.ddexSenderName, by);
  });
  await backfillCodes(db, config);
  return settingsView(db, config);
}

// ------------------------------------------------------------------ queueing

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
  const gone = new Set(removed.map((r) => r.platformId as string));
  return (release?.stores ?? []).filter((p) => servesPlatform(target, p) && !gone.has(p));
}

async function addEvent(db: DbOrTx, releaseId: string, status: string, note: string | null) {
  await db.insert(releaseStatusEvents).values({ releaseId, status, note });
}

/** One job per enabled target serving any of the release's stores (none for a target already holding one). */
export async function queueNewDeliveries(db: DbOrTx, releaseId: string): Promise<number> {
  let queued = 0;
  for (const target of await activeTargets(db)) {
    const platforms = await dealPlatforms(db, releaseId, target);
    if (platforms.length === 0) continue;
    const rows = await db
      .insert(deliveries)
      .values({ releaseId, targetId: target.id, action: 'new', state: 'queued', platforms })
      // Approved again after an unapprove or a takedown: the target gets the full package again.
      .onConflictDoUpdate({
        target: [deliveries.releaseId, deliveries.targetId],
        set: {
          action: 'new',
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
    queued += rows.length;
  }
  await enqueueReleaseDeliveries(db, releaseId);
  return queued;
}

/**
 * Re-sends the release's full statement of truth to every target that has it: after a metadata or
 * code change, or after a per-store takedown changed a target's deals. A target left with no stores
 * gets a takedown. A job not yet sent simply carries the new data.
 */
export async function queueReleaseUpdate(
  db: DbOrTx,
  releaseId: string,
  onlyTargetId?: string,
): Promise<number> {
  const rows = await db
    .select({ delivery: deliveries, target: deliveryTargets })
    .from(deliveries)
    .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
    .where(
      and(
        eq(deliveries.releaseId, releaseId),
        onlyTargetId ? eq(deliveries.targetId, onlyTargetId) : undefined,
      ),
    );
  let queued = 0;
  for (const { delivery, target } of rows) {
    if (delivery.action === 'takedown' || delivery.state === 'taken_down') continue;
    const platforms = await dealPlatforms(db, releaseId, target);
    const isNeverSent = delivery.state === 'queued' && delivery.action === 'new';
    const now = new Date();
    await db
      .update(deliveries)
      .set(
        platforms.length === 0
          ? {
              action: 'takedown',
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
              action: isNeverSent
                ? 'new'
                : delivery.action === 'new' &&
                    delivery.state !== 'acknowledged' &&
                    delivery.state !== 'delivered' &&
                    delivery.state !== 'rejected'
                  ? 'new'
                  : 'update',
              state: 'queued',
              platforms,
              attempts: 0,
              nextAttemptAt: sql`now()`,
              lastError: null,
              updatedAt: now,
              stateChangedAt: now,
            },
      )
      .where(and(eq(deliveries.id, delivery.id), ne(deliveries.state, 'uploading')));
    queued += 1;
  }
  await enqueueReleaseDeliveries(db, releaseId);
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

// ------------------------------------------------------------------ admin views

type ListRow = {
  delivery: typeof deliveries.$inferSelect;
  releaseTitle: string;
  artist: string[];
  upc: string | null;
  releaseStatus: ReleaseStatus;
  targetName: string;
};

function listItem(row: ListRow, pending: PlatformId[]): DeliveryListItem {
  const d = row.delivery;
  return {
    id: d.id,
    releaseId: d.releaseId,
    releaseTitle: row.releaseTitle,
    artistName: row.artist.join(', '),
    upc: row.upc,
    releaseStatus: row.releaseStatus,
    targetId: d.targetId,
    targetName: row.targetName,
    action: d.action,
    state: d.state,
    platforms: d.platforms,
    attempts: d.attempts,
    maxAttempts: d.maxAttempts,
    nextAttemptAt: ['queued', 'takedown_queued'].includes(d.state) ? d.nextAttemptAt.toISOString() : null,
    lastError: d.lastError,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    acknowledgedAt: d.acknowledgedAt?.toISOString() ?? null,
    updatedAt: d.updatedAt.toISOString(),
    pendingStoreTakedowns: pending,
  };
}

const listSelect = {
  delivery: deliveries,
  releaseTitle: releases.title,
  artist: releases.primaryArtists,
  upc: releases.upc,
  releaseStatus: releases.status,
  targetName: deliveryTargets.name,
};

async function pendingStores(db: DbOrTx, releaseIds: string[]): Promise<Map<string, PlatformId[]>> {
  const map = new Map<string, PlatformId[]>();
  if (releaseIds.length === 0) return map;
  const rows = await db
    .select()
    .from(releaseStoreTakedowns)
    .where(
      and(inArray(releaseStoreTakedowns.releaseId, releaseIds), eq(releaseStoreTakedowns.state, 'requested')),
    );
  for (const row of rows) map.set(row.releaseId, [...(map.get(row.releaseId) ?? []), row.platformId]);
  return map;
}

export async function listDeliveries(
  db: DbOrTx,
  query: {
    state?: string | undefined;
    targetId?: string | undefined;
    releaseId?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  },
): Promise<DeliveryListResponse> {
  const conditions: (SQL | undefined)[] = [
    query.state ? eq(deliveries.state, query.state as DeliveryListItem['state']) : undefined,
    query.targetId ? eq(deliveries.targetId, query.targetId) : undefined,
    query.releaseId ? eq(deliveries.releaseId, query.releaseId) : undefined,
  ];
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (cursor) {
    conditions.push(
      or(
        sql`${deliveries.updatedAt} < ${cursor.createdAt}::timestamptz`,
        and(sql`${deliveries.updatedAt} = ${cursor.createdAt}::timestamptz`, lt(deliveries.id, cursor.id)),
      ),
    );
  }
  const rows = await db
    .select(listSelect)
    .from(deliveries)
    .innerJoin(releases, eq(releases.id, deliveries.releaseId))
    .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
    .where(and(...conditions))
    .orderBy(desc(deliveries.updatedAt), desc(deliveries.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const pending = await pendingStores(db, [...new Set(page.map((r) => r.delivery.releaseId))]);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => listItem(row, pending.get(row.delivery.releaseId) ?? [])),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ createdAt: last.delivery.updatedAt.toISOString(), id: last.delivery.id })
        : null,
  };
}

const ackView = (row: typeof deliveryAcks.$inferSelect, targetName: string): AckView => ({
  id: row.id,
  targetId: row.targetId,
  targetName,
  fileName: row.fileName,
  receivedAt: row.receivedAt.toISOString(),
  outcome: row.outcome,
  messageId: row.messageId,
  status: row.status,
  errorText: row.errorText,
  text: row.text,
});

export async function getDelivery(db: DbOrTx, id: string): Promise<DeliveryDetail> {
  const [row] = await db
    .select(listSelect)
    .from(deliveries)
    .innerJoin(releases, eq(releases.id, deliveries.releaseId))
    .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
    .where(eq(deliveries.id, id));
  if (!row) throw notFound(DELIVERY_MESSAGES.deliveryNotFound);
  const attempts = await db
    .select()
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.deliveryId, id))
    .orderBy(desc(deliveryAttempts.number), desc(deliveryAttempts.startedAt));
  const acks = await db
    .select()
    .from(deliveryAcks)
    .where(eq(deliveryAcks.deliveryId, id))
    .orderBy(asc(deliveryAcks.receivedAt));
  const pending = await pendingStores(db, [row.delivery.releaseId]);
  const attemptsList: DeliveryAttemptView[] = attempts.map((a) => ({
    id: a.id,
    number: a.number,
    action: a.action,
    messageId: a.messageId,
    startedAt: a.startedAt.toISOString(),
    finishedAt: a.finishedAt?.toISOString() ?? null,
    outcome: a.outcome,
    error: a.error,
    remotePath: a.remotePath,
    bytes: a.bytes,
    messageXml: a.messageXml,
    packageAvailable: a.messageXml !== '',
    acks: acks.filter((k) => k.attemptId === a.id).map((k) => ackView(k, row.targetName)),
  }));
  return { ...listItem(row, pending.get(row.delivery.releaseId) ?? []), attemptsList };
}

export async function listUnmatchedAcks(db: DbOrTx): Promise<AckView[]> {
  const rows = await db
    .select({ ack: deliveryAcks, targetName: deliveryTargets.name })
    .from(deliveryAcks)
    .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveryAcks.targetId))
    .where(inArray(deliveryAcks.outcome, ['unknown_message', 'malformed']))
    .orderBy(desc(deliveryAcks.receivedAt))
    .limit(200);
  return rows.map((r) => ackView(r.ack, r.targetName));
}

export async function retryDelivery(db: DbOrTx, id: string): Promise<DeliveryListItem> {
  const now = new Date();
  const [updated] = await db
    .update(deliveries)
    .set({
      state: sql`case when ${deliveries.action} = 'takedown' then 'takedown_queued' else 'queued' end`,
      attempts: 0,
      nextAttemptAt: sql`now()`,
      lastError: null,
      updatedAt: now,
      stateChangedAt: now,
    })
    .where(and(eq(deliveries.id, id), inArray(deliveries.state, ['rejected', 'failed'])))
    .returning({ id: deliveries.id });
  if (!updated) {
    const [exists] = await db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.id, id));
    if (!exists) throw notFound(DELIVERY_MESSAGES.deliveryNotFound);
    throw new AppError('delivery_state', DELIVERY_MESSAGES.retryNotAllowed, 409);
  }
  await enqueueDelivery(db, updated.id);
  const { attemptsList: _omit, ...item } = await getDelivery(db, id);
  return item;
}

/** Admin takedown: every target, one target, or one store (which also fulfils an artist's request). */
export async function adminTakedown(
  db: Db,
  releaseId: string,
  input: { targetId?: string | undefined; platformId?: PlatformId | undefined },
): Promise<DeliveryListItem[]> {
  await db.transaction(async (tx) => {
    const [release] = await tx.select().from(releases).where(eq(releases.id, releaseId)).for('update');
    if (!release) throw notFound(DELIVERY_MESSAGES.releaseNotFound);
    if (!['approved', 'live'].includes(release.status)) {
      throw new AppError('release_state', DELIVERY_MESSAGES.takedownNotAllowed, 409);
    }
    if (input.platformId) {
      if (!(release.distributionStores as string[]).includes(input.platformId)) {
        throw new AppError('store_not_selected', DELIVERY_MESSAGES.storeNotSelected, 409);
      }
      const now = new Date();
      await tx
        .insert(releaseStoreTakedowns)
        .values({ releaseId, platformId: input.platformId, state: 'approved', approvedAt: now })
        .onConflictDoUpdate({
          target: [releaseStoreTakedowns.releaseId, releaseStoreTakedowns.platformId],
          set: { state: 'approved', approvedAt: now },
          where: eq(releaseStoreTakedowns.state, 'requested'),
        });
      const serving = await tx
        .select({ targetId: deliveries.targetId, target: deliveryTargets })
        .from(deliveries)
        .innerJoin(deliveryTargets, eq(deliveryTargets.id, deliveries.targetId))
        .where(eq(deliveries.releaseId, releaseId));
      const targets = serving.filter((s) => servesPlatform(s.target, input.platformId as string));
      if (targets.length === 0) {
        // Nothing was ever sent for that store: it is simply no longer distributed there.
        await tx
          .update(releaseStoreTakedowns)
          .set({ state: 'done', doneAt: now })
          .where(
            and(
              eq(releaseStoreTakedowns.releaseId, releaseId),
              eq(releaseStoreTakedowns.platformId, input.platformId),
            ),
          );
      }
      for (const t of targets) await queueReleaseUpdate(tx, releaseId, t.targetId);
      await addEvent(
        tx,
        releaseId,
        release.status,
        `Takedown from ${PLATFORMS.find((p) => p.id === input.platformId)?.name ?? input.platformId} queued.`,
      );
      return;
    }
    if (input.targetId) {
      const [exists] = await tx
        .select({ id: deliveries.id })
        .from(deliveries)
        .where(and(eq(deliveries.releaseId, releaseId), eq(deliveries.targetId, input.targetId)));
      if (!exists) throw notFound(DELIVERY_MESSAGES.deliveryNotFound);
    }
    await queueTakedowns(tx, releaseId, input.targetId);
    await addEvent(
      tx,
      releaseId,
      release.status,
      input.targetId ? 'Takedown from one target queued.' : 'Takedown from every store queued.',
    );
  });
  return (await listDeliveries(db, { releaseId, limit: 100 })).items;
}

// ------------------------------------------------------------------ the artist's view

function storeState(
  delivery: typeof deliveries.$inferSelect | undefined,
  takedown: typeof releaseStoreTakedowns.$inferSelect | undefined,
  releaseStatus: string,
): { state: StoreState; date: Date | null; message: string | null } {
  if (takedown?.state === 'requested')
    return { state: 'takedown_requested', date: takedown.requestedAt, message: null };
  if (takedown?.state === 'approved')
    return { state: 'takedown_queued', date: takedown.approvedAt, message: null };
  if (takedown?.state === 'done') return { state: 'taken_down', date: takedown.doneAt, message: null };
  if (!delivery)
    return { state: releaseStatus === 'taken_down' ? 'taken_down' : 'waiting', date: null, message: null };
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
      return { state: 'failed', date: at, message: null };
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
  const data = await loadReleaseData(db, releaseId);
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
  const stores: ReleaseDetailStore[] = release.distributionStores.map((platformId) => {
    const delivery = rows.find((r) => servesPlatform(r.target, platformId))?.delivery;
    const takedown = takedowns.find((t) => t.platformId === platformId);
    const s = storeState(delivery, takedown, release.status);
    return {
      platformId,
      name: PLATFORMS.find((p) => p.id === platformId)?.name ?? platformId,
      state: s.state,
      date: s.date?.toISOString() ?? null,
      message: s.message,
      canRequestTakedown: isOut && !takedown && !['takedown_queued', 'taken_down'].includes(s.state),
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
    if (!(release.distributionStores as string[]).includes(platformId)) {
      throw new AppError('store_not_selected', DELIVERY_MESSAGES.storeNotSelected, 409);
    }
    const rows = await tx
      .insert(releaseStoreTakedowns)
      .values({ releaseId, platformId, state: 'requested', requestedBy: userId })
      .onConflictDoNothing()
      .returning({ releaseId: releaseStoreTakedowns.releaseId });
    if (rows.length === 0)
      throw new AppError('store_takedown_exists', DELIVERY_MESSAGES.storeAlreadyTakenDown, 409);
  });
  return releaseDetail(db, userId, releaseId);
}

export { profiles };
