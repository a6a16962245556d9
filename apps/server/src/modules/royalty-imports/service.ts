/**
 * Royalty import: a file in storage → a staged report. The file is hashed and its lines counted as it
 * arrives (record 251; with S3 as it streams into the bucket, record 310) and read once after that, by the
 * parse (with S3, of the download as it streams), which matches
 * each line in memory against the catalogue's codes (ISRC → track, then UPC/EAN → release, then the
 * remembered code mappings), stages lines in batched multi-row inserts (one JSON parameter per batch,
 * the next batch parsed while the previous one is written), then checks totals and sums it set-based.
 * A fatal problem leaves a 'failed' report that cannot be posted. Decision records 110-113.
 */

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  type ImportAccepted,
  type ImportSummary,
  ROYALTY_TEXTS,
  type RoyaltyFormat,
} from '@tunedrop/shared/schemas/royalties';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { royaltyImports } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { AppError, conflict, notFound } from '../../lib/errors';
import { runJobInline } from '../../lib/job-inline';
import { jobsOfKeys } from '../../lib/job-tables';
import { enqueue } from '../../lib/jobs';
import { run } from '../../lib/sql';
import type { AuditActor } from '../audit';
import { detectReport } from './detect';
import { EMPTY_PROGRESS, getImportSummary, type ImportRow, progressOf } from './import-views';
import { importJob } from './jobs';
import { measureFile, type ReportMeasures } from './measure';
import { receiveReport, type StoredReport, storageKeyOf } from './receive';
import { auditReport, reportFigures, reportLabel } from './report-audit';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './source';
import {
  asAppError,
  HOLDS_ITS_FILE,
  type ImportHooks,
  loadPreset,
  type ProgressListener,
  refuseKnownMessage,
  type StoredOptions,
  stageImport,
  UNFINISHED_PHASES,
} from './stage-import';

export {
  type ImportHooks,
  type ImportStep,
  type ProgressListener,
  UNFINISHED_PHASES,
} from './stage-import';

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
  /** The file's hash and line count, taken as it was received (record 251); measured here otherwise. */
  measures?: ReportMeasures | undefined;
};

/**
 * Refuses a file already staged or posted (409), an unknown preset (422) and a file whose format is not
 * known from its first line (422); returns its hash, format and line count. The queue's checks read
 * nothing of the file (record 278): the detect step reads the head kept as it arrived. A file not
 * measured as it arrived is measured here, in one read.
 */
async function checkNewImport(db: Db, storage: Storage, input: QueueInput) {
  const measures =
    'stored' in input
      ? input.measures
      : (input.measures ?? (await measureFile(input.filePath, input.limits ?? DEFAULT_READ_LIMITS)));
  const sha = measures.sha256;
  const [same] = await db
    .select({ id: royaltyImports.id })
    .from(royaltyImports)
    .where(and(eq(royaltyImports.fileSha256, sha), inArray(royaltyImports.status, HOLDS_ITS_FILE)));
  if (same) {
    throw new AppError('already_imported', ROYALTY_TEXTS.alreadyImported, 409, { importId: same.id });
  }
  const preset = await loadPreset(db, input.presetId);
  let format: ImportRow['format'];
  try {
    // Stored in the bucket: its head is read again only when the one kept is too short (record 310).
    const file =
      'stored' in input
        ? { open: async () => (await storage.get(input.stored.fileKey)).body }
        : { filePath: input.filePath };
    const detected = await detectReport(
      { ...file, head: measures.head },
      { format: input.format, preset, limits: input.limits },
    );
    format = detected.format;
    // A DSR's HEAD names its message: refused now when it was already imported.
    if (detected.message) await refuseKnownMessage(db)(detected.message);
  } catch (error) {
    throw asAppError(error);
  }
  return { sha, format, linesTotal: measures.linesTotal };
}

/**
 * What the queue takes: a file on this machine it moves into storage, or a report already stored under
 * its import's key as it streamed in (S3, record 310), with what was measured on the way.
 */
export type QueueInput = Omit<ImportInput, 'filePath'> &
  ({ filePath: string } | { stored: StoredReport; measures: ReportMeasures });

/**
 * The upload (decision 161): checks what can be checked at once (same file, preset, format), moves the
 * file into storage and creates the import with its job in one transaction. The caller answers 202. A
 * report refused here or not queued leaves nothing stored: an object already in the bucket is removed.
 */
