/**
 * Delivery targets: where packages go. The URL (with its password), a private key and own S3
 * credentials are encrypted at rest with the payment-details scheme (record 101), bound to the
 * target's id; the API only ever shows the masked URL and whether a secret is set.
 */
import { randomUUID } from 'node:crypto';
import type { PlatformId } from '@tunedrop/shared';
import {
  DELIVERY_MESSAGES,
  type DeliveryState,
  type DeliveryTargetView,
  type TargetInput,
  type TargetPatch,
  type TargetRemovalImpact,
  targetInputSchema,
  targetPatchSchema,
  targetUrlScheme,
} from '@tunedrop/shared/schemas/delivery';
import { and, asc, eq, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { deliveries, deliveryTargets, releases } from '../../db/schema';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import { AppError, notFound, validationError } from '../../lib/errors';
import type { AuditActor } from '../audit';
import { assertTargetAddress } from './target-address';
import { auditTarget, auditTargetEdit, targetAuditFields } from './target-audit';
import { errorField } from './transport';

const PURPOSE = 'tunedrop-delivery-target';

export type TargetSecret = {
  url: string;
  privateKey?: string;
  s3?: { endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string };
};

export type TargetRow = typeof deliveryTargets.$inferSelect;
export type OpenTarget = TargetRow & { secretValue: TargetSecret };

export function maskUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

export function openTarget(config: Config, row: TargetRow): OpenTarget {
  return { ...row, secretValue: decryptSecret<TargetSecret>(config.appSecret, PURPOSE, row.id, row.secret) };
}

export const servesPlatform = (target: Pick<TargetRow, 'platforms'>, platform: string) =>
  target.platforms === null || target.platforms.some((served) => served === platform);

function toView(
  row: TargetRow,
  counts: Partial<Record<DeliveryState, number>> = {},
  holds = 0,
  removal: TargetRemovalImpact = { releases: 0, artists: 0 },
): DeliveryTargetView {
  return {
    id: row.id,
    name: row.name,
    scheme: row.scheme,
    urlMasked: row.urlMasked,
    dpid: row.dpid,
    platforms: row.platforms ?? 'all',
    profile: row.profile,
    enabled: row.enabled,
    hasPassword: row.hasPassword,
    hasPrivateKey: row.hasPrivateKey,
    hasOwnS3Credentials: row.hasOwnS3,
    hostKeyFingerprint: row.hostKeySha256,
    hostKeyRecordedAt: row.hostKeyRecordedAt?.toISOString() ?? null,
    holds,
    removal,
    counts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function nameTaken(error: unknown): never {
  const text = String(errorField(errorField(error, 'cause'), 'message') ?? error);
  if (text.includes('delivery_targets_name_unique')) {
    throw new AppError('target_name_taken', DELIVERY_MESSAGES.targetNameTaken, 409, {
      name: DELIVERY_MESSAGES.targetNameTaken,
    });
  }
  throw error;
}

function secretColumns(config: Config, id: string, secret: TargetSecret) {
  const url = new URL(secret.url);
  const hasOwnS3 = Boolean(secret.s3?.accessKeyId || secret.s3?.endpoint);
  return {
    // The schema checked the URL; like openTransport, anything not sftp:// or s3:// is a folder.
    scheme: targetUrlScheme(secret.url) ?? 'file',
    urlMasked: maskUrl(secret.url),
    secret: encryptSecret(config.appSecret, PURPOSE, id, secret),
    hasPassword: url.password !== '',
    hasPrivateKey: Boolean(secret.privateKey),
    hasOwnS3,
  };
}

/** A host key pin belongs to SFTP only: refused (422, on the field) for s3:// and file:// targets. */
function assertHostKeyFits(url: string, hostKey: string | null | undefined) {
  if (hostKey && targetUrlScheme(url) !== 'sftp') {
    throw validationError(DELIVERY_MESSAGES.hostKeyOnlySftp, { hostKey: DELIVERY_MESSAGES.hostKeyOnlySftp });
  }
}

/** `host:port` of an SFTP URL, the identity a host key belongs to. */
const sftpAddress = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '22'}`;
};

/**
 * Trust on first use (record 153): records `fingerprint` as the target's host key unless one is already
 * pinned, and returns the pin now in force (another worker may have recorded a key first).
 */
export async function recordFirstHostKey(db: DbOrTx, targetId: string, fingerprint: string): Promise<string> {
  const [recorded] = await db
    .update(deliveryTargets)
    .set({ hostKeySha256: fingerprint, hostKeyRecordedAt: sql`now()` })
    .where(and(eq(deliveryTargets.id, targetId), isNull(deliveryTargets.hostKeySha256)))
    .returning({ hostKey: deliveryTargets.hostKeySha256 });
  if (recorded?.hostKey) return recorded.hostKey;
  const [row] = await db
    .select({ hostKey: deliveryTargets.hostKeySha256 })
    .from(deliveryTargets)
    .where(eq(deliveryTargets.id, targetId));
  return row?.hostKey ?? fingerprint;
}

/**
 * A delivery its target holds (record 177): a package went there (an attempt uploaded) and it is not
 * taken down yet, or one is on its way now. A takedown sent but not acknowledged is still held.
 */
export const isHeld = and(
  ne(deliveries.state, 'taken_down'),
  sql`(${deliveries.state} = 'uploading' or exists (select 1 from delivery_attempts a where a.delivery_id = ${deliveries.id} and a.outcome = 'uploaded'))`,
);

export async function listTargets(db: DbOrTx): Promise<DeliveryTargetView[]> {
  const rows = await db
    .select()
    .from(deliveryTargets)
    .where(isNull(deliveryTargets.deletedAt))
    .orderBy(asc(deliveryTargets.name));
  const counts = await db
    .select({ targetId: deliveries.targetId, state: deliveries.state, n: sql<number>`count(*)::int` })
    .from(deliveries)
    .groupBy(deliveries.targetId, deliveries.state);
  const held = await db
    .select({ targetId: deliveries.targetId, n: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(isHeld)
    .groupBy(deliveries.targetId);
  const views: DeliveryTargetView[] = [];
  for (const row of rows) {
    views.push(
      toView(
        row,
        Object.fromEntries(counts.filter((c) => c.targetId === row.id).map((c) => [c.state, Number(c.n)])),
        Number(held.find((h) => h.targetId === row.id)?.n ?? 0),
        impactOf((await removalDeliveries(db, row.id)).rows),
      ),
    );
  }
  return views;
}

/** Delivery states whose takedown is already on its way (or whose upload is running): removal leaves them be. */
const TAKING_DOWN_OR_SENDING: DeliveryState[] = ['takedown_queued', 'takedown_sent', 'uploading'];

export type RemovalDelivery = {
  id: string;
  releaseId: string;
  state: DeliveryState;
  platforms: PlatformId[];
  userId: string;
};

/**
 * What removing the target acts on now (record 177, issue 44): holding releases, a takedown of each held
 * one not already on its way (`takedown`); holding none, the jobs never sent there, closed (`close`).
 */
export async function removalDeliveries(
  db: DbOrTx,
  targetId: string,
): Promise<{ mode: 'takedown' | 'close'; rows: RemovalDelivery[] }> {
  const found = await db
    .select({
      id: deliveries.id,
      releaseId: deliveries.releaseId,
      state: deliveries.state,
      platforms: deliveries.platforms,
      userId: releases.userId,
      isHeld: sql<boolean>`(${isHeld})`,
    })
    .from(deliveries)
    .innerJoin(releases, eq(releases.id, deliveries.releaseId))
    .where(
      and(
        eq(deliveries.targetId, targetId),
        or(isHeld, notInArray(deliveries.state, ['taken_down', 'failed'])),
      ),
    );
  const held = found.filter((row) => row.isHeld);
  const pick = ({ isHeld: _held, ...row }: (typeof found)[number]): RemovalDelivery => row;
  if (held.length > 0) {
    return {
      mode: 'takedown',
      rows: held.filter((row) => !TAKING_DOWN_OR_SENDING.includes(row.state)).map(pick),
    };
  }
  return { mode: 'close', rows: found.map(pick) };
}

/** The releases and their artists among `rows` (the counts the admin confirms). */
export const impactOf = (rows: RemovalDelivery[]): TargetRemovalImpact => ({
  releases: new Set(rows.map((row) => row.releaseId)).size,
  artists: new Set(rows.map((row) => row.userId)).size,
});

export async function getTargetRow(db: DbOrTx, id: string): Promise<TargetRow> {
  const [row] = await db
    .select()
    .from(deliveryTargets)
    .where(and(eq(deliveryTargets.id, id), isNull(deliveryTargets.deletedAt)));
  if (!row) throw notFound(DELIVERY_MESSAGES.targetNotFound);
  return row;
}

export async function createTarget(
  db: DbOrTx,
  config: Config,
  input: TargetInput,
  /** The admin or the CLI, for the audit log (record 191); none for fixtures. */
  actor?: AuditActor,
): Promise<DeliveryTargetView> {
  const value = targetInputSchema.parse(input);
  assertHostKeyFits(value.url, value.hostKey);
  const id = randomUUID();
  const secret: TargetSecret = {
    url: value.url,
    ...(value.privateKey ? { privateKey: value.privateKey } : {}),
    ...(value.s3 ? { s3: value.s3 } : {}),
  };
  await assertTargetAddress(config, secret);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(deliveryTargets)
        .values({
          id,
          name: value.name,
          dpid: value.dpid,
          platforms: value.platforms === 'all' ? null : value.platforms,
          profile: value.profile,
          enabled: value.enabled,
          ...secretColumns(config, id, secret),
          ...(value.hostKey ? { hostKeySha256: value.hostKey, hostKeyRecordedAt: new Date() } : {}),
        })
        .returning();
      if (!row) throw new Error('target insert returned nothing');
      await auditTarget(tx, actor, {
        kind: 'delivery.target.add',
        id: row.id,
        name: row.name,
        after: targetAuditFields(row),
      });
      return toView(row);
    });
  } catch (error) {
    return nameTaken(error);
  }
}

export async function updateTarget(
  db: DbOrTx,
  config: Config,
  id: string,
  patch: TargetPatch,
  /** The admin or the CLI, for the audit log (record 191); none for fixtures. */
  actor?: AuditActor,
): Promise<DeliveryTargetView> {
  const value = targetPatchSchema.parse(patch);
  const row = await getTargetRow(db, id);
  const current = openTarget(config, row).secretValue;
  const secret: TargetSecret = {
    url: value.url ?? current.url,
    ...((value.privateKey ?? current.privateKey)
      ? { privateKey: value.privateKey ?? current.privateKey }
      : {}),
    ...((value.s3 ?? current.s3) ? { s3: value.s3 ?? current.s3 } : {}),
  };
  assertHostKeyFits(secret.url, value.hostKey);
  // Where it points is checked when that changes (a name or a switch saves as before).
  if (value.url !== undefined || value.s3 !== undefined) await assertTargetAddress(config, secret);
  // A given key (or null: learn it again) replaces the pin; another host or another scheme drops it.
  const isOtherServer =
    targetUrlScheme(secret.url) !== 'sftp' ||
    (row.scheme === 'sftp' && sftpAddress(secret.url) !== sftpAddress(current.url));
  const hostKey =
    value.hostKey !== undefined
      ? { hostKeySha256: value.hostKey, hostKeyRecordedAt: value.hostKey ? new Date() : null }
      : isOtherServer
        ? { hostKeySha256: null, hostKeyRecordedAt: null }
        : {};
  const credentialsReplaced =
    value.privateKey !== undefined ||
    value.s3 !== undefined ||
    (value.url !== undefined && value.url !== current.url);
  try {
    return await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(deliveryTargets)
        .set({
          ...(value.name !== undefined ? { name: value.name } : {}),
          ...(value.dpid !== undefined ? { dpid: value.dpid } : {}),
          ...(value.platforms !== undefined
            ? { platforms: value.platforms === 'all' ? null : value.platforms }
            : {}),
          ...(value.profile !== undefined ? { profile: value.profile } : {}),
          ...(value.enabled !== undefined ? { enabled: value.enabled } : {}),
          ...secretColumns(config, id, secret),
          ...hostKey,
          updatedAt: new Date(),
        })
        .where(eq(deliveryTargets.id, id))
        .returning();
      if (!updated) throw notFound(DELIVERY_MESSAGES.targetNotFound);
      await auditTargetEdit(tx, actor, row, updated, credentialsReplaced);
      return toView(updated);
    });
  } catch (error) {
    return nameTaken(error);
  }
}
