/**
 * Posting a staged report (decision 112, records 162, 204, 220): the admin's request claims the import and
 * queues the posting job; the job writes every matched line as an immutable earnings line in chunks after
 * the last one written (a killed run resumes there), then settles in one short transaction
 * (posting-settle.ts). Nothing loops over lines.
 */
import { type PostAccepted, type PostResult, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { allowLongStatements } from '../../db/long-statements';
import { royaltyImports } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { enqueue } from '../../lib/jobs';
import { rows, run } from '../../lib/sql';
import {
  auditReport,
  constraintOf,
  isPostgres,
  lineAmountsSql,
  markOverlap,
  needsAllocation,
  progressOf,
  refreshTotals,
  refuseOpenWarnings,
  reportFigures,
  sqlState,
} from '../royalty-imports';
import { type PostPayload, postJob } from './jobs';
import { type PostOptions, postInTransaction } from './posting-settle';

export type { PostOptions };

/**
 * Lines of the first posting chunk; later chunks are sized to take about CHUNK_TARGET_MS each (PGlite
 * serves nothing else while one runs; on PostgreSQL chunks grow, fewer statements).
 */
export const POST_CHUNK_LINES = 1_000;
const CHUNK_TARGET_MS = 80;
/**
 * On PostgreSQL a chunk blocks no other request (they have their own connections; the chunk holds only
 * the import's row), so chunks are fixed and large (record 204): a million lines in four statements,
 * each committing, instead of hundreds sized by a busy machine's wall time, each paying its commit.
 */
export const POST_CHUNK_LINES_POSTGRES = 250_000;

export type { PostPayload };

/** Moves a ready import to 'posting' (exactly one request wins); throws 404/409 otherwise. */
async function claimPosting(tx: DbOrTx, importId: string, admin: PostPayload['admin']): Promise<void> {
  // Sanity warnings (record 187): none may be left open, whoever posts (route, CLI, job).
  await refuseOpenWarnings(tx, importId);
  const [claimed] = await tx
    .update(royaltyImports)
    .set({ phase: 'posting', postError: null, linesPosted: 0, progressAt: sql`now()` })
    .where(
      sql`${royaltyImports.id} = ${importId} and ${royaltyImports.status} = 'staged' and ${royaltyImports.phase} = 'ready'`,
    )
    .returning({ id: royaltyImports.id });
  if (claimed) {
    // The admin's decision to post is audited with the report's figures (record 191); null is the CLI.
    const figures = await reportFigures(tx, importId);
    await auditReport(tx, admin, {
      kind: 'royalties.post',
      importId,
      before: { status: 'staged' },
      after: { ...figures, status: 'posting' },
    });
    return;
  }
  const [row] = await tx
    .select({ status: royaltyImports.status, phase: royaltyImports.phase })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  if (row.status === 'posted') throw new AppError('already_posted', ROYALTY_TEXTS.alreadyPosted, 409);
  if (row.phase === 'posting') throw new AppError('already_posting', ROYALTY_TEXTS.alreadyPosting, 409);
  // Still being read or checked (or marked staged too early by an older release, record 220): not errors.
  if (row.status === 'staging' || ['queued', 'reading', 'staging'].includes(row.phase)) {
    throw new AppError('not_ready', ROYALTY_TEXTS.notReadyToPost, 409);
  }
  throw new AppError('not_postable', ROYALTY_TEXTS.notPostable, 409);
}

/** The posting request (decision 162): claims the import and queues its job in one transaction. */
export async function requestPosting(
  db: Db,
  importId: string,
  admin: PostPayload['admin'],
): Promise<PostAccepted> {
  await db.transaction(async (tx) => {
    await claimPosting(tx, importId, admin);
    await enqueue(tx, postJob, { importId, admin }, { singletonKey: importId });
  });
  return { importId, progress: await progressById(db, importId) };
}

async function progressById(db: Db, importId: string) {
  const [row] = await db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  return progressOf(row);
}

/** Posts in this process (the CLI, tests): claims, then runs the same chunks as the job. */
export async function postImport(db: Db, importId: string, options: RunPostingOptions): Promise<PostResult> {
  await claimPosting(db, importId, options.admin);
  const result = await runPosting(db, importId, options);
  if (!result) throw new AppError('already_posted', ROYALTY_TEXTS.alreadyPosted, 409);
  return result;
}

export type RunPostingOptions = PostOptions & {
  chunkLines?: number;
  /**
   * Chunks sized by wall time from POST_CHUNK_LINES, as on PGlite, on PostgreSQL too: how PostgreSQL
   * posted before record 204 (bench/royalty-posting.ts prints it beside the fixed chunks).
   */
  sizedByTime?: boolean;
  /** Called after each chunk with the lines that chunk posted. */
  onProgress?: (linesPosted: number) => void;
};

/**
 * The posting job (decision 162). Writes the earnings lines in chunks after the last one written (a
 * killed run resumes there; the primary key refuses a line twice), each chunk one transaction that
 * also adds to the per-artist sums, yielding between chunks; then posts in one short transaction.
 * Returns null when the import is not (or no longer) being posted.
 */
export async function runPosting(
  db: Db,
  importId: string,
  options: RunPostingOptions,
): Promise<PostResult | null> {
  const [row] = await db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
  if (row?.status !== 'staged' || row.phase !== 'posting') return null;
  const rate = row.exchangeRate ?? '1';
  const fallbackPeriod = row.periodStart?.slice(0, 7) ?? row.createdAt.toISOString().slice(0, 7);
  const allocate = await needsAllocation(db, importId);
  const fixedLarge = isPostgres(db) && !options.sizedByTime;
  let chunk = options.chunkLines ?? (fixedLarge ? POST_CHUNK_LINES_POSTGRES : POST_CHUNK_LINES);
  try {
    for (;;) {
      const started = performance.now();
      const written = await db.transaction(async (tx) => {
        // A chunk is up to 250,000 lines in one statement (record 223).
        await allowLongStatements(tx);
        // The chunk's sorts (identities in key order, sums per group) stay in memory; no JIT compile of a
        // statement that runs once.
        await run(tx, sql`select set_config('work_mem', '256MB', true), set_config('jit', 'off', true)`);
        const [state] = await rows<{ phase: string; last: number | string | null }>(
          tx,
          sql`
            select i.phase, (select max(line_no) from royalty_earnings where import_id = i.id) as last
              from royalty_imports i where i.id = ${importId} for update`,
        );
        if (state?.phase !== 'posting') return 0;
        const [inserted] = await rows<{ lines: number | string }>(
          tx,
          sql`
            with inserted as (
              insert into royalty_earnings
                (import_id, line_no, line_key, user_id, track_id, release_id, store, country, period,
                 usage_type, units, amount, amount_usd, line_identity)
              select l.import_id, l.line_no, l.line_key, l.user_id, l.track_id, l.release_id, l.store, l.country,
                     coalesce(l.period, ${fallbackPeriod}), l.usage_type, l.units, l.line_amount,
                     l.line_amount * ${rate}::numeric, l.line_identity
                from (${lineAmountsSql(importId, allocate)}) l
               where l.user_id is not null and l.posted_in is null and l.line_no > ${Number(state.last ?? 0)}
               order by l.line_no
               limit ${chunk}
              returning user_id, release_id, track_id, period, amount_usd, line_identity, line_no
            ),
            -- Its primary key refuses a sale another report posted (decision 186); in key order, the
            -- B-tree is written page after page instead of at random.
            identities as (
              insert into royalty_posted_lines (line_identity, import_id, line_no)
              select line_identity, ${importId}::uuid, line_no from inserted order by line_identity
            ),
            grouped as (
              insert into royalty_posting_groups as g (import_id, user_id, release_id, track_id, period, amount, lines)
              select ${importId}::uuid, user_id, release_id, track_id, period, sum(amount_usd), count(*)
                from inserted
               group by user_id, release_id, track_id, period
              on conflict (import_id, user_id, release_id, track_id, period)
                do update set amount = g.amount + excluded.amount, lines = g.lines + excluded.lines
            )
            select count(*) as lines from inserted`,
        );
        const lines = Number(inserted?.lines ?? 0);
        if (lines > 0) {
          await tx
            .update(royaltyImports)
            .set({ linesPosted: sql`${royaltyImports.linesPosted} + ${lines}`, progressAt: sql`now()` })
            .where(eq(royaltyImports.id, importId));
        }
        return lines;
      });
      if (written === 0) break;
      options.onProgress?.(written);
      if (options.chunkLines === undefined && !fixedLarge) {
        const elapsed = Math.max(1, performance.now() - started);
        // At most 1.5 times larger each time: one quick chunk (a pause in other load) must not make the
        // next one many times longer than the target.
        const next = Math.min(chunk * 1.5, (chunk * CHUNK_TARGET_MS) / elapsed);
        chunk = Math.round(Math.min(50_000, Math.max(200, next)));
      }
      // Let the requests that queued behind this chunk run before the next one (PGlite is one connection).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const result = await postInTransaction(db, importId, options);
    return result;
  } catch (error) {
    if (isPostedTwice(error)) {
      // Another report posted some of these lines since the import: mark them, leave them out (decision 186).
      await abandonPosting(db, importId, '');
      const overlap = await markOverlap(db, importId);
      await refreshTotals(db, importId);
      const refusal = new AppError(
        'posted_twice',
        ROYALTY_TEXTS.overlapPostedTwice(overlap?.lines ?? 0),
        409,
      );
      await db
        .update(royaltyImports)
        .set({ postError: refusal.message })
        .where(eq(royaltyImports.id, importId));
      throw refusal;
    }
    const refusal =
      sqlState(error) === '22003'
        ? new AppError('amounts_too_large', ROYALTY_TEXTS.tooLargeToPost, 409)
        : error instanceof AppError
          ? error
          : null;
    if (!refusal) throw error;
    await abandonPosting(db, importId, refusal.message);
    throw refusal;
  }
}

/** The database refused a line whose identity another report posted (royalty_posted_lines' key). */
const isPostedTwice = (error: unknown) =>
  sqlState(error) === '23505' && constraintOf(error) === 'royalty_posted_lines_pkey';

/** A posting that cannot complete: its lines written so far go, the import is ready to post again. */
async function abandonPosting(db: Db, importId: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    await allowLongStatements(tx);
    await run(tx, sql`delete from royalty_earnings where import_id = ${importId}`);
    await run(tx, sql`delete from royalty_posted_lines where import_id = ${importId}`);
    await run(tx, sql`delete from royalty_posting_groups where import_id = ${importId}`);
    await tx
      .update(royaltyImports)
      .set({ phase: 'ready', linesPosted: 0, postError: reason, progressAt: sql`now()` })
      .where(sql`${royaltyImports.id} = ${importId} and ${royaltyImports.status} = 'staged'`);
  });
}
