/**
 * Operator settings and catalogue codes (record 101). ISRCs `CC-XXX-YY-NNNNN` (year of approval, a
 * counter per registrant and year) and UPCs with a GS1 check digit are handed out from counters that
 * only go up: one `INSERT … ON CONFLICT DO UPDATE … RETURNING` row-locks the counter until the approving
 * transaction commits, so parallel approvals wait for each other and never collide. Every code given
 * out or accepted from an artist is kept in assigned_codes (primary key = the code, no foreign key), so
 * a code is never handed out twice, even after its release was deleted.
 */
import {
  DELIVERY_MESSAGES,
  type DeliverySettingsView,
  gtinCheckDigit,
  isSettingKey,
  isUpc,
  normaliseIsrc,
  type SettingKey,
} from '@tunedrop/shared/schemas/delivery';
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { assignedCodes, codeCounters, releases, settings, tracks } from '../../db/schema';
import { readProductName, withProductName } from '../../lib/brand-name';
import { AppError } from '../../lib/errors';

export type EffectiveSettings = {
  isrcRegistrant: string | null;
  upcPrefix: string | null;
  ddexSenderPartyId: string;
  ddexSenderName: string;
  sources: DeliverySettingsView['sources'];
};

export async function readSettings(db: DbOrTx, config: Config): Promise<EffectiveSettings> {
  const rows = await db.select().from(settings);
  const saved = new Map<SettingKey, (typeof rows)[number]['value']>();
  for (const row of rows) if (isSettingKey(row.key)) saved.set(row.key, row.value);
  const senderId = saved.get('DDEX_SENDER_PARTY_ID');
  const senderName = saved.get('DDEX_SENDER_NAME');
  return {
    isrcRegistrant: saved.get('ISRC_REGISTRANT') ?? null,
    upcPrefix: saved.get('UPC_PREFIX') ?? null,
    ddexSenderPartyId: senderId ?? config.DDEX_SENDER_PARTY_ID,
    // The built-in sender name follows the operator's product name (record 328).
    ddexSenderName: senderName ?? withProductName(config.DDEX_SENDER_NAME, await readProductName(db)),
    sources: {
      ddexSenderPartyId: senderId ? 'settings' : 'default',
      ddexSenderName: senderName ? 'settings' : 'default',
    },
  };
}

export async function writeSetting(
  db: DbOrTx,
  key: SettingKey,
  value: string | null,
  updatedBy: string | null,
): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, updatedBy, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy, updatedAt: new Date() } });
}

/** How many more UPCs a prefix can give (item references left). */
export async function upcRemaining(db: DbOrTx, prefix: string | null): Promise<number | null> {
  if (!prefix) return null;
  const [row] = await db
    .select({ lastValue: codeCounters.lastValue })
    .from(codeCounters)
    .where(and(eq(codeCounters.kind, 'upc'), eq(codeCounters.scope, prefix)));
  return 10 ** (12 - prefix.length) - 1 - (row?.lastValue ?? 0);
}

/** Reserves `count` numbers and returns the first; the counter row stays locked until commit. */
async function reserve(tx: DbOrTx, kind: 'isrc' | 'upc', scope: string, count: number): Promise<number> {
  const [row] = await tx
    .insert(codeCounters)
    .values({ kind, scope, lastValue: count })
    .onConflictDoUpdate({
      target: [codeCounters.kind, codeCounters.scope],
      set: { lastValue: sql`${codeCounters.lastValue} + ${count}` },
    })
    .returning({ lastValue: codeCounters.lastValue });
  if (!row) throw new Error('code counter: no row');
  return row.lastValue - count + 1;
}

/** Registers a code; false when it is already taken (by anyone, ever). */
async function register(
  tx: DbOrTx,
  value: {
    kind: 'isrc' | 'upc';
    code: string;
    source: 'assigned' | 'artist';
    releaseId: string;
    trackId?: string;
  },
): Promise<boolean> {
  const rows = await tx
    .insert(assignedCodes)
    .values({ ...value, trackId: value.trackId ?? null })
    .onConflictDoNothing()
    .returning({ code: assignedCodes.code });
  return rows.length > 0;
}

export const isrcFor = (registrant: string, year: number, n: number) =>
  `${registrant.replace('-', '')}${String(year % 100).padStart(2, '0')}${String(n).padStart(5, '0')}`;

/** GTIN-13 from prefix + item reference + check digit; a leading 0 makes it the 12-digit UPC-A. */
export function upcFor(prefix: string, n: number): string {
  const body = `${prefix}${String(n).padStart(12 - prefix.length, '0')}`;
  const gtin13 = `${body}${gtinCheckDigit(body)}`;
  return gtin13.startsWith('0') ? gtin13.slice(1) : gtin13;
}

