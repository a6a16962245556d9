/**
 * Store acknowledgements (ERN choreography §4, records 100, 102): the files of every folder still
 * waiting for one are read, each recorded once (again when a half-written one grew) and applied to the
 * latest attempt it answers; then releases whose stores all answered go live or are taken down.
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  deliveries,
  deliveryAcks,
  deliveryAttempts,
  deliveryTargets,
  releaseStatusEvents,
  releaseStoreTakedowns,
  releases,
} from '../../db/schema';
import { type ParsedAck, parseAck } from '../ddex';
import { notifyAcknowledgement } from '../staff-notifications';
import { emitWebhookEvent } from '../webhook-outbox';
import { type AckText, decodeAck } from './ack-text';
import { mailReleasesLive, mailStoreRejection } from './artist-mails';
import { openTargetTransport } from './connect';
import type { WorkerDeps } from './state';
import { servesPlatform, type TargetRow } from './targets';
import { errorField, type RemoteEntry, type Transport, UnreadableFileError } from './transport';

const ACK_MAX_BYTES = 64 * 1024;

/** Reads new acknowledgement files of every target with deliveries waiting for one. */
export async function pollAcknowledgements(deps: WorkerDeps): Promise<number> {
  const waiting = await deps.db
    .selectDistinct({ targetId: deliveries.targetId, folder: deliveryAttempts.remotePath })
    .from(deliveries)
    .innerJoin(deliveryAttempts, eq(deliveryAttempts.deliveryId, deliveries.id))
    .where(
      and(
        inArray(deliveries.state, ['delivered', 'takedown_sent']),
        eq(deliveryAttempts.outcome, 'uploaded'),
        isNotNull(deliveryAttempts.remotePath),
      ),
    );
  let handled = 0;
  const byTarget = new Map<string, string[]>();
  for (const row of waiting) {
    if (row.folder) byTarget.set(row.targetId, [...(byTarget.get(row.targetId) ?? []), row.folder]);
  }
  for (const [targetId, folders] of byTarget) {
    const [target] = await deps.db.select().from(deliveryTargets).where(eq(deliveryTargets.id, targetId));
    if (!target) continue;
    let transport: Transport | null = null;
    try {
      transport = await openTargetTransport(deps.db, deps.config, target);
    } catch (error) {
      deps.logger.warn({ err: error, targetId }, 'acknowledgement poll could not connect');
      continue;
    }
    try {
      for (const folder of [...new Set(folders)])
        handled += await pollFolder(deps, target, transport, folder);
    } finally {
      await transport.close();
    }
  }
  if (handled > 0) await promoteReleases(deps.db, deps.config.appUrl);
  return handled;
}

/**
 * The files of one package's acknowledgements folder, each on its own (record 226): one that cannot be
 * read or recorded is logged (or kept as unreadable, with why) and the others still go on.
 */
async function pollFolder(deps: WorkerDeps, target: TargetRow, transport: Transport, folder: string) {
  let entries: RemoteEntry[];
  try {
    entries = await transport.list(`${folder}/acknowledgements`);
  } catch (error) {
    deps.logger.warn({ err: error, targetId: target.id, folder }, 'acknowledgement folder unreadable');
    return 0;
  }
  let handled = 0;
  for (const entry of entries) {
    if (entry.isDir || entry.name.endsWith('.part') || entry.name.startsWith('.')) continue;
    try {
      handled += await recordAck(deps, target, transport, folder, entry);
    } catch (error) {
      deps.logger.warn(
        { err: error, targetId: target.id, file: `${folder}/acknowledgements/${entry.name}` },
        'acknowledgement not recorded',
      );
    }
  }
  return handled;
}

/** Errors of one file that another poll would meet again: kept as the file's reason, not retried. */
const FILE_ERROR_CODES = new Set(['UNREADABLE_FILE', 'EACCES', 'EPERM', 'EISDIR', 'ENXIO', 'EINVAL']);

/** The file's text, or why it is no acknowledgement; a passing error (the connection) is thrown. */
async function readAck(transport: Transport, remotePath: string): Promise<AckText> {
  try {
    return decodeAck(await transport.readBytes(remotePath, ACK_MAX_BYTES));
  } catch (error) {
    const code = errorField(error, 'code');
    if (typeof code !== 'string' || !FILE_ERROR_CODES.has(code)) throw error;
    const reason = error instanceof UnreadableFileError ? error.message : `${code}`;
    return { text: '', unreadable: `Unreadable: ${reason}` };
  }
}

