/**
 * Imports as the admin pages show them: the list, one import's summary and its progress.
 */
import {
  type ImportListItem,
  type ImportListResponse,
  type ImportProgress,
  type ImportSummary,
  ROYALTY_LIMITS,
  type RoyaltyImportPhase,
} from '@tunedrop/shared/schemas/royalties';
import { and, countDistinct, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { royaltyImportLines, royaltyImports } from '../../db/schema';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { notFound } from '../../lib/errors';
import type { TotalsJson } from './import-totals';

export const EMPTY_PROGRESS = {
  linesRead: 0,
  linesTotal: null,
  amountRead: '0',
  linesPosted: 0,
  postError: null,
};

export function progressOf(row: {
  phase: RoyaltyImportPhase;
  linesRead: number;
  linesTotal: number | null;
  amountRead: string | null;
  linesPosted: number;
  postError: string | null;
}): ImportProgress {
  return {
    ...EMPTY_PROGRESS,
    phase: row.phase,
    linesRead: row.linesRead,
    linesTotal: row.linesTotal,
    amountRead: row.amountRead ?? '0',
    linesPosted: row.linesPosted,
    postError: row.postError,
  };
}

export type ImportRow = typeof royaltyImports.$inferSelect;

function listItem(row: ImportRow): ImportListItem {
  const totals = row.totals as TotalsJson | null;
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format,
    // Still being read: 'staging', not 'failed' (issue 43 finding 12); the phase says how far it is.
    status: row.status,
    currency: row.currency ?? '',
    exchangeRate: row.exchangeRate ?? '',
    sender: row.sender,
    messageId: row.messageId,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    lineCount: row.lineCount,
    refusedCount: row.refusedCount,
    totalAmount: totals?.total ?? '0',
    createdAt: row.createdAt.toISOString(),
    postedAt: row.postedAt?.toISOString() ?? null,
    progress: progressOf(row),
    // Filled in by withRetries (import-retry.ts) where the admin pages read it.
    retry: null,
  };
}

export async function getImportSummary(db: Db, importId: string): Promise<ImportSummary> {
  const [row] = await db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  const totals = row.totals as TotalsJson | null;
  const empty = { lines: 0, amount: '0' };
  const [artists] = await db
    .select({ count: countDistinct(royaltyImportLines.userId) })
    .from(royaltyImportLines)
    .where(and(eq(royaltyImportLines.importId, importId), isNull(royaltyImportLines.postedIn)));
  return {
    ...listItem(row),
    errors: row.errors,
    warnings: row.warnings,
    refused: row.refused,
    matched: totals?.matched ?? empty,
    unmatched: totals?.unmatched ?? empty,
    matchedArtists: Number(artists?.count ?? 0),
    refunds: totals?.refunds ?? empty,
    byStore: totals?.byStore ?? [],
    byCountry: totals?.byCountry ?? [],
    byPeriod: totals?.byPeriod ?? [],
    byUsageType: totals?.byUsageType ?? [],
    postedCents: row.postedCents,
    residue: row.residue,
    postedArtists: row.postedArtists,
    overlap: row.overlap ?? null,
  };
}

export async function listImports(db: Db, cursorText?: string): Promise<ImportListResponse> {
  const cursor = cursorText ? decodeCursor(cursorText) : null;
  const found = await db
    .select()
    .from(royaltyImports)
    .where(
      // Postings of suspense money (decision 188) belong to their original report, not to this list.
      cursor
        ? sql`${royaltyImports.suspenseOf} is null and (${royaltyImports.createdAt}, ${royaltyImports.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
        : sql`${royaltyImports.suspenseOf} is null`,
    )
    .orderBy(desc(royaltyImports.createdAt), desc(royaltyImports.id))
    .limit(ROYALTY_LIMITS.pageSize + 1);
  const page = found.slice(0, ROYALTY_LIMITS.pageSize);
  const last = page[page.length - 1];
  return {
    items: page.map(listItem),
    nextCursor:
      found.length > ROYALTY_LIMITS.pageSize && last
        ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id })
        : null,
  };
}
