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
import {
  type ImportAccepted,
  type ImportProgress,
  type ImportSummary,
  ROYALTY_TEXTS,
  type RoyaltyFormat,
} from '@tunedrop/shared/schemas/royalties';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { royaltyCsvPresets, royaltyImports } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { AppError, conflict, notFound, validationError } from '../../lib/errors';
import { enqueue, type JobQueue } from '../../lib/jobs';
import { rows, run } from '../../lib/sql';
import type { AuditActor } from '../audit';
import { constraintOf, sqlState } from './database-error';
import { finishImport } from './import-checks';
import { EMPTY_PROGRESS, getImportSummary, type ImportRow } from './import-views';
import { FormatError, parseFile } from './parse';
import type { ParseReport } from './parse-common';
import { auditReport, reportFigures, reportLabel } from './report-audit';
import { DEFAULT_READ_LIMITS, type ReadLimits, SourceError } from './source';
import { countLines, stageFile } from './staging';
import { writeYoutubeClaims, YoutubeClaimCollector } from './youtube-claims';

export type ImportInput = {
  filePath: string;
  fileName: string;
  format: RoyaltyFormat;
  rate?: string | undefined;
  currency?: string | undefined;
  presetId?: string | undefined;
  adminId?: string | null | undefined;
  /** Who imports, for the audit log (record 191); none means the command line. */
  actor?: AuditActor | undefined;
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

export async function sha256File(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(filePath, { highWaterMark: 1024 * 1024 })) hash.update(chunk);
  return hash.digest('hex');
}

/** The upload's options as kept on the import row for its job (migration 0018). */
type StoredOptions = NonNullable<(typeof royaltyImports.$inferSelect)['options']>;

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
      await auditReport(tx, input.actor ?? null, {
        kind: 'royalties.import',
        importId: id,
        label: input.fileName,
        after: importAuditFields(input, format),
      });
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
  const staged = await reportFigures(db, row.id);
  await auditReport(db, input.actor ?? null, {
    kind: 'royalties.import',
    importId: row.id,
    after: { ...importAuditFields(input, format), ...staged },
  });
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
    const [staged] = await rows<{ last: number | string | null }>(
      db,
      sql`select max(line_no) as last from royalty_import_lines where import_id = ${importId}`,
    );
    // Parsed in a worker thread (record 207); a YouTube report's claims are summed there as its lines
    // stream, written once it is staged (decision 193).
    const parsed = await stageFile(
      db,
      importId,
      {
        filePath,
        parse: { format: options.format, preset, limits: readLimits },
      },
      {
        after: Number(staged?.last ?? 0),
        onBatch: (linesRead, amount) => report({ linesRead, amountRead: amount }),
        onHead,
        linesTotal,
        workerMinLines: readLimits.stageWorkerMinLines,
      },
    );
    const tally = parsed.tally;
    const claims = parsed.claims ? YoutubeClaimCollector.restore(parsed.claims) : null;
    await report({ phase: 'staging' });
    await finishImport(db, importId, parsed.report, input, preset?.currency ?? null, tally, {
      identitiesMayRepeat: parsed.identitiesMayRepeat,
    });
    const [done] = await db
      .select({ status: royaltyImports.status })
      .from(royaltyImports)
      .where(eq(royaltyImports.id, importId));
    const phase = done?.status === 'staged' ? 'ready' : 'failed';
    if (claims && phase === 'ready') await writeYoutubeClaims(db, importId, claims);
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

/** What an import entry of the audit log says about the upload (record 191). */
function importAuditFields(input: ImportInput, format: string) {
  return {
    fileName: input.fileName,
    format,
    currency: input.currency ?? null,
    rate: input.rate ?? null,
    preset: input.presetId ?? null,
  };
}

/**
 * The report row and its staged lines and summaries, in one transaction (the lines have no foreign key);
 * with an actor, the deletion is audited in it (record 191).
 */
async function removeImport(db: Db, importId: string, actor?: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const figures = actor ? await reportFigures(tx, importId) : null;
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
    if (actor && figures) {
      await auditReport(tx, actor, {
        kind: 'royalties.delete',
        importId,
        label: reportLabel(figures),
        before: figures,
      });
    }
    return true;
  });
}

/** Deletes an unposted import and its staged lines; a posted one stays (its earnings are immutable). */
export async function deleteImport(db: Db, importId: string, actor?: AuditActor): Promise<void> {
  if (await removeImport(db, importId, actor)) return;
  const [row] = await db
    .select({ id: royaltyImports.id, phase: royaltyImports.phase })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  if (row.phase === 'posting') throw conflict(ROYALTY_TEXTS.alreadyPosting);
  throw conflict(ROYALTY_TEXTS.postedNotDeletable);
}
