/**
 * Staging one import's file (decision 161, record 220): the file parsed and its lines staged after those a
 * killed run committed, then checked and summed in one transaction that writes the status with the phase.
 * The import job (runImport) comes here, whether a worker or the process that queued it runs it (record 276).
 */
import { type ImportProgress, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { allowLongStatements } from '../../db/long-statements';
import { royaltyCsvPresets, royaltyImports } from '../../db/schema';
import { AppError, validationError } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { emitStaffWebhookEvent } from '../webhook-outbox';
import { constraintOf, sqlState } from './database-error';
import { type DsrMessage, FormatError } from './detect';
import { finishImport } from './import-checks';
import type { TotalsJson } from './import-totals';
import { EMPTY_PROGRESS, type ImportRow } from './import-views';
import { countLines } from './measure';
import { DEFAULT_READ_LIMITS, type ReadLimits, type ReportSource, SourceError } from './source';
import { stageFile } from './staging';
import { writeYoutubeClaims, YoutubeClaimCollector } from './youtube-claims';

/**
 * Imports that hold their file and DSR message: a failed import does not (it can be imported again once
 * fixed), nor does one still staging (a crashed import must not block its file); the partial unique
 * indexes of migration 0011 say the same (decision 152).
 */
export const HOLDS_ITS_FILE: ('staged' | 'posted')[] = ['staged', 'posted'];

/** The upload's options as kept on the import row for its job (migration 0018). */
export type StoredOptions = NonNullable<(typeof royaltyImports.$inferSelect)['options']>;

export async function loadPreset(db: Db, presetId: string | undefined) {
  if (!presetId) return null;
  const [row] = await db.select().from(royaltyCsvPresets).where(eq(royaltyCsvPresets.id, presetId));
  if (!row) throw validationError('Unknown preset', { preset: 'Unknown preset' });
  return { mapping: row.mapping as never, delimiter: row.delimiter, currency: row.currency };
}

export function asAppError(error: unknown): unknown {
  if (error instanceof FormatError) return new AppError('unsupported_format', error.message, 422);
  if (error instanceof SourceError) return new AppError('unreadable_file', error.message, 422);
  return error;
}

/** A DSR message (sender, MessageId, file number) already staged or posted is refused by its HEAD. */
export function refuseKnownMessage(db: Db) {
  return async (head: Pick<DsrMessage, 'messageId' | 'sender'> & { fileNumber: number | null }) => {
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
 * Where an import's run can stop (record 220): the file counted, its lines all read, the checks done
 * (inside their transaction, before it commits), the import finished (before its file is removed).
 */
export type ImportStep = 'counted' | 'read' | 'checked' | 'finished';
/** Test hook: called at each step; throwing there is a run killed at that point. */
export type ImportHooks = { atStep?: (step: ImportStep) => void | Promise<void> };

/** Phases of an import whose run has not finished: a retry resumes it (record 220). */
export const UNFINISHED_PHASES = ['queued', 'reading', 'staging'] as const;

/**
 * Parses a file and stages its lines after those already staged for this import (a run that was killed
 * committed a prefix of them, batch by batch), then checks and sums. Returns a fatal error instead of
 * throwing it, so each caller decides what a failed import leaves behind.
 */
export async function stageImport(
  db: Db,
  row: ImportRow & { options: StoredOptions },
  source: ReportSource,
  limits: ReadLimits | undefined,
  onProgress?: ProgressListener,
  hooks?: ImportHooks,
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
    // Counted as the file arrived (record 251); an import queued by an older release is counted here, or,
    // streamed from S3, not at all before its one read (record 310): its count is then its last line.
    const linesTotal =
      row.linesTotal ?? (typeof source === 'string' ? await countLines(source, readLimits) : null);
    await report({ linesTotal });
    await hooks?.atStep?.('counted');
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
        source,
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
    await hooks?.atStep?.('read');
    const total = linesTotal ?? parsed.linesRead;
    const claims = parsed.claims ? YoutubeClaimCollector.restore(parsed.claims) : null;
    await report({ phase: 'staging', linesTotal: total });
    // The checking phase is one transaction that ends by writing the status with the phase (record
    // 220): a run killed in it leaves the import staging, and its retry checks again from the lines.
    const phase = await db.transaction(async (tx) => {
      // Scans and updates of every line of the report (record 223).
      await allowLongStatements(tx);
      const status = await finishImport(
        tx,
        importId,
        parsed.report,
        input,
        preset?.currency ?? null,
        parsed.tally,
        {
          identitiesMayRepeat: parsed.identitiesMayRepeat,
        },
      );
      if (claims && status === 'staged') await writeYoutubeClaims(tx, importId, claims);
      await hooks?.atStep?.('checked');
      await tx
        .update(royaltyImports)
        .set({
          status,
          phase: status === 'staged' ? 'ready' : 'failed',
          linesRead: total,
          progressAt: sql`now()`,
        })
        .where(and(eq(royaltyImports.id, importId), eq(royaltyImports.status, 'staging')));
      if (status === 'staged') await reportImported(tx, importId);
      return status === 'staged' ? ('ready' as const) : ('failed' as const);
    });
    onProgress?.({ ...progress, phase, linesRead: total });
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

/** report.imported (issue 40) to the admins' endpoints: the report read, its matched and unmatched lines. */
async function reportImported(tx: Parameters<typeof emitStaffWebhookEvent>[0], importId: string) {
  const [row] = await tx
    .select({
      fileName: royaltyImports.fileName,
      format: royaltyImports.format,
      totals: royaltyImports.totals,
    })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  const totals = row?.totals as TotalsJson | null | undefined;
  await emitStaffWebhookEvent(tx, 'report.imported', {
    importId,
    format: row?.format ?? null,
    matched: totals?.matched ?? null,
    unmatched: totals?.unmatched ?? null,
  });
}
