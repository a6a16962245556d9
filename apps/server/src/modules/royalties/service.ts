/**
 * Royalty import: a file on disk → a staged report. Streams the file once (after hashing it), matches
 * each line in memory against the catalogue's codes (ISRC → track, then UPC/EAN → release, then the
 * remembered code mappings), stages lines in batched multi-row inserts (one JSON parameter per batch,
 * the next batch parsed while the previous one is written), then checks totals and sums it set-based.
 * A fatal problem leaves a 'failed' report that cannot be posted. Decision records 110-113.
 */

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { canonicalDecimal } from '@tunedrop/shared/money';
import {
  exchangeRateSchema,
  type ImportAccepted,
  type ImportListItem,
  type ImportListResponse,
  type ImportProgress,
  type ImportSummary,
  ROYALTY_LIMITS,
  ROYALTY_TEXTS,
  type RoyaltyFormat,
  type RoyaltyImportPhase,
  type TotalsRow,
} from '@tunedrop/shared/schemas/royalties';
import { and, countDistinct, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import {
  royaltyCsvPresets,
  royaltyImportLines,
  royaltyImportSummaries,
  royaltyImports,
} from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { AppError, conflict, notFound, validationError } from '../../lib/errors';
import { enqueue, type JobQueue } from '../../lib/jobs';
import { rows, run } from '../../lib/sql';
import { lineAmountsSql, needsAllocation, StreamingAllocator } from './amounts';
import { type CopyColumn, copyRow, openCopySink } from './copy-in';
import { constraintOf, sqlState } from './database-error';
import { FormatError, parseFile } from './parse';
import { isoDate, normaliseIsrc, normaliseUpc, type ParsedLine, type ParseReport } from './parse-common';
import { DEFAULT_READ_LIMITS, type ReadLimits, readChunks, SourceError } from './source';

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
  onProgress?: ProgressListener | undefined;
};

/**
 * Imports that hold their file and DSR message: a failed import does not (it can be imported again once
 * fixed), nor does one still staging (a crashed import must not block its file); the partial unique
 * indexes of migration 0011 say the same (decision 152).
 */
const HOLDS_ITS_FILE: ('staged' | 'posted')[] = ['staged', 'posted'];

/** The absolute amounts of a report as it streams (an upper bound in the report currency) and its largest. */
type AmountTally = { absTotal: number; largest: { line: number; amount: string; abs: number } | null };

function tallyAmount(tally: AmountTally, line: number, amount: string): void {
  const abs = Math.abs(Number(amount));
  tally.absTotal += abs;
  if (!tally.largest || abs > tally.largest.abs) tally.largest = { line, amount, abs };
}

type Target = { trackId: string | null; releaseId: string; userId: string };

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
  type Row = { kind: string; code: string; trackId: string | null; releaseId: string; userId: string };
  const [exists] = await rows<{ present: boolean }>(
    db,
    sql`select to_regclass('public.assigned_codes') is not null as present`,
  );
  if (exists?.present) {
    const assigned = await rows<Row>(
      db,
      sql`
        select a.kind, a.code, a.track_id, coalesce(a.release_id, t.release_id) as release_id, r.user_id
          from assigned_codes a
          left join tracks t on t.id = a.track_id
          join releases r on r.id = coalesce(a.release_id, t.release_id)`,
    );
    for (const row of assigned)
      add(row.kind, row.code, { trackId: row.trackId, releaseId: row.releaseId, userId: row.userId });
  }
  const native = await rows<Row>(
    db,
    sql`
      select 'isrc' as kind, t.isrc as code, t.id as track_id, t.release_id, r.user_id
        from tracks t join releases r on r.id = t.release_id where t.isrc is not null
      union all
      select 'upc', r.upc, null, r.id, r.user_id from releases r where r.upc is not null
      union all
      select m.kind, m.code, m.track_id, coalesce(m.release_id, t.release_id), r.user_id
        from royalty_code_mappings m
        left join tracks t on t.id = m.track_id
        join releases r on r.id = coalesce(m.release_id, t.release_id)`,
  );
  for (const row of native)
    add(row.kind, row.code, { trackId: row.trackId, releaseId: row.releaseId, userId: row.userId });
  return { isrc, upc };
}

