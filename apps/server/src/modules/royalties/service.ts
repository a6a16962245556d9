/**
 * Royalty import: a file on disk → a staged report. Streams the file once (after hashing it), matches
 * each line in memory against the catalogue's codes (ISRC → track, then UPC/EAN → release, then the
 * remembered code mappings), stages lines in batched multi-row inserts (one JSON parameter per batch,
 * the next batch parsed while the previous one is written), then checks totals and sums it set-based.
 * A fatal problem leaves a 'failed' report that cannot be posted. Decision records 110-113.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  exchangeRateSchema,
  type ImportListItem,
  type ImportListResponse,
  type ImportSummary,
  ROYALTY_LIMITS,
  ROYALTY_TEXTS,
  type RoyaltyFormat,
  type TotalsRow,
} from '@tunedrop/shared/schemas/royalties';
import { and, countDistinct, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import {
  royaltyCsvPresets,
  royaltyImportLines,
  royaltyImportSummaries,
  royaltyImports,
} from '../../db/schema';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { AppError, conflict, notFound, validationError } from '../../lib/errors';
import { lineAmountsSql, needsAllocation, StreamingAllocator } from './amounts';
import { copyValue, openCopySink } from './copy-in';
import { FormatError, parseFile } from './parse';
import {
  isoDate,
  normaliseIsrc,
  normaliseUpc,
  type ParsedLine,
  type ParseReport,
  parseDecimal,
} from './parse-common';
import { type ReadLimits, SourceError } from './source';

export type ImportInput = {
  filePath: string;
  fileName: string;
  format: RoyaltyFormat;
  rate?: string | undefined;
  currency?: string | undefined;
  presetId?: string | undefined;
  adminId?: string | null | undefined;
  /** ROYALTY_MAX_LINE_BYTES and ROYALTY_MAX_DECOMPRESSED_BYTES from the config (decision 151). */
  limits?: ReadLimits | undefined;
};

/**
 * Imports that hold their file and DSR message: a failed import does not (it can be imported again once
 * fixed), nor does one still staging (a crashed import must not block its file); the partial unique
 * indexes of migration 0011 say the same (decision 152).
 */
const HOLDS_ITS_FILE: ('staged' | 'posted')[] = ['staged', 'posted'];

/** The SQLSTATE of a database error, the driver's own or wrapped by Drizzle as `cause`. */
export const sqlState = (error: unknown): string | undefined =>
  (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;

/** The absolute amounts of a report as it streams (an upper bound in the report currency) and its largest. */
type AmountTally = { absTotal: number; largest: { line: number; amount: string; abs: number } | null };

function tallyAmount(tally: AmountTally, line: number, amount: string): void {
  const abs = Math.abs(Number(amount));
  tally.absTotal += abs;
  if (!tally.largest || abs > tally.largest.abs) tally.largest = { line, amount, abs };
}

type Target = { trackId: string | null; releaseId: string; userId: string };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export async function sha256File(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(filePath, { highWaterMark: 1024 * 1024 })) hash.update(chunk);
  return hash.digest('hex');
}

/** The catalogue's codes: assigned codes (when that table exists), the tracks' ISRCs and releases' UPCs, mappings. */
export async function loadCodeTargets(
  db: Db,
): Promise<{ isrc: Map<string, Target>; upc: Map<string, Target> }> {
  const isrc = new Map<string, Target>();
  const upc = new Map<string, Target>();
  const add = (kind: string, code: string | null, target: Target) => {
    const map = kind === 'isrc' ? isrc : upc;
    const key = kind === 'isrc' ? normaliseIsrc(code) : normaliseUpc(code);
    if (key && !map.has(key)) map.set(key, target);
  };
  type Row = { kind: string; code: string; track_id: string | null; release_id: string; user_id: string };
  const [exists] = rowsOf<{ present: boolean }>(
    await db.execute(sql`select to_regclass('public.assigned_codes') is not null as present`),
  );
  if (exists?.present) {
    const assigned = rowsOf<Row>(
      await db.execute(sql`
        select a.kind, a.code, a.track_id, coalesce(a.release_id, t.release_id) as release_id, r.user_id
          from assigned_codes a
          left join tracks t on t.id = a.track_id
          join releases r on r.id = coalesce(a.release_id, t.release_id)`),
    );
    for (const row of assigned)
      add(row.kind, row.code, { trackId: row.track_id, releaseId: row.release_id, userId: row.user_id });
  }
  const native = rowsOf<Row>(
    await db.execute(sql`
      select 'isrc' as kind, t.isrc as code, t.id as track_id, t.release_id, r.user_id
        from tracks t join releases r on r.id = t.release_id where t.isrc is not null
      union all
      select 'upc', r.upc, null, r.id, r.user_id from releases r where r.upc is not null
      union all
      select m.kind, m.code, m.track_id, coalesce(m.release_id, t.release_id), r.user_id
        from royalty_code_mappings m
        left join tracks t on t.id = m.track_id
        join releases r on r.id = coalesce(m.release_id, t.release_id)`),
  );
  for (const row of native)
    add(row.kind, row.code, { trackId: row.track_id, releaseId: row.release_id, userId: row.user_id });
  return { isrc, upc };
}