async function recordAck(
  deps: WorkerDeps,
  target: TargetRow,
  transport: Transport,
  folder: string,
  entry: { name: string; size: number },
): Promise<number> {
  const name = entry.name.replaceAll('\u0000', '');
  const remotePath = `${folder}/acknowledgements/${name}`;
  const [seen] = await deps.db
    .select({ size: deliveryAcks.size, outcome: deliveryAcks.outcome })
    .from(deliveryAcks)
    .where(and(eq(deliveryAcks.targetId, target.id), eq(deliveryAcks.remotePath, remotePath)));
  // Each file once; a malformed (e.g. half-written) one again when its size changed.
  if (seen && !(seen.outcome === 'malformed' && seen.size !== entry.size)) return 0;
  const read = await readAck(transport, `${folder}/acknowledgements/${entry.name}`);
  const { text } = read;
  const parsed: ParsedAck =
    'unreadable' in read ? { kind: 'malformed', reason: read.unreadable } : parseAck(text);
  await deps.db.transaction(async (tx) => {
    const base = {
      targetId: target.id,
      remotePath,
      fileName: name,
      size: entry.size,
      text,
      receivedAt: new Date(),
    };
    const rows: (typeof deliveryAcks.$inferInsert)[] = [];
    if (parsed.kind === 'malformed') {
      rows.push({ ...base, outcome: 'malformed', errorText: parsed.reason });
    } else {
      for (const item of parsed.items) {
        // By MessageId; an ack without one belongs to the newest attempt whose folder it sits in.
        const [attempt] = item.messageId
          ? await tx.select().from(deliveryAttempts).where(eq(deliveryAttempts.messageId, item.messageId))
          : await tx
              .select()
              .from(deliveryAttempts)
              .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
              .where(and(eq(deliveryAttempts.remotePath, folder), eq(deliveries.targetId, target.id)))
              .orderBy(sql`${deliveryAttempts.startedAt} desc`)
              .limit(1)
              .then((r) => r.map((x) => x.delivery_attempts));
        if (!attempt) {
          rows.push({
            ...base,
            outcome: 'unknown_message',
            messageId: item.messageId,
            status: item.status,
            errorText: item.errorText,
          });
          continue;
        }
        rows.push({
          ...base,
          outcome: item.isAccepted ? 'accepted' : 'rejected',
          messageId: attempt.messageId,
          status: item.status,
          errorText: item.errorText,
          deliveryId: attempt.deliveryId,
          attemptId: attempt.id,
        });
        const moved = await applyAck(tx, attempt, item);
        if (moved?.state === 'rejected' && moved.action !== 'takedown') {
          // The release now "Needs action": the artist hears which store and why (record 194).
          await mailStoreRejection(tx, deps.config.appUrl, {
            releaseId: moved.releaseId,
            store: target.name,
            reason: moved.reason,
          });
        }
      }
    }
    // One row per file: with several items in one file, the first describes it (all are applied).
    const row = rows[0];
    if (!row) return;
    await tx
      .insert(deliveryAcks)
      .values(row)
      .onConflictDoUpdate({
        target: [deliveryAcks.targetId, deliveryAcks.remotePath],
        set: { ...row, id: undefined },
      });
    for (const ack of rows) await notifyAcknowledgement(tx, target.name, ack);
  });
  return 1;
}

