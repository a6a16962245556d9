/**
 * A target's life (record 177): disabled, it takes no new releases but still sends updates and takedowns
 * for what it holds; it is removed only once it holds nothing, or after the admin had everything there
 * taken down (the target then stays disabled until the last takedown is acknowledged).
 */
import {
  DELIVERY_MESSAGES,
  type DeliveryTargetView,
  removalNotConfirmedMessage,
  type TargetInput,
  type TargetPatch,
  type TargetRemovalImpact,
  type TargetTestResult,
  targetHoldsMessage,
  targetInputSchema,
  targetPatchSchema,
  targetUrlScheme,
} from '@tunedrop/shared/schemas/delivery';
import { and, eq, isNull, notInArray, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { deliveries, deliveryTargets, releases } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import type { AuditActor } from '../audit';
import { openTargetTransport, openTransport } from './connect';
import { addEvent, queueTakedowns } from './planning';
import { assertTargetAddress } from './target-address';
import { auditTarget, targetAuditFields } from './target-audit';
import { mailTargetRemoval } from './target-removal-mails';
import {
  createTarget,
  getTargetRow,
  impactOf,
  isHeld,
  openTarget,
  removalDeliveries,
  type TargetRow,
  updateTarget,
} from './targets';
import { describeTransportError, probeTransport } from './transport';

/** Why a job never sent to a removed target will not go out (the admin's and the artist's line). */
export const REMOVED_BEFORE_SENT = 'The delivery target was removed before this was sent.';

export async function heldDeliveries(db: DbOrTx, targetId: string) {
  return db
    .select({ id: deliveries.id, releaseId: deliveries.releaseId, state: deliveries.state })
    .from(deliveries)
    .where(and(eq(deliveries.targetId, targetId), isHeld));
}

/** Enables or disables a live target; with an actor (record 191), a change is audited in the same transaction. */
export async function setTargetEnabled(db: DbOrTx, id: string, isEnabled: boolean, actor?: AuditActor) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ enabled: deliveryTargets.enabled })
      .from(deliveryTargets)
      .where(and(eq(deliveryTargets.id, id), isNull(deliveryTargets.deletedAt)))
      .for('update');
    const rows = await tx
      .update(deliveryTargets)
      .set({ enabled: isEnabled, updatedAt: new Date() })
      .where(and(eq(deliveryTargets.id, id), isNull(deliveryTargets.deletedAt)))
      .returning({ id: deliveryTargets.id, name: deliveryTargets.name });
    const row = rows[0];
    if (!row || !before) throw notFound(DELIVERY_MESSAGES.targetNotFound);
    if (before.enabled !== isEnabled) {
      await auditTarget(tx, actor, {
        kind: isEnabled ? 'delivery.target.enable' : 'delivery.target.disable',
        id: row.id,
        name: row.name,
        before: { enabled: before.enabled },
        after: { enabled: isEnabled },
      });
    }
    return row;
  });
}

export type RemoveResult =
  | { removed: true }
  /** Takedowns queued for what the target held; it stays, disabled, until they are acknowledged. */
  | { removed: false; takedowns: number; held: number };

export type RemoveOptions = {
  takeDownFirst?: boolean;
  actor?: AuditActor;
  /**
   * The counts the admin confirmed (issue 44). With `requireConfirmation` (the admin's route), a removal
   * that affects releases is refused unless they equal what the server finds now.
   */
  confirmed?: Partial<TargetRemovalImpact>;
  requireConfirmation?: boolean;
  /** For the link in the artists' mail. */
  appUrl?: string;
};

/**
 * Removes a target that holds nothing (its jobs never sent are closed as failed, with the reason).
 * Holding releases: refused (409 target_holds_releases) unless `takeDownFirst`, which disables it and
 * queues a takedown of each release it holds (a takedown already on its way is left as it is). Either
 * way the artists of the releases affected are mailed which release and store (issue 44).
 */