const STAGED_COLUMNS =
  'import_id, line_no, line_key, summary_id, isrc, upc, title, artist, store, country, period, usage_type, units, amount, royalty_bearing, track_id, release_id, user_id';

/** Rows per COPY: large enough that statement overhead is small, small enough to stay a few MB. */
const BATCH = 10_000;

/** Imports one file. Throws 409 when the same file or DSR message was imported before, 422 for an unreadable format. */
export async function importRoyaltyFile(db: Db, input: ImportInput): Promise<ImportSummary> {
  const sha = await sha256File(input.filePath);
  const [same] = await db
    .select({ id: royaltyImports.id })
    .from(royaltyImports)
    .where(and(eq(royaltyImports.fileSha256, sha), inArray(royaltyImports.status, HOLDS_ITS_FILE)));
  if (same) {
    throw new AppError('already_imported', ROYALTY_TEXTS.alreadyImported, 409, { importId: same.id });
  }
  let preset: { mapping: never; delimiter: string; currency: string } | null = null;
  if (input.presetId) {
    const [row] = await db.select().from(royaltyCsvPresets).where(eq(royaltyCsvPresets.id, input.presetId));
    if (!row) throw validationError('Unknown preset', { preset: 'Unknown preset' });
    preset = { mapping: row.mapping as never, delimiter: row.delimiter, currency: row.currency };
  }
  const onHead = async (report: ParseReport) => {
    if (!report.messageId || !report.sender) return;
    const [previous] = await db
      .select({ id: royaltyImports.id })
      .from(royaltyImports)
      .where(
        and(
          eq(royaltyImports.sender, report.sender),
          eq(royaltyImports.messageId, report.messageId),
          eq(royaltyImports.fileNumber, report.fileNumber ?? 1),
          inArray(royaltyImports.status, HOLDS_ITS_FILE),
        ),
      );
    if (previous) {
      throw new AppError(
        'already_imported',
        `This report (MessageId ${report.messageId} from ${report.sender}) was already imported; delete that import first to import it again.`,
        409,
        { importId: previous.id },
      );
    }
  };
  let parsed: Awaited<ReturnType<typeof parseFile>>;
  try {
    parsed = await parseFile(input.filePath, {
      format: input.format,
      preset,
      onHead,
      ...(input.limits ? { limits: input.limits } : {}),
    });
  } catch (error) {
    if (error instanceof FormatError) throw new AppError('unsupported_format', error.message, 422);
    if (error instanceof SourceError) throw new AppError('unreadable_file', error.message, 422);
    throw error;
  }
  const { report, lines } = parsed;
  const [created] = await db
    .insert(royaltyImports)
    .values({
      fileName: input.fileName,
      fileSha256: sha,
      format: report.format,
      status: 'staging',
      createdBy: input.adminId ?? null,
    })
    .returning({ id: royaltyImports.id });
  const importId = (created as { id: string }).id;
  try {
    const tally = await stageLines(db, importId, lines, report);
    return await finishImport(db, importId, report, input, preset?.currency ?? null, tally);
  } catch (error) {
    await removeImport(db, importId);
    if (error instanceof AppError) throw error;
    // Another import of the same file or message reached 'staged' first.
    if (sqlState(error) === '23505') {
      throw new AppError('already_imported', ROYALTY_TEXTS.alreadyImported, 409);
    }
    throw error;
  }
}

/** A one-entry cache: consecutive lines mostly repeat the same resource's code. */
function memo(normalise: (value: string | null) => string | null) {
  let lastIn: string | null = null;
  let lastOut: string | null = null;
  return (value: string | null) => {
    if (value !== lastIn) {
      lastIn = value;
      lastOut = normalise(value);
    }
    return lastOut;
  };
}