/** A sales line as it is staged: the parsed line, its normalised codes, its catalogue target and amount. */
type StagedLine = {
  importId: string;
  line: ParsedLine;
  isrc: string | null;
  upc: string | null;
  target: Target | undefined;
  amount: string | null;
};

/** The staged columns and where each value comes from: the COPY's column list and its rows are both made from this. */
export const STAGED_COLUMNS: readonly CopyColumn<StagedLine>[] = [
  { column: 'import_id', value: (row) => row.importId },
  { column: 'line_no', value: (row) => row.line.lineNo },
  { column: 'line_key', value: (row) => row.line.lineKey },
  { column: 'summary_id', value: (row) => row.line.summaryId },
  { column: 'isrc', value: (row) => row.isrc },
  { column: 'upc', value: (row) => row.upc },
  // Titles and artists only help an admin place an unknown code; matched lines have their track.
  { column: 'title', value: (row) => (row.target ? null : row.line.title) },
  { column: 'artist', value: (row) => (row.target ? null : row.line.artist) },
  { column: 'store', value: (row) => row.line.store },
  { column: 'country', value: (row) => row.line.country },
  { column: 'period', value: (row) => row.line.period },
  { column: 'usage_type', value: (row) => row.line.usageType },
  { column: 'units', value: (row) => row.line.units },
  { column: 'amount', value: (row) => row.amount },
  { column: 'royalty_bearing', value: (row) => row.line.royaltyBearing },
  { column: 'track_id', value: (row) => row.target?.trackId ?? null },
  { column: 'release_id', value: (row) => row.target?.releaseId ?? null },
  { column: 'user_id', value: (row) => row.target?.userId ?? null },
];

/** Rows per COPY: large enough that statement overhead is small, small enough to stay a few MB. */
const BATCH = 10_000;

/** The upload's options as kept on the import row for its job (migration 0018). */
type StoredOptions = NonNullable<(typeof royaltyImports.$inferSelect)['options']>;

const EMPTY_PROGRESS = { linesRead: 0, linesTotal: null, amountRead: '0', linesPosted: 0, postError: null };

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

/** Refuses a file already staged or posted (409) and an unknown preset (422); returns its hash and preset. */
async function checkNewImport(db: Db, input: ImportInput) {
  const sha = await sha256File(input.filePath);
  const [same] = await db
    .select({ id: royaltyImports.id })
    .from(royaltyImports)
    .where(and(eq(royaltyImports.fileSha256, sha), inArray(royaltyImports.status, HOLDS_ITS_FILE)));
  if (same) {
    throw new AppError('already_imported', ROYALTY_TEXTS.alreadyImported, 409, { importId: same.id });
  }
  const preset = await loadPreset(db, input.presetId);
  // The format is known from the first line: an unreadable file is refused before anything is queued.
  let format: ImportRow['format'];
  try {
    const parsed = await parseFile(input.filePath, {
      format: input.format,
      preset,
      onHead: refuseKnownMessage(db),
      ...(input.limits ? { limits: input.limits } : {}),
    });
    format = parsed.report.format;
    // Up to the first sales line: a DSR's HEAD names its message, refused now when already imported.
    if (format === 'dsr') await parsed.lines.next().finally(() => parsed.lines.return(undefined));
  } catch (error) {
    throw asAppError(error);
  }
  return { sha, format };
}

async function loadPreset(db: Db, presetId: string | undefined) {
  if (!presetId) return null;
  const [row] = await db.select().from(royaltyCsvPresets).where(eq(royaltyCsvPresets.id, presetId));
  if (!row) throw validationError('Unknown preset', { preset: 'Unknown preset' });
  return { mapping: row.mapping as never, delimiter: row.delimiter, currency: row.currency };
}

function asAppError(error: unknown): unknown {
  if (error instanceof FormatError) return new AppError('unsupported_format', error.message, 422);
  if (error instanceof SourceError) return new AppError('unreadable_file', error.message, 422);
  return error;
}

const storageKeyOf = (importId: string) => `royalty-imports/${importId}.report`;

/**
 * The upload (decision 161): checks what can be checked at once (same file, preset, format), moves the
 * file into storage and creates the import with its job in one transaction. The caller answers 202.
 */