export async function removeTarget(db: Db, id: string, options: RemoveOptions = {}): Promise<RemoveResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(deliveryTargets)
      .where(and(eq(deliveryTargets.id, id), isNull(deliveryTargets.deletedAt)))
      .for('update');
    if (!row) throw notFound(DELIVERY_MESSAGES.targetNotFound);
    const held = await heldDeliveries(tx, id);
    if (held.length > 0 && !options.takeDownFirst) {
      throw new AppError('target_holds_releases', targetHoldsMessage(row.name, held.length), 409);
    }
    const affected = await removalDeliveries(tx, id);
    const impact = impactOf(affected.rows);
    const isConfirmed =
      options.confirmed?.releases === impact.releases && options.confirmed?.artists === impact.artists;
    if (options.requireConfirmation && impact.releases > 0 && !isConfirmed) {
      throw new AppError('removal_not_confirmed', removalNotConfirmedMessage(row.name, impact), 409);
    }
    const mailed = await mailTargetRemoval(tx, {
      mode: affected.mode,
      targetName: row.name,
      deliveries: affected.rows,
      appUrl: options.appUrl,
    });
    if (held.length > 0) {
      await tx
        .update(deliveryTargets)
        .set({ enabled: false, updatedAt: new Date() })
        .where(eq(deliveryTargets.id, id));
      let takedowns = 0;
      for (const delivery of affected.rows) {
        takedowns += await queueTakedowns(tx, delivery.releaseId, id);
        const [release] = await tx
          .select({ status: releases.status })
          .from(releases)
          .where(eq(releases.id, delivery.releaseId));
        if (release) {
          await addEvent(
            tx,
            delivery.releaseId,
            release.status,
            `Takedown from ${row.name} queued (target being removed).`,
          );
        }
      }
      await auditTarget(tx, options.actor, {
        kind: 'delivery.target.remove',
        id,
        name: row.name,
        before: { enabled: row.enabled, holds: held.length },
        after: {
          enabled: false,
          takedownsQueued: takedowns,
          artistsMailed: mailed,
          removed: 'once the takedowns are acknowledged',
        },
      });
      return { removed: false, takedowns, held: held.length };
    }
    const now = new Date();
    await tx
      .update(deliveries)
      .set({ state: 'failed', lastError: REMOVED_BEFORE_SENT, updatedAt: now, stateChangedAt: now })
      .where(and(eq(deliveries.targetId, id), notInArray(deliveries.state, ['taken_down', 'failed'])));
    await tx
      .update(deliveryTargets)
      .set({ deletedAt: now, enabled: false, updatedAt: now })
      .where(eq(deliveryTargets.id, id));
    await auditTarget(tx, options.actor, {
      kind: 'delivery.target.remove',
      id,
      name: row.name,
      before: targetAuditFields(row),
      after: { removed: true, jobsClosed: affected.rows.length, artistsMailed: mailed },
    });
    return { removed: true };
  });
}

/** Connects, writes, lists and removes a probe file: the admin's Test connection and `delivery:target:add`. */
export async function testTargetConnection(
  db: DbOrTx,
  config: Config,
  row: TargetRow,
): Promise<TargetTestResult> {
  const started = performance.now();
  const elapsedMs = () => Math.round(performance.now() - started);
  try {
    await probeTransport(await openTargetTransport(db, config, row));
    return { ok: true, message: 'Connected and wrote a test file.', elapsedMs: elapsedMs() };
  } catch (error) {
    return { ok: false, message: describeTransportError(error), elapsedMs: elapsedMs() };
  }
}

/** A live target by id or by name (case-insensitive), as the CLI names it. */
export async function findTarget(db: DbOrTx, idOrName: string): Promise<TargetRow | undefined> {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrName);
  const [row] = await db
    .select()
    .from(deliveryTargets)
    .where(
      and(
        isNull(deliveryTargets.deletedAt),
        isId ? eq(deliveryTargets.id, idOrName) : sql`lower(${deliveryTargets.name}) = lower(${idOrName})`,
      ),
    );
  return row;
}

/** Drops a target nothing was ever queued to (an add the connection test refused), audited with an actor. */
export async function discardNewTarget(db: DbOrTx, id: string, actor?: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const dropped = await tx
      .delete(deliveryTargets)
      .where(
        and(
          eq(deliveryTargets.id, id),
          sql`not exists (select 1 from deliveries d where d.target_id = ${deliveryTargets.id})`,
        ),
      )
      .returning();
    const row = dropped[0];
    if (row) {
      await auditTarget(tx, actor, {
        kind: 'delivery.target.remove',
        id,
        name: row.name,
        before: targetAuditFields(row),
        after: { removed: true, reason: 'the connection test failed' },
      });
    }
  });
}

/** The admin's refusal of an unreachable enabled target (the CLI says the same, with its --disabled hint). */
export const targetUnreachableMessage = (detail: string) =>
  `${DELIVERY_MESSAGES.targetUnreachable}: ${detail.replace(/[.!]?$/, '.')} Add it disabled to keep it switched off until it answers.`;

