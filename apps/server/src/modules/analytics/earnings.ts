/**
 * Pro analytics on the earnings ledger: one set-based, grouped query per dimension over the immutable
 * earnings lines (royalty_earnings) of one artist, within a window of sales periods.
 */

import { toCsv } from '@tunedrop/shared/csv';
import {
  EARNINGS_BREAKDOWN_LIMIT,
  type EarningsBreakdown,
  type EarningsRow,
  type EarningsWindow,
} from '@tunedrop/shared/schemas/analytics';
import { and, asc, count, countDistinct, desc, eq, gte, max, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { releases, royaltyEarnings, royaltyPostings, tracks } from '../../db/schema';

const e = royaltyEarnings;
const unitsSum = sql<string>`coalesce(trim_scale(sum(${e.units})), 0)::text`;
const amountSum = sql`coalesce(sum(${e.amountUsd}), 0)`;
/** Exact USD sum → cents, half away from zero, in the database (never a binary float on the way). */
const centsSum = sql<string>`round(${amountSum} * 100)::bigint::text`;

/** The first sales period (YYYY-MM) counted, in UTC; null for all time. */
export function windowStart(months: EarningsWindow, now = new Date()): string | null {
  if (months === 'all') return null;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (Number(months) - 1), 1));
  return start.toISOString().slice(0, 7);
}

/**
 * The artist's posted lines in the window; with a profile (record 201) only those of that profile's
 * releases (shares received on someone else's release belong to no profile of this account).
 */
function scope(userId: string, from: string | null, artistProfileId?: string | null): SQL | undefined {
  return and(
    eq(e.userId, userId),
    from ? gte(e.period, from) : undefined,
    artistProfileId
      ? sql`${e.releaseId} in (select id from releases where artist_profile_id = ${artistProfileId} and user_id = ${userId})`
      : undefined,
    // A posting in progress has written lines of a report not posted yet (royalties, decision 162).
    sql`${e.importId} in (select id from royalty_imports where status = 'posted')`,
  );
}

type Grouped = { key: string | null; label: string | null; units: string; cents: string; lines: number };
const toRow = (row: Grouped, fallback: string): EarningsRow => ({
  key: row.key ?? '',
  label: row.label ?? fallback,
  units: row.units,
  amountCents: Number(row.cents),
  lines: Number(row.lines),
});

export async function getEarningsBreakdown(
  db: DbOrTx,
  userId: string,
  months: EarningsWindow,
  artistProfileId?: string | null,
): Promise<EarningsBreakdown> {
  const from = windowStart(months);
  const where = scope(userId, from, artistProfileId);
  const measures = { units: unitsSum, cents: centsSum, lines: count() };

  const [totals] = await db
    .select({ ...measures, reports: countDistinct(e.importId) })
    .from(e)
    .where(where);
  const byMonth = await db
    .select({ key: e.period, label: e.period, ...measures })
    .from(e)
    .where(where)
    .groupBy(e.period)
    .orderBy(asc(e.period));
  const byStore = await db
    .select({ key: e.store, label: e.store, ...measures })
    .from(e)
    .where(where)
    .groupBy(e.store)
    .orderBy(desc(amountSum), asc(e.store))
    .limit(EARNINGS_BREAKDOWN_LIMIT);
  const byCountry = await db
    .select({ key: e.country, label: e.country, ...measures })
    .from(e)
    .where(where)
    .groupBy(e.country)
    .orderBy(desc(amountSum), asc(e.country))
    .limit(EARNINGS_BREAKDOWN_LIMIT);
  const byTrack = await db
    .select({
      key: sql<string | null>`${e.trackId}::text`,
      label: sql<string | null>`${tracks.title} || coalesce(' (' || ${tracks.isrc} || ')', '')`,
      ...measures,
    })
    .from(e)
    .innerJoin(tracks, eq(tracks.id, e.trackId))
    .where(where)
    .groupBy(e.trackId, tracks.title, tracks.isrc)
    .orderBy(desc(amountSum), asc(tracks.title))
    .limit(EARNINGS_BREAKDOWN_LIMIT);
  const byRelease = await db
    .select({ key: sql<string | null>`${e.releaseId}::text`, label: releases.title, ...measures })
    .from(e)
    .innerJoin(releases, eq(releases.id, e.releaseId))
    .where(where)
    .groupBy(e.releaseId, releases.title)
    .orderBy(desc(amountSum), asc(releases.title))
    .limit(EARNINGS_BREAKDOWN_LIMIT);
  const [posted] = await db
    .select({ at: max(royaltyPostings.createdAt) })
    .from(royaltyPostings)
    .where(eq(royaltyPostings.userId, userId));

  return {
    months,
    from,
    totals: {
      units: totals?.units ?? '0',
      amountCents: Number(totals?.cents ?? 0),
      lines: Number(totals?.lines ?? 0),
      reports: Number(totals?.reports ?? 0),
    },
    byMonth: byMonth.map((row) => toRow(row, '')),
    byStore: byStore.map((row) => toRow(row, 'Unknown store')),
    byCountry: byCountry.map((row) => toRow(row, 'Unknown country')),
    byTrack: byTrack.map((row) => toRow(row, 'Unknown track')),
    byRelease: byRelease.map((row) => toRow(row, 'Unknown release')),
    lastPostedAt: posted?.at ? new Date(posted.at).toISOString() : null,
  };
}

/** The window's earnings per period, store, country, release and track, as CSV with exact USD amounts. */
export async function earningsCsv(
  db: DbOrTx,
  userId: string,
  months: EarningsWindow,
  artistProfileId?: string | null,
): Promise<string> {
  const rows = await db
    .select({
      period: e.period,
      store: e.store,
      country: e.country,
      release: releases.title,
      upc: releases.upc,
      track: tracks.title,
      isrc: tracks.isrc,
      units: unitsSum,
      amount: sql<string>`trim_scale(${amountSum})::text`,
    })
    .from(e)
    .leftJoin(tracks, eq(tracks.id, e.trackId))
    .leftJoin(releases, eq(releases.id, e.releaseId))
    .where(scope(userId, windowStart(months), artistProfileId))
    .groupBy(e.period, e.store, e.country, releases.title, releases.upc, tracks.title, tracks.isrc)
    .orderBy(desc(e.period), desc(amountSum), asc(e.store), asc(e.country));
  // Gross: what the stores reported, before the distribution fee and split shares (record 190).
  const header = [
    'Period',
    'Store',
    'Country',
    'Release',
    'UPC',
    'Track',
    'ISRC',
    'Units',
    'Gross amount (USD)',
  ];
  return toCsv(
    header,
    rows.map((row) => [
      row.period,
      row.store,
      row.country,
      row.release,
      row.upc,
      row.track,
      row.isrc,
      row.units,
      row.amount,
    ]),
  );
}