export async function queueImport(
  deps: { db: Db; storage: Storage },
  input: QueueInput,
  /** Journeys: `false` makes an import whose job was lost (retries used up), for the admin's retry. */
  job: { queueJob?: boolean } = {},
): Promise<ImportAccepted> {
  let checked: Awaited<ReturnType<typeof checkNewImport>>;
  try {
    checked = await checkNewImport(deps.db, deps.storage, input);
  } catch (error) {
    if ('stored' in input) await deps.storage.delete(input.stored.fileKey).catch(() => undefined);
    throw error;
  }
  const { sha, format, linesTotal } = checked;
  const id = 'stored' in input ? input.stored.importId : randomUUID();
  const fileKey = storageKeyOf(id);
  if ('filePath' in input) await deps.storage.putFile(fileKey, input.filePath);
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
        linesTotal,
        fileKey,
        options,
        createdBy: input.adminId ?? null,
      });
      if (job.queueJob !== false) await enqueue(tx, importJob, { importId: id }, { singletonKey: id });
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
  hooks?: ImportHooks,
): Promise<void> {
  // An import an older release marked staged before its checks were done resumes too (record 220).
  await deps.db
    .update(royaltyImports)
    .set({ status: 'staging' })
    .where(
      and(
        eq(royaltyImports.id, importId),
        eq(royaltyImports.status, 'staged'),
        inArray(royaltyImports.phase, [...UNFINISHED_PHASES]),
      ),
    );
  const [row] = await deps.db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
  if (!row) return;
  if (row.status !== 'staging') {
    // Finished by a run killed before it removed the file: only that is left to do.
    if (row.fileKey) await removeStoredFile(deps, importId, row.fileKey);
    return;
  }
  if (!row.fileKey || !row.options) {
    await failImport(deps.db, importId, 'The uploaded file is no longer stored; upload it again.');
    return;
  }
  // The stored file is parsed where it is (local storage) or as it downloads (S3, record 310): the parse is
  // the one read of it (record 251).
  const stored = (await deps.storage.localPath?.(row.fileKey)) ?? null;
  const download = stored ? null : (await deps.storage.get(row.fileKey)).body;
  try {
    const outcome = await stageImport(
      deps.db,
      { ...row, options: row.options },
      stored ?? (download as Readable),
      limits,
      onProgress,
      hooks,
    );
    if (outcome.fatal) await failImport(deps.db, importId, outcome.fatal.message);
    await hooks?.atStep?.('finished');
    await removeStoredFile(deps, importId, row.fileKey);
  } finally {
    download?.destroy();
  }
}

async function removeStoredFile(deps: { db: Db; storage: Storage }, importId: string, fileKey: string) {
  await deps.storage.delete(fileKey).catch(() => undefined);
  await deps.db.update(royaltyImports).set({ fileKey: null }).where(eq(royaltyImports.id, importId));
}

/**
 * Imports a file on this machine through the import job, the one way in (record 276): the CLI waiting,
 * tests and benches. The file is copied (hashed and counted on the way, record 251; the caller keeps its
 * file) and queued as an upload is; this process then runs the job inline (or, when a worker took it
 * first, waits for it) and answers the import as the admin page reads it. Throws 409 when the same file
 * or DSR message was imported before, 422 for an unreadable file; a report the job failed is answered
 * with status 'failed' and its errors, kept as an upload's is.
 */
export async function importRoyaltyFile(
  deps: { db: Db; storage: Storage },
  input: ImportInput,
): Promise<ImportSummary> {
  const accepted = await queueLocalFile(deps, input);
  await runQueuedImport(deps, accepted.id, input.limits, input.onProgress);
  return getImportSummary(deps.db, accepted.id);
}

/**
 * Queues a file on this machine as an upload: measured as it is copied into storage (a scratch file local
 * storage takes by a rename, or straight into the bucket, record 310), the job in the queue.
 */
export async function queueLocalFile(
  deps: { db: Db; storage: Storage },
  input: ImportInput,
): Promise<ImportAccepted> {
  const { filePath, ...rest } = input;
  const limits = input.limits ?? DEFAULT_READ_LIMITS;
  const received = await receiveReport(deps.storage, createReadStream(filePath), limits);
  const { measures } = received;
  try {
    const file = 'stored' in received ? { stored: received.stored } : { filePath: received.filePath };
    return await queueImport(deps, { ...rest, ...file, limits, measures });
  } finally {
    if ('filePath' in received) await rm(received.filePath, { force: true });
  }
}

/** How often a caller waiting for a worker's run reads the import's progress. */
const WAIT_POLL_MS = 500;

/**
 * Runs a queued import's job in this process, or waits for the worker that took it, until the import is
 * staged or failed. Throws 409 when its job is gone (retries used up) before it finished.
 */
export async function runQueuedImport(
  deps: { db: Db; storage: Storage },
  importId: string,
  limits?: ReadLimits,
  onProgress?: ProgressListener,
): Promise<void> {
  const ran = await runJobInline(deps.db, importJob, importId, (payload) =>
    runImport(deps, payload.importId, limits, onProgress),
  );
  if (ran) return;
  for (;;) {
    const [row] = await deps.db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
    if (!row) throw notFound('Import not found');
    if (row.status !== 'staging') return;
    onProgress?.(progressOf(row));
    const jobs = await jobsOfKeys(deps.db, [{ queue: importJob.name, key: importId }]);
    if (jobs.length === 0) {
      const [after] = await deps.db
        .select({ status: royaltyImports.status })
        .from(royaltyImports)
        .where(eq(royaltyImports.id, importId));
      if (after?.status !== 'staging') return;
      throw conflict('The import stopped before it was read; retry it on the royalty imports page.');
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

/** What an import entry of the audit log says about the upload (record 191). */
function importAuditFields(input: QueueInput, format: string) {
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