async function nextIsrc(tx: DbOrTx, registrant: string, year: number, releaseId: string, trackId: string) {
  const scope = `${registrant}:${year}`;
  for (;;) {
    const n = await reserve(tx, 'isrc', scope, 1);
    if (n > 99_999) return null;
    const code = isrcFor(registrant, year, n);
    // An artist may already have supplied this very code: skip it, as the counter never goes back.
    const [clash] = await tx.select({ id: tracks.id }).from(tracks).where(eq(tracks.isrc, code)).limit(1);
    if (!clash && (await register(tx, { kind: 'isrc', code, source: 'assigned', releaseId, trackId })))
      return code;
  }
}

async function nextUpc(tx: DbOrTx, prefix: string, releaseId: string) {
  const max = 10 ** (12 - prefix.length) - 1;
  for (;;) {
    const n = await reserve(tx, 'upc', prefix, 1);
    if (n > max) return null;
    const code = upcFor(prefix, n);
    const [clash] = await tx
      .select({ id: releases.id })
      .from(releases)
      .where(eq(releases.upc, code))
      .limit(1);
    if (!clash && (await register(tx, { kind: 'upc', code, source: 'assigned', releaseId }))) return code;
  }
}

export type CodesResult = { isComplete: boolean; assigned: { isrc: number; upc: number }; missing: string[] };

/**
 * Gives the release and each of its tracks a code where it has none (artist-supplied valid codes are
 * kept and registered). Run inside the approving transaction, after the release row is locked.
 */
export async function assignCodes(
  tx: DbOrTx,
  releaseId: string,
  current: Pick<EffectiveSettings, 'isrcRegistrant' | 'upcPrefix'>,
  approvedAt: Date,
): Promise<CodesResult> {
  const [release] = await tx.select({ upc: releases.upc }).from(releases).where(eq(releases.id, releaseId));
  if (!release) throw new Error(`assignCodes: release ${releaseId} not found`);
  const trackRows = await tx
    .select({ id: tracks.id, isrc: tracks.isrc })
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  const result: CodesResult = { isComplete: true, assigned: { isrc: 0, upc: 0 }, missing: [] };
  const year = approvedAt.getUTCFullYear();
  for (const track of trackRows) {
    if (track.isrc) {
      await register(tx, {
        kind: 'isrc',
        code: normaliseIsrc(track.isrc),
        source: 'artist',
        releaseId,
        trackId: track.id,
      });
      continue;
    }
    const code = current.isrcRegistrant
      ? await nextIsrc(tx, current.isrcRegistrant, year, releaseId, track.id)
      : null;
    if (!code) {
      result.isComplete = false;
      if (!result.missing.includes('ISRC')) result.missing.push('ISRC');
      continue;
    }
    await tx.update(tracks).set({ isrc: code }).where(eq(tracks.id, track.id));
    result.assigned.isrc += 1;
  }
  if (release.upc && isUpc(release.upc)) {
    const isRegistered = await register(tx, { kind: 'upc', code: release.upc, source: 'artist', releaseId });
    if (!isRegistered) {
      // Held by another release that was approved first and still exists: two products, one UPC.
      const [holder] = await tx
        .select({ id: releases.id })
        .from(assignedCodes)
        .innerJoin(releases, eq(releases.id, assignedCodes.releaseId))
        .where(
          and(
            eq(assignedCodes.kind, 'upc'),
            eq(assignedCodes.code, release.upc),
            ne(releases.id, releaseId),
            ne(releases.status, 'deleted'),
          ),
        )
        .limit(1);
      if (holder) throw new AppError('upc_taken', DELIVERY_MESSAGES.upcTakenAtApproval, 409);
    }
  } else {
    const code = current.upcPrefix ? await nextUpc(tx, current.upcPrefix, releaseId) : null;
    if (code) {
      await tx.update(releases).set({ upc: code }).where(eq(releases.id, releaseId));
      result.assigned.upc += 1;
    } else {
      result.isComplete = false;
      result.missing.push('UPC');
    }
  }
  return result;
}

/** Approved or live releases that still miss a UPC or a track ISRC ("needs codes"). */
export async function releasesNeedingCodes(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: releases.id, createdAt: releases.createdAt })
    .from(releases)
    .leftJoin(tracks, eq(tracks.releaseId, releases.id))
    .where(and(inArray(releases.status, ['approved', 'live']), or(isNull(releases.upc), isNull(tracks.isrc))))
    .orderBy(asc(releases.createdAt));
  return rows.map((row) => row.id);
}
