/**
 * The admin's side of delivery: the DDEX settings, the list of deliveries with their attempts and
 * acknowledgements, retries and takedowns.
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
  type SettingKey,
  type SettingsValues,
} from '@tunedrop/shared/schemas/delivery';
import { and, asc, desc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import {
  deliveries,
  deliveryAcks,
  deliveryAttempts,
  deliveryTargets,
  releaseStoreTakedowns,
  releases,
} from '../../db/schema';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { AppError, notFound } from '../../lib/errors';
import { containsPattern } from '../../lib/search';
import { type AuditActor, auditSettings, readSettingValues } from '../audit';
import { readSettings, releasesNeedingCodes, upcRemaining, writeSetting } from './codes';
import { enqueueDelivery } from './jobs';
import { addEvent, backfillCodes, queueReleaseUpdate, queueTakedowns } from './planning';
import { servesPlatform } from './targets';
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
export async function saveSettings(
  db: Db,
  config: Config,
  values: SettingsValues,
  by: string | null,
  actor?: AuditActor,
) {
  const next = {
    ISRC_REGISTRANT: values.isrcRegistrant,
    UPC_PREFIX: values.upcPrefix,
    DDEX_SENDER_PARTY_ID: values.ddexSenderPartyId,
    DDEX_SENDER_NAME: values.ddexSenderName,
  } satisfies Record<SettingKey, string | null>;
  const keys = Object.keys(next) as SettingKey[];
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, keys);
    for (const key of keys) await writeSetting(tx, key, next[key], by);
    // Every save of the card is audited with the keys it changed (record 191).
    if (actor) await auditSettings(tx, actor, 'Delivery codes and DDEX sender', before, next);
  });
  await backfillCodes(db, config);
  return settingsView(db, config);
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
    state?: DeliveryListItem['state'] | undefined;
    targetId?: string | undefined;
    releaseId?: string | undefined;
    q?: string | undefined;
    platform?: PlatformId | undefined;
    cursor?: string | undefined;
    limit: number;
  },
): Promise<DeliveryListResponse> {
  const digits = query.q?.replace(/[\s-]/g, '') ?? '';
  const conditions: (SQL | undefined)[] = [
    query.state ? eq(deliveries.state, query.state) : undefined,
    query.targetId ? eq(deliveries.targetId, query.targetId) : undefined,
    query.releaseId ? eq(deliveries.releaseId, query.releaseId) : undefined,
    // Title or artist over the stored lower-case search text (record 183), or the UPC's digits (record 195).
    query.q
      ? or(
          sql`${releases.searchText} like ${containsPattern(query.q)}`,
          /^\d{3,13}$/.test(digits) ? sql`${releases.upc} like ${`%${digits}%`}` : undefined,
        )
      : undefined,
    query.platform ? sql`${query.platform} = any(${deliveries.platforms})` : undefined,
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
    const { platformId } = input;
    if (platformId) {
      if (!release.distributionStores.some((store) => store === platformId)) {
        throw new AppError('store_not_selected', DELIVERY_MESSAGES.storeNotSelected, 409);
      }
      const now = new Date();
      await tx
        .insert(releaseStoreTakedowns)
        .values({ releaseId, platformId: platformId, state: 'approved', approvedAt: now })
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
      const targets = serving.filter((s) => servesPlatform(s.target, platformId));
      if (targets.length === 0) {
        // Nothing was ever sent for that store: it is simply no longer distributed there.
        await tx
          .update(releaseStoreTakedowns)
          .set({ state: 'done', doneAt: now })
          .where(
            and(
              eq(releaseStoreTakedowns.releaseId, releaseId),
              eq(releaseStoreTakedowns.platformId, platformId),
            ),
          );
      }
      for (const t of targets) await queueReleaseUpdate(tx, releaseId, t.targetId);
      await addEvent(
        tx,
        releaseId,
        release.status,
        `Takedown from ${PLATFORMS.find((p) => p.id === platformId)?.name ?? platformId} queued.`,
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