/**
 * The admin's Add (issue 26 finding 2, like `delivery:target:add`): an enabled target is tested before it is
 * saved, and refused (422 target_unreachable, nothing saved) when it does not answer; a disabled one is
 * saved untested. An SFTP key seen by the test is pinned at once, unless the admin gave one.
 */
export async function addTestedTarget(
  db: DbOrTx,
  config: Config,
  input: TargetInput,
  actor?: AuditActor,
): Promise<DeliveryTargetView> {
  const value = targetInputSchema.parse(input);
  // Refused where it points (record 227) before anything connects there, enabled or not.
  await assertTargetAddress(config, { url: value.url, ...(value.s3 ? { s3: value.s3 } : {}) });
  if (!value.enabled) return createTarget(db, config, input, actor);
  let seen = null as string | null;
  try {
    const transport = await openTransport(
      {
        url: value.url,
        ...(value.privateKey ? { privateKey: value.privateKey } : {}),
        ...(value.s3 ? { s3: value.s3 } : {}),
      },
      config,
      {
        hostKey: {
          targetName: value.name,
          expected: value.hostKey ?? null,
          recordFirst: async (fingerprint) => {
            seen = fingerprint;
            return fingerprint;
          },
        },
      },
    );
    await probeTransport(transport);
  } catch (error) {
    const message = targetUnreachableMessage(describeTransportError(error));
    throw new AppError('target_unreachable', message, 422);
  }
  const pin = !value.hostKey && seen && targetUrlScheme(value.url) === 'sftp' ? { hostKey: seen } : {};
  return createTarget(db, config, { ...input, ...pin }, actor);
}

/**
 * The admin's Edit (issue 26): like Add, a change of the connection settings (URL, key, S3 credentials or
 * the pinned host key) of a target left enabled is tested before it is saved, and refused (422
 * target_unreachable, nothing saved) when the target does not answer with them. Names, stores, profile
 * or switching on and off are saved untested, as the target's own Test button checks it any time.
 */
export async function updateTestedTarget(
  db: DbOrTx,
  config: Config,
  id: string,
  patch: TargetPatch,
  actor?: AuditActor,
): Promise<DeliveryTargetView> {
  const value = targetPatchSchema.parse(patch);
  const row = await getTargetRow(db, id);
  const current = openTarget(config, row).secretValue;
  const isEnabled = value.enabled ?? row.enabled;
  const isConnectionChanged =
    (value.url !== undefined && value.url !== current.url) ||
    value.privateKey !== undefined ||
    value.s3 !== undefined ||
    (value.hostKey !== undefined && value.hostKey !== row.hostKeySha256);
  if (!isEnabled || !isConnectionChanged) return updateTarget(db, config, id, patch, actor);
  const url = value.url ?? current.url;
  const privateKey = value.privateKey ?? current.privateKey;
  const s3 = value.s3 ?? current.s3;
  await assertTargetAddress(config, { url, ...(s3 ? { s3 } : {}) });
  const isSameServer =
    targetUrlScheme(url) === 'sftp' && row.scheme === 'sftp' && sftpHost(url) === sftpHost(current.url);
  // The pin in force after the save: the one given, else the current one while the server stays the same.
  const expected = value.hostKey !== undefined ? value.hostKey : isSameServer ? row.hostKeySha256 : null;
  let seen = null as string | null;
  try {
    const transport = await openTransport(
      { url, ...(privateKey ? { privateKey } : {}), ...(s3 ? { s3 } : {}) },
      config,
      {
        hostKey: {
          targetName: value.name ?? row.name,
          expected: expected ?? null,
          recordFirst: async (fingerprint) => {
            seen = fingerprint;
            return fingerprint;
          },
        },
      },
    );
    await probeTransport(transport);
  } catch (error) {
    const detail = describeTransportError(error).replace(/[.!]?$/, '.');
    throw new AppError('target_unreachable', `${DELIVERY_MESSAGES.targetUnreachableEdit}: ${detail}`, 422);
  }
  const pin = !expected && seen && targetUrlScheme(url) === 'sftp' ? { hostKey: seen } : {};
  return updateTarget(db, config, id, { ...patch, ...pin }, actor);
}

/** `host:port` of an SFTP URL, the identity a host key belongs to. */
const sftpHost = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '22'}`;
};