export async function queueImport(
  deps: { db: Db; storage: Storage },
  input: ImportInput,
): Promise<ImportAccepted> {
  const { sha, format } = await checkNewImport(deps.db, input);
  const id = randomUUID();
  const fileKey = storageKeyOf(id);
  await deps.storage.putFile(fileKey, input.filePath);
  const options: StoredOptions = {
    format: input.format,
    rate: input.rate,
    currency: input.currency,
    presetId: input.presetId,
  };
  try {
    await deps.db.transaction(async (tx) => {
      await tx.insert(royaltyImports).values({
        id,
        fileName: input.fileName,
        fileSha256: sha,
        format,
        status: 'staging',
        phase: 'queued',
        fileKey,
        options,
        createdBy: input.adminId ?? null,
      });
      await enqueue(tx, importQueue, { importId: id }, { singletonKey: id });
    });
  } catch (error) {
    await deps.storage.delete(fileKey).catch(() => undefined);
    throw error;
  }
  return { id, progress: { ...EMPTY_PROGRESS, phase: 'queued' } };
}

/** What enqueues the import job (the job itself, jobs.ts, imports this module). */
export const importQueue: JobQueue<{ importId: string }> = {
  name: 'royalties.import',
  payload: z.object({ importId: z.uuid() }),
};

/** Ends an import that cannot be read: failed with the reason, no staged lines, no file. */
async function failImport(db: Db, importId: string, message: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(royaltyImports)
      .set({ status: 'failed', phase: 'failed', errors: [message], fileKey: null, progressAt: sql`now()` })
      .where(and(eq(royaltyImports.id, importId), eq(royaltyImports.status, 'staging')));
    await run(tx, sql`delete from royalty_import_lines where import_id = ${importId}`);
  });
}

/**
 * The import job (decision 161): reads the stored file and stages its lines, resuming after the lines a
 * killed run committed. Returns when the import is staged (phase ready) or failed; a second run of a
 * finished import does nothing. Throws only for what a retry may cure (the database, the storage).
 */
export async function runImport(
  deps: { db: Db; storage: Storage },
  importId: string,
  limits?: ReadLimits,
  onProgress?: ProgressListener,
): Promise<void> {
  const [row] = await deps.db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
  if (row?.status !== 'staging') return;
  if (!row.fileKey || !row.options) {
    await failImport(deps.db, importId, 'The uploaded file is no longer stored; upload it again.');
    return;
  }
  const dir = path.join(os.tmpdir(), 'tunedrop-royalty-jobs');
  await mkdir(dir, { recursive: true });
  const local = path.join(dir, `${importId}-${randomUUID()}.report`);
  try {
    const { body } = await deps.storage.get(row.fileKey);
    await pipeline(body, createWriteStream(local));
    const outcome = await stageImport(deps.db, { ...row, options: row.options }, local, limits, onProgress);
    if (outcome.fatal) await failImport(deps.db, importId, outcome.fatal.message);
    await deps.storage.delete(row.fileKey).catch(() => undefined);
    await deps.db.update(royaltyImports).set({ fileKey: null }).where(eq(royaltyImports.id, importId));
  } finally {
    await rm(local, { force: true });
  }
}

/**
 * Imports one file in this process (the CLI without a worker, tests, benches): the same staging as the
 * job. Throws 409 when the same file or DSR message was imported before, 422 for an unreadable file.
 */
export async function importRoyaltyFile(db: Db, input: ImportInput): Promise<ImportSummary> {
  const { sha, format } = await checkNewImport(db, input);
  const options: StoredOptions = {
    format: input.format,
    rate: input.rate,
    currency: input.currency,
    presetId: input.presetId,
  };
  const [created] = await db
    .insert(royaltyImports)
    .values({
      fileName: input.fileName,
      fileSha256: sha,
      format,
      status: 'staging',
      phase: 'queued',
      options,
      createdBy: input.adminId ?? null,
    })
    .returning();
  if (!created) throw new Error('the import insert returned no row');
  const row = { ...created, options };
  const outcome = await stageImport(db, row, input.filePath, input.limits, input.onProgress);
  if (outcome.fatal) {
    await removeImport(db, row.id);
    throw outcome.fatal;
  }
  return getImportSummary(db, row.id);
}