async function stageLines(
  db: Db,
  importId: string,
  lines: AsyncIterable<ParsedLine>,
  report: ParseReport,
): Promise<AmountTally> {
  const targets = await loadCodeTargets(db);
  const sink = await openCopySink(db, 'royalty_import_lines', STAGED_COLUMNS);
  const allocator = new StreamingAllocator([]);
  let knownSummaries = 0;
  const isrcOf = memo(normaliseIsrc);
  const upcOf = memo(normaliseUpc);
  const tally: AmountTally = { absTotal: 0, largest: null };
  let batch = '';
  let count = 0;
  // One COPY in flight while the next batch is parsed; its rejection is observed at the next await.
  let inFlight: Promise<void> | null = null;
  const flush = async () => {
    const rows = batch;
    batch = '';
    count = 0;
    if (inFlight) await inFlight;
    inFlight = null;
    if (rows === '') return;
    const next = sink.write(rows);
    next.catch(() => undefined);
    inFlight = next;
  };
  try {
    for await (const line of lines) {
      const isrc = isrcOf(line.isrc);
      const upc = upcOf(line.upc);
      const target = (isrc ? targets.isrc.get(isrc) : undefined) ?? (upc ? targets.upc.get(upc) : undefined);
      let amount = line.amount;
      // Lines that share a summary's revenue are counted by their summary below.
      if (amount !== null) tallyAmount(tally, line.lineNo, amount);
      if (amount === null && line.summaryId !== null) {
        if (report.summaries.size !== knownSummaries) {
          // Summary records precede the sales lines; pick up any read since the last line.
          for (const summary of report.summaries.values()) allocator.add(summary);
          knownSummaries = report.summaries.size;
        }
        amount = allocator.share(line.summaryId, line.units, line.royaltyBearing);
      }
      batch +=
        `${importId}\t${line.lineNo}\t${copyValue(line.lineKey)}\t${copyValue(line.summaryId)}\t` +
        `${copyValue(isrc)}\t${copyValue(upc)}\t` +
        // Titles and artists only help an admin place an unknown code; matched lines have their track.
        `${target ? '\\N' : copyValue(line.title)}\t${target ? '\\N' : copyValue(line.artist)}\t` +
        `${copyValue(line.store)}\t${copyValue(line.country)}\t${copyValue(line.period)}\t` +
        `${copyValue(line.usageType)}\t${line.units}\t${amount ?? '\\N'}\t${line.royaltyBearing ? 't' : 'f'}\t` +
        `${target?.trackId ?? '\\N'}\t${target?.releaseId ?? '\\N'}\t${target ? copyValue(target.userId) : '\\N'}\n`;
      count += 1;
      if (count >= BATCH) await flush();
    }
    await flush();
    if (inFlight) await inFlight;
    const fallbacks = allocator.fallbacks();
    if (fallbacks.length > 0) {
      await db.execute(sql`
        update royalty_import_lines set amount = null
         where import_id = ${importId}
           and summary_id in (select jsonb_array_elements_text(${JSON.stringify(fallbacks)}::jsonb))`);
    }
  } catch (error) {
    // Nothing may write after the caller's clean-up: let the COPY in flight end first.
    await (inFlight as Promise<void> | null)?.catch(() => undefined);
    if (!(error instanceof SourceError)) throw error;
    report.errors.push(error.message);
  } finally {
    await sink.close();
  }
  for (const summary of report.summaries.values()) tallyAmount(tally, summary.line, summary.netRevenue);
  return tally;
}