/** Applies the ack to its delivery; returns the state it moved to, or null when it moved nothing. */
async function applyAck(
  tx: DbOrTx,
  attempt: typeof deliveryAttempts.$inferSelect,
  item: { isAccepted: boolean; errorText: string | null; status: string },
): Promise<{ state: string; action: string; releaseId: string; reason: string } | null> {
  const [delivery] = await tx
    .select()
    .from(deliveries)
    .where(eq(deliveries.id, attempt.deliveryId))
    .for('update');
  if (!delivery) return null;
  // Only the ack of the latest message moves the state (an old one is recorded and shown).
  const [latest] = await tx
    .select({ id: deliveryAttempts.id })
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.deliveryId, delivery.id))
    .orderBy(sql`${deliveryAttempts.number} desc`, sql`${deliveryAttempts.startedAt} desc`)
    .limit(1);
  if (latest?.id !== attempt.id || !['delivered', 'takedown_sent'].includes(delivery.state)) return null;
  const now = new Date();
  const state = !item.isAccepted
    ? 'rejected'
    : delivery.action === 'takedown'
      ? 'taken_down'
      : 'acknowledged';
  const reason = `${item.status}${item.errorText && item.errorText !== item.status ? `: ${item.errorText}` : ''}`;
  await tx
    .update(deliveries)
    .set({
      state,
      lastError: item.isAccepted ? null : reason,
      acknowledgedAt: item.isAccepted ? now : delivery.acknowledgedAt,
      updatedAt: now,
      stateChangedAt: now,
    })
    .where(eq(deliveries.id, delivery.id));
  if (state === 'acknowledged' || state === 'rejected') {
    const [owner] = await tx
      .select({ accountId: releases.userId, upc: releases.upc })
      .from(releases)
      .where(eq(releases.id, delivery.releaseId));
    if (owner)
      await emitWebhookEvent(tx, owner.accountId, `delivery.${state}`, {
        deliveryId: delivery.id,
        releaseId: delivery.releaseId,
        targetId: delivery.targetId,
        upc: owner.upc,
        messageId: attempt.id,
        ...(state === 'rejected' ? { reason } : {}),
      });
  }
  if (item.isAccepted) {
    // Stores dropped from this target's deals by an approved per-store takedown are now gone.
    const [target] = await tx.select().from(deliveryTargets).where(eq(deliveryTargets.id, delivery.targetId));
    const approved = await tx
      .select({ platformId: releaseStoreTakedowns.platformId })
      .from(releaseStoreTakedowns)
      .where(
        and(
          eq(releaseStoreTakedowns.releaseId, delivery.releaseId),
          eq(releaseStoreTakedowns.state, 'approved'),
        ),
      );
    const gone = approved
      .map((row) => row.platformId)
      .filter(
        (platform) =>
          target &&
          servesPlatform(target, platform) &&
          (delivery.action === 'takedown' || !delivery.platforms.some((served) => served === platform)),
      );
    if (gone.length > 0) {
      await tx
        .update(releaseStoreTakedowns)
        .set({ state: 'done', doneAt: now })
        .where(
          and(
            eq(releaseStoreTakedowns.releaseId, delivery.releaseId),
            inArray(releaseStoreTakedowns.platformId, gone),
          ),
        );
    }
  }
  return { state, action: delivery.action, releaseId: delivery.releaseId, reason };
}

/**
 * `live`: approved, its go-live instant reached, every delivery acknowledged. The instant (record 199,
 * `goLiveAt` in the shared release-availability schema) is release_at for "one moment worldwide", else
 * the first local midnight of the release date anywhere (00:00 at UTC+14, 10:00 UTC the day before).
 * `taken_down`: every delivery taken down. Each change writes a status event, in the same transaction: a
 * release never changes status without its event, nor the other way round. `at` replaces the database's
 * clock (tests).
 */
export async function promoteReleases(db: DbOrTx, appUrl?: string, at?: Date): Promise<void> {
  const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  await db.transaction(async (tx) => {
    const live = await tx
      .update(releases)
      .set({ status: 'live', updatedAt: sql`now()` })
      .where(
        and(
          eq(releases.status, 'approved'),
          sql`(case when ${releases.releaseTimeMode} = 'worldwide_moment' then ${releases.releaseAt}
                else (${releases.releaseDate}::timestamp - interval '14 hours') at time zone 'utc' end) <= ${now}`,
          sql`exists (select 1 from deliveries d where d.release_id = ${releases.id})`,
          sql`not exists (select 1 from deliveries d where d.release_id = ${releases.id} and d.state <> 'acknowledged')`,
        ),
      )
      .returning({ id: releases.id });
    const down = await tx
      .update(releases)
      .set({ status: 'taken_down', takedownRequested: false, updatedAt: sql`now()` })
      .where(
        and(
          inArray(releases.status, ['approved', 'live']),
          sql`exists (select 1 from deliveries d where d.release_id = ${releases.id})`,
          sql`not exists (select 1 from deliveries d where d.release_id = ${releases.id} and d.state <> 'taken_down')`,
        ),
      )
      .returning({ id: releases.id, accountId: releases.userId, upc: releases.upc });
    for (const release of down)
      await emitWebhookEvent(tx, release.accountId, 'takedown.completed', {
        releaseId: release.id,
        upc: release.upc,
      });
    const events = [
      ...live.map((r) => ({
        releaseId: r.id,
        status: 'live',
        note: 'Every store acknowledged and the release time has come.',
      })),
      ...down.map((r) => ({
        releaseId: r.id,
        status: 'taken_down',
        note: 'Every store confirmed the takedown.',
      })),
    ];
    // The "your release is live" mail, at a release's first go-live only (record 194).
    const liveIds = live.map((r) => r.id);
    const wasLive = liveIds.length
      ? await tx
          .selectDistinct({ releaseId: releaseStatusEvents.releaseId })
          .from(releaseStatusEvents)
          .where(and(inArray(releaseStatusEvents.releaseId, liveIds), eq(releaseStatusEvents.status, 'live')))
      : [];
    const before = new Set(wasLive.map((r) => r.releaseId));
    await mailReleasesLive(
      tx,
      appUrl,
      liveIds.filter((id) => !before.has(id)),
    );
    if (events.length > 0) await tx.insert(releaseStatusEvents).values(events);
  });
}