/** A DSR message (sender, MessageId, file number) already staged or posted is refused by its HEAD. */
function refuseKnownMessage(db: Db) {
  return async (head: ParseReport) => {
    if (!head.messageId || !head.sender) return;
    const [previous] = await db
      .select({ id: royaltyImports.id })
      .from(royaltyImports)
      .where(
        and(
          eq(royaltyImports.sender, head.sender),
          eq(royaltyImports.messageId, head.messageId),
          eq(royaltyImports.fileNumber, head.fileNumber ?? 1),
          inArray(royaltyImports.status, HOLDS_ITS_FILE),
        ),
      );
    if (previous) {
      throw new AppError(
        'already_imported',
        `This report (MessageId ${head.messageId} from ${head.sender}) was already imported; delete that import first to import it again.`,
        409,
        { importId: previous.id },
      );
    }
  };
}

/** Counts the file's lines (decompressed), the total its progress is measured against. */
async function countLines(filePath: string, limits: ReadLimits): Promise<number> {
  let count = 0;
  let bytes = 0;
  let last = 0x0a;
  /** Bytes since the last line break: a gzip bomb is one endless line, stop there instead of inflating it. */
  let lineBytes = 0;
  for await (const chunk of readChunks(filePath)) {
    bytes += chunk.length;
    // Past either bound the parse fails with the line (decision 151); the count need not go on.
    if (bytes > limits.maxDecompressedBytes) break;
    let at = chunk.indexOf(0x0a);
    lineBytes = at === -1 ? lineBytes + chunk.length : chunk.length - chunk.lastIndexOf(0x0a) - 1;
    if (at === -1 && lineBytes > limits.maxLineBytes) break;
    while (at !== -1) {
      count += 1;
      at = chunk.indexOf(0x0a, at + 1);
    }
    last = chunk[chunk.length - 1] ?? last;
  }
  return last === 0x0a ? count : count + 1;
}

export type ProgressListener = (progress: ImportProgress) => void;

/**
 * Parses a file and stages its lines after those already staged for this import (a run that was killed
 * committed a prefix of them, batch by batch), then checks and sums. Returns a fatal error instead of
 * throwing it, so each caller decides what a failed import leaves behind.
 */