async function finishImport(
  db: Db,
  importId: string,
  report: ParseReport,
  input: ImportInput,
  presetCurrency: string | null,
  tally: AmountTally,
): Promise<ImportSummary> {
  // Fresh statistics: the checks and sums below plan hash joins and aggregates, not nested loops.
  await db.execute(sql`analyze royalty_import_lines`);
  if (report.summaries.size > 0) {
    await db.insert(royaltyImportSummaries).values(
      [...report.summaries.values()].map((summary) => ({
        importId,
        summaryId: summary.id,
        netRevenue: summary.netRevenue,
        usages: summary.usages,
      })),
    );
    const checks = rowsOf<{
      summary_id: string;
      net_revenue: string;
      usages: string | null;
      line_units: string;
      lines: number | string;
      has_weight: boolean;
    }>(
      await db.execute(sql`
        select s.summary_id, s.net_revenue::text, s.usages::text,
               trim_scale(coalesce(l.line_units, 0))::text as line_units, coalesce(l.lines, 0) as lines,
               coalesce(l.has_weight, false) as has_weight
          from royalty_import_summaries s
          left join (
            select summary_id, sum(units) as line_units, count(*) as lines,
                   bool_or(royalty_bearing and units > 0) as has_weight
              from royalty_import_lines
             where import_id = ${importId} and summary_id is not null
             group by summary_id
          ) l on l.summary_id = s.summary_id
         where s.import_id = ${importId}
         order by s.summary_id`),
    );
    const allocates = checks.some((check) => Number(check.lines) > 0);
    if (allocates) {
      for (const check of checks) {
        const line = report.summaries.get(check.summary_id)?.line;
        if (check.usages !== null && Number(check.usages) !== Number(check.line_units)) {
          report.errors.push(
            `Line ${line}: summary ${check.summary_id} declares ${check.usages} usages but its sales lines add up to ${check.line_units}; the totals do not match.`,
          );
        } else if (!check.has_weight && Number(check.net_revenue) !== 0) {
          report.errors.push(
            `Line ${line}: summary ${check.summary_id} has revenue ${check.net_revenue} but no royalty-bearing usages to share it.`,
          );
        }
      }
    }
    if (report.format === 'dsr') {
      const duplicates = rowsOf<{ line_key: string; first_line: number; count: number | string }>(
        await db.execute(sql`
          select line_key, min(line_no) as first_line, count(*) as count
            from royalty_import_lines where import_id = ${importId}
           group by line_key having count(*) > 1 order by min(line_no) limit 5`),
      );
      for (const duplicate of duplicates) {
        report.errors.push(
          `Line ${duplicate.first_line}: SalesTransactionId ${duplicate.line_key.split('/').pop()} appears ${duplicate.count} times; a sale is never counted twice.`,
        );
      }
    }
  }
  if (!report.periodStart) {
    // Statements give a period per line: the report covers the first to the last of them.
    const [span] = rowsOf<{ first: string | null; last: string | null }>(
      await db.execute(sql`
        select min(period) as first, max(period) as last
          from royalty_import_lines where import_id = ${importId}`),
    );
    if (span?.first && span.last) {
      report.periodStart = isoDate(span.first, false);
      report.periodEnd = isoDate(span.last, true);
    }
  }
  if (report.lineCount === 0 && report.errors.length === 0) {
    report.errors.push(
      report.refusedCount > 0
        ? 'No sales line could be read; see the refused lines.'
        : 'The file has no sales lines.',
    );
  }
  const currency = report.currency ?? input.currency ?? presetCurrency;
  let rate: string | null = null;
  if (!currency) report.errors.push('The report does not say its currency; give one.');
  else if (currency === 'USD') {
    rate = '1';
    if (input.rate && parseDecimal(input.rate) !== '1') {
      report.warnings.push(`The report is in USD; the exchange rate ${input.rate} was ignored.`);
    }
  } else if (input.rate) {
    // The route and the CLI checked it already; the same rule holds for any other caller.
    const checked = exchangeRateSchema.safeParse(input.rate);
    if (checked.success) rate = parseDecimal(checked.data);
    else report.errors.push(`${checked.error.issues[0]?.message ?? 'The exchange rate is not valid'}.`);
  } else {
    report.errors.push(
      `The report is in ${currency}: give its exchange rate to USD (1 ${currency} = ? USD).`,
    );
  }
  const usdTotal = rate === null ? 0 : tally.absTotal * Number(rate);
  if (usdTotal > ROYALTY_LIMITS.maxReportUsd && tally.largest) {
    // Beyond this the cents of a posting would not fit the balance columns (decision 152).
    report.errors.push(
      `Line ${tally.largest.line}: the amount ${tally.largest.amount} ${currency} is part of a report whose amounts add up to about ${Math.round(usdTotal).toLocaleString('en-US')} USD; one report may carry at most ${ROYALTY_LIMITS.maxReportUsd.toLocaleString('en-US')} USD.`,
    );
  }
  if (report.refusedCount > 0 && report.errors.length === 0) {
    report.warnings.push(`${report.refusedCount} line(s) were refused and will not be posted.`);
  }
  await db
    .update(royaltyImports)
    .set({
      status: report.errors.length > 0 ? 'failed' : 'staged',
      currency,
      exchangeRate: rate,
      sender: report.sender,
      messageId: report.messageId,
      fileNumber: report.fileNumber,
      periodStart: report.periodStart,
      periodEnd: report.periodEnd,
      lineCount: report.lineCount,
      refusedCount: report.refusedCount,
      errors: report.errors,
      warnings: report.warnings,
      refused: report.refused,
    })
    .where(eq(royaltyImports.id, importId));
  await refreshTotals(db, importId);
  return getImportSummary(db, importId);
}

type TotalsJson = {
  byStore: TotalsRow[];
  byCountry: TotalsRow[];
  byPeriod: TotalsRow[];
  byUsageType: TotalsRow[];
  matched: { lines: number; amount: string };
  unmatched: { lines: number; amount: string };
  refunds: { lines: number; amount: string };
  total: string;
};

/** Sums the import's lines by store, country, period, usage type, matched and refunds in one scan. */
export async function refreshTotals(db: DbOrTx, importId: string): Promise<void> {
  await db.transaction(async (tx) => {
    // The sorts and hashes of a million lines fit in memory instead of spilling to disk.
    await tx.execute(sql`set local work_mem = '256MB'`);
    await sumTotals(tx, importId);
  });
}

async function sumTotals(db: DbOrTx, importId: string): Promise<void> {
  const rows = rowsOf<{
    dim: string;
    key: string | null;
    lines: number | string;
    units: string | null;
    amount: string | null;
  }>(
    await db.execute(sql`
      with x as materialized (
        select store, country, period, usage_type, units, line_amount as amount,
               case when user_id is null then 'unmatched' else 'matched' end as matched,
               line_amount < 0 or units < 0 as refund
          from (${lineAmountsSql(importId, await needsAllocation(db, importId))}) l
      )
      select case
               when grouping(store) = 0 then 'store'
               when grouping(country) = 0 then 'country'
               when grouping(period) = 0 then 'period'
               when grouping(usage_type) = 0 then 'usage_type'
               when grouping(matched) = 0 then 'matched'
               when grouping(refund) = 0 then 'refund'
               else 'total' end as dim,
             coalesce(store, country, period, usage_type, matched, refund::text) as key,
             count(*) as lines, trim_scale(sum(units))::text as units, trim_scale(sum(amount))::text as amount
        from x
       group by grouping sets ((store), (country), (period), (usage_type), (matched), (refund), ())`),
  );
  const pick = (dim: string): TotalsRow[] =>
    rows
      .filter((row) => row.dim === dim)
      .map((row) => ({
        key: row.key ?? '',
        lines: Number(row.lines),
        units: row.units ?? '0',
        amount: row.amount ?? '0',
      }))
      .sort((a, b) => Number(b.amount) - Number(a.amount) || a.key.localeCompare(b.key));
  const one = (dim: string, key: string) => {
    const row = rows.find((r) => r.dim === dim && r.key === key);
    return { lines: row ? Number(row.lines) : 0, amount: row?.amount ?? '0' };
  };
  const totals: TotalsJson = {
    byStore: pick('store'),
    byCountry: pick('country'),
    byPeriod: pick('period'),
    byUsageType: pick('usage_type'),
    matched: one('matched', 'matched'),
    unmatched: one('matched', 'unmatched'),
    refunds: one('refund', 'true'),
    total: rows.find((row) => row.dim === 'total')?.amount ?? '0',
  };
  await db.update(royaltyImports).set({ totals }).where(eq(royaltyImports.id, importId));
}

type ImportRow = typeof royaltyImports.$inferSelect;

function listItem(row: ImportRow): ImportListItem {
  const totals = row.totals as TotalsJson | null;
  return {
    id: row.id,
    fileName: row.fileName,
    format: row.format,
    status: row.status === 'staging' ? 'failed' : row.status,
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
    .where(eq(royaltyImportLines.importId, importId));
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
  };
}

export async function listImports(db: Db, cursorText?: string): Promise<ImportListResponse> {
  const cursor = cursorText ? decodeCursor(cursorText) : null;
  const rows = await db
    .select()
    .from(royaltyImports)
    .where(
      cursor
        ? sql`(${royaltyImports.createdAt}, ${royaltyImports.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
        : undefined,
    )
    .orderBy(desc(royaltyImports.createdAt), desc(royaltyImports.id))
    .limit(ROYALTY_LIMITS.pageSize + 1);
  const page = rows.slice(0, ROYALTY_LIMITS.pageSize);
  const last = page[page.length - 1];
  return {
    items: page.map(listItem),
    nextCursor:
      rows.length > ROYALTY_LIMITS.pageSize && last
        ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id })
        : null,
  };
}

/** The report row and its staged lines and summaries, in one transaction (the lines have no foreign key). */
async function removeImport(db: Db, importId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(royaltyImports)
      .where(and(eq(royaltyImports.id, importId), sql`${royaltyImports.status} <> 'posted'`))
      .returning({ id: royaltyImports.id });
    if (deleted.length === 0) return false;
    await tx.execute(sql`delete from royalty_import_lines where import_id = ${importId}`);
    return true;
  });
}

/** Deletes an unposted import and its staged lines; a posted one stays (its earnings are immutable). */
export async function deleteImport(db: Db, importId: string): Promise<void> {
  if (await removeImport(db, importId)) return;
  const [row] = await db
    .select({ id: royaltyImports.id })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  throw conflict(ROYALTY_TEXTS.postedNotDeletable);
}