async function stageImport(
  db: Db,
  row: ImportRow & { options: StoredOptions },
  filePath: string,
  limits: ReadLimits | undefined,
  onProgress?: ProgressListener,
): Promise<{ fatal?: AppError }> {
  const importId = row.id;
  const { options } = row;
  const input = { rate: options.rate, currency: options.currency };
  const preset = await loadPreset(db, options.presetId).catch(() => null);
  const readLimits = limits ?? DEFAULT_READ_LIMITS;
  const progress: ImportProgress = { ...EMPTY_PROGRESS, phase: 'reading' };
  const report = async (set: Partial<ImportProgress>) => {
    Object.assign(progress, set);
    await db
      .update(royaltyImports)
      .set({
        phase: progress.phase,
        linesRead: progress.linesRead,
        linesTotal: progress.linesTotal,
        amountRead: progress.amountRead,
        progressAt: sql`now()`,
      })
      .where(and(eq(royaltyImports.id, importId), eq(royaltyImports.status, 'staging')));
    onProgress?.({ ...progress });
  };
  const onHead = refuseKnownMessage(db);
  try {
    const linesTotal = await countLines(filePath, readLimits);
    await report({ linesTotal });
    const parsed = await parseFile(filePath, {
      format: options.format,
      preset,
      onHead,
      limits: readLimits,
    });
    const [staged] = await rows<{ last: number | string | null }>(
      db,
      sql`select max(line_no) as last from royalty_import_lines where import_id = ${importId}`,
    );
    const tally = await stageLines(db, importId, parsed.lines, parsed.report, {
      after: Number(staged?.last ?? 0),
      onBatch: (linesRead, amount) => report({ linesRead, amountRead: amount }),
    });
    await report({ phase: 'staging' });
    await finishImport(db, importId, parsed.report, input, preset?.currency ?? null, tally);
    const [done] = await db
      .select({ status: royaltyImports.status })
      .from(royaltyImports)
      .where(eq(royaltyImports.id, importId));
    const phase = done?.status === 'staged' ? 'ready' : 'failed';
    await db
      .update(royaltyImports)
      .set({ phase, linesRead: linesTotal, progressAt: sql`now()` })
      .where(eq(royaltyImports.id, importId));
    onProgress?.({ ...progress, phase, linesRead: linesTotal });
    return {};
  } catch (caught) {
    const error = asAppError(caught);
    if (error instanceof AppError) return { fatal: error };
    // Another import of the same file or message reached 'staged' first.
    if (sqlState(error) === '23505' && constraintOf(error)?.startsWith('royalty_imports_')) {
      return { fatal: new AppError('already_imported', ROYALTY_TEXTS.alreadyImported, 409) };
    }
    // Anything else (a second run staging the same lines, the database going away) is for a retry.
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

type StageOptions = {
  /** Lines up to this number are staged already (by a run that was killed): parsed, not written again. */
  after: number;
  /** After each batch is written: the last line read and the sum of the amounts so far. */
  onBatch: (linesRead: number, amount: string) => Promise<void>;
};

async function stageLines(
  db: Db,
  importId: string,
  lines: AsyncIterable<ParsedLine>,
  report: ParseReport,
  options: StageOptions,
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
  let lastLine = 0;
  let amountSoFar = 0;
  let committed = { line: 0, amount: '0.00' };
  // One COPY in flight while the next batch is parsed; its rejection is observed at the next await.
  const copy: { inFlight: Promise<void> | null } = { inFlight: null };
  const flush = async () => {
    const text = batch;
    batch = '';
    count = 0;
    if (copy.inFlight) await copy.inFlight;
    copy.inFlight = null;
    // Only what is committed counts: a run killed now resumes after these lines.
    if (committed.line > 0) await options.onBatch(committed.line, committed.amount);
    if (text === '') {
      committed = { line: lastLine, amount: amountSoFar.toFixed(2) };
      return;
    }
    const batchEnd = { line: lastLine, amount: amountSoFar.toFixed(2) };
    const next = sink.write(text).then(() => {
      committed = batchEnd;
    });
    next.catch(() => undefined);
    copy.inFlight = next;
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
      lastLine = line.lineNo;
      if (amount !== null) amountSoFar += Number(amount);
      // Every line goes through the allocator and the tally above; only new lines are written.
      if (line.lineNo <= options.after) {
        count += 1;
        if (count >= BATCH) await flush();
        continue;
      }
      batch += copyRow(STAGED_COLUMNS, { importId, line, isrc, upc, target, amount });
      count += 1;
      if (count >= BATCH) await flush();
    }
    await flush();
    if (copy.inFlight) await copy.inFlight;
    await options.onBatch(committed.line, committed.amount);
    const fallbacks = allocator.fallbacks();
    if (fallbacks.length > 0) {
      await run(
        db,
        sql`
        update royalty_import_lines set amount = null
         where import_id = ${importId}
           and summary_id in (select jsonb_array_elements_text(${JSON.stringify(fallbacks)}::jsonb))`,
      );
    }
  } catch (error) {
    // Nothing may write after the caller's clean-up: let the COPY in flight end first.
    await copy.inFlight?.catch(() => undefined);
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
  input: Pick<ImportInput, 'rate' | 'currency'>,
  presetCurrency: string | null,
  tally: AmountTally,
): Promise<ImportSummary> {
  // Fresh statistics: the checks and sums below plan hash joins and aggregates, not nested loops.
  await run(db, sql`analyze royalty_import_lines`);
  if (report.summaries.size > 0) {
    await db.insert(royaltyImportSummaries).values(
      [...report.summaries.values()].map((summary) => ({
        importId,
        summaryId: summary.id,
        netRevenue: summary.netRevenue,
        usages: summary.usages,
      })),
    );
    const checks = await rows<{
      summaryId: string;
      netRevenue: string;
      usages: string | null;
      lineUnits: string;
      lines: number | string;
      hasWeight: boolean;
    }>(
      db,
      sql`
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
         order by s.summary_id`,
    );
    const allocates = checks.some((check) => Number(check.lines) > 0);
    if (allocates) {
      for (const check of checks) {
        const line = report.summaries.get(check.summaryId)?.line;
        if (check.usages !== null && Number(check.usages) !== Number(check.lineUnits)) {
          report.errors.push(
            `Line ${line}: summary ${check.summaryId} declares ${check.usages} usages but its sales lines add up to ${check.lineUnits}; the totals do not match.`,
          );
        } else if (!check.hasWeight && Number(check.netRevenue) !== 0) {
          report.errors.push(
            `Line ${line}: summary ${check.summaryId} has revenue ${check.netRevenue} but no royalty-bearing usages to share it.`,
          );
        }
      }
    }
    if (report.format === 'dsr') {
      const duplicates = await rows<{ lineKey: string; firstLine: number; count: number | string }>(
        db,
        sql`
          select line_key, min(line_no) as first_line, count(*) as count
            from royalty_import_lines where import_id = ${importId}
           group by line_key having count(*) > 1 order by min(line_no) limit 5`,
      );
      for (const duplicate of duplicates) {
        report.errors.push(
          `Line ${duplicate.firstLine}: SalesTransactionId ${duplicate.lineKey.split('/').pop()} appears ${duplicate.count} times; a sale is never counted twice.`,
        );
      }
    }
  }
  if (!report.periodStart) {
    // Statements give a period per line: the report covers the first to the last of them.
    const [span] = await rows<{ first: string | null; last: string | null }>(
      db,
      sql`
        select min(period) as first, max(period) as last
          from royalty_import_lines where import_id = ${importId}`,
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
    if (input.rate && canonicalDecimal(input.rate) !== '1') {
      report.warnings.push(`The report is in USD; the exchange rate ${input.rate} was ignored.`);
    }
  } else if (input.rate) {
    // The route and the CLI checked it already; the same rule holds for any other caller.
    const checked = exchangeRateSchema.safeParse(input.rate);
    if (checked.success) rate = canonicalDecimal(checked.data);
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
    await run(tx, sql`set local work_mem = '256MB'`);
    await sumTotals(tx, importId);
  });
}

async function sumTotals(db: DbOrTx, importId: string): Promise<void> {
  const found = await rows<{
    dim: string;
    key: string | null;
    lines: number | string;
    units: string | null;
    amount: string | null;
  }>(
    db,
    sql`
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
       group by grouping sets ((store), (country), (period), (usage_type), (matched), (refund), ())`,
  );
  const pick = (dim: string): TotalsRow[] =>
    found
      .filter((row) => row.dim === dim)
      .map((row) => ({
        key: row.key ?? '',
        lines: Number(row.lines),
        units: row.units ?? '0',
        amount: row.amount ?? '0',
      }))
      .sort((a, b) => Number(b.amount) - Number(a.amount) || a.key.localeCompare(b.key));
  const one = (dim: string, key: string) => {
    const row = found.find((r) => r.dim === dim && r.key === key);
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
    total: found.find((row) => row.dim === 'total')?.amount ?? '0',
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
    // Still being read: not postable yet (the phase says how far it is).
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
    progress: progressOf(row),
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
  const found = await db
    .select()
    .from(royaltyImports)
    .where(
      cursor
        ? sql`(${royaltyImports.createdAt}, ${royaltyImports.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
        : undefined,
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

/** The report row and its staged lines and summaries, in one transaction (the lines have no foreign key). */
async function removeImport(db: Db, importId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(royaltyImports)
      .where(
        and(
          eq(royaltyImports.id, importId),
          sql`${royaltyImports.status} <> 'posted' and ${royaltyImports.phase} <> 'posting'`,
        ),
      )
      .returning({ id: royaltyImports.id, fileKey: royaltyImports.fileKey });
    if (deleted.length === 0) return false;
    await run(tx, sql`delete from royalty_import_lines where import_id = ${importId}`);
    return true;
  });
}

/** Deletes an unposted import and its staged lines; a posted one stays (its earnings are immutable). */
export async function deleteImport(db: Db, importId: string): Promise<void> {
  if (await removeImport(db, importId)) return;
  const [row] = await db
    .select({ id: royaltyImports.id, phase: royaltyImports.phase })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  if (row.phase === 'posting') throw conflict(ROYALTY_TEXTS.alreadyPosting);
  throw conflict(ROYALTY_TEXTS.postedNotDeletable);
}
