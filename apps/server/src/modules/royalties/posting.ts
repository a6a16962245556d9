/**
 * Posting a staged report (decision 112): one transaction. The report row moves staged → posted in the
 * first statement (a second admin waits on its row lock, then finds it posted: exactly one wins). One
 * INSERT … SELECT writes every matched line as an immutable earnings line (amount in the report currency
 * and in USD at the report's fixed rate) and, from its RETURNING, one posting row per artist: the exact
 * USD sum and the cents credited (truncated toward zero; the sub-cent residue is recorded on the report).
 * Each artist is credited through the one balance path (one balance_updates_log row 'royalty_import' per
 * artist per report) and mailed through the outbox. Nothing loops over lines.
 */
import { formatCents } from '@tunedrop/shared';
import { type PostAccepted, type PostResult, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { mailOutbox, profiles, royaltyImports } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { enqueue, type JobQueue } from '../../lib/jobs';
import { rows, run } from '../../lib/sql';
import { applySplits, lockSplitsForPosting, returnWithdrawnHolds } from '../splits/posting';
import { applyBalanceChanges } from '../wallet/balance';
import { lineAmountsSql, needsAllocation } from './amounts';
import { isPostgres } from './copy-in';
import { constraintOf, sqlState } from './database-error';
import { applyFees, bookFees } from './fees';
import { refreshTotals } from './import-totals';
import { progressOf } from './import-views';
import { markOverlap } from './overlap';
import { auditReport, reportFigures } from './report-audit';
import { refuseOpenWarnings } from './report-warnings';
import { bookSuspense } from './suspense-booking';

export type PostOptions = {
  admin: { id: string; email: string } | null;
  /** Test hook: runs inside the transaction after every write, before commit. */
  beforeCommit?: (tx: Tx) => Promise<void>;
};

function periodLabel(start: string | null, end: string | null): string {
  const from = start?.slice(0, 7) ?? '';
  const to = end?.slice(0, 7) ?? from;
  return from === to ? from : `${from} to ${to}`;
}

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

export const postQueue: JobQueue<PostPayload> = {
  name: 'royalties.post',
  payload: z.object({
    importId: z.uuid(),
    admin: z.object({ id: z.string(), email: z.string() }).nullable(),
  }),
};
export type PostPayload = { importId: string; admin: { id: string; email: string } | null };

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
  if (row.status === 'staging') throw new AppError('not_ready', ROYALTY_TEXTS.notReadyToPost, 409);
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
    await enqueue(tx, postQueue, { importId, admin }, { singletonKey: importId });
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
    await run(tx, sql`delete from royalty_earnings where import_id = ${importId}`);
    await run(tx, sql`delete from royalty_posted_lines where import_id = ${importId}`);
    await run(tx, sql`delete from royalty_posting_groups where import_id = ${importId}`);
    await tx
      .update(royaltyImports)
      .set({ phase: 'ready', linesPosted: 0, postError: reason, progressAt: sql`now()` })
      .where(sql`${royaltyImports.id} = ${importId} and ${royaltyImports.status} = 'staged'`);
  });
}

/** The settling transaction; suspense assignments (suspense.ts) run it inside their own (a savepoint). */
export async function postInTransaction(db: Db, importId: string, options: PostOptions): Promise<PostResult> {
  return db.transaction(async (tx) => {
    await run(tx, sql`set local work_mem = '256MB'`);
    // Effective dating (decision 140): splits saved before the lock apply, later ones wait for this commit.
    await lockSplitsForPosting(tx);
    const [claimed] = await tx
      .update(royaltyImports)
      .set({
        status: 'posted',
        phase: 'posted',
        postedAt: sql`clock_timestamp()`,
        postedBy: options.admin?.id ?? null,
        progressAt: sql`now()`,
      })
      .where(
        sql`${royaltyImports.id} = ${importId} and ${royaltyImports.status} = 'staged' and ${royaltyImports.phase} = 'posting'`,
      )
      .returning();
    if (!claimed) {
      const [row] = await tx
        .select({ status: royaltyImports.status })
        .from(royaltyImports)
        .where(eq(royaltyImports.id, importId));
      if (!row) throw notFound('Import not found');
      if (row.status === 'posted') throw new AppError('already_posted', ROYALTY_TEXTS.alreadyPosted, 409);
      throw new AppError('not_postable', ROYALTY_TEXTS.notPostable, 409);
    }
    // The earnings lines were written in chunks (runPosting); their sums per (artist, release, track,
    // period) feed the splits and the postings (a few thousand rows for a million lines).
    await run(
      tx,
      sql`
      create temp table posting_groups (
        user_id text not null, release_id uuid, track_id uuid, period text not null,
        amount numeric not null, lines bigint not null
      ) on commit drop`,
    );
    await run(
      tx,
      sql`
      insert into posting_groups (user_id, release_id, track_id, period, amount, lines)
      select user_id, release_id, track_id, period, amount, lines
        from royalty_posting_groups where import_id = ${importId}`,
    );
    // A temp table has no statistics until analysed: the splits' and postings' joins over it were planned
    // for a handful of rows (record 204).
    await run(tx, sql`analyze posting_groups`);
    await run(tx, sql`delete from royalty_posting_groups where import_id = ${importId}`);
    // The operator's fee first, on each artist's gross; recoupment and splits apply to the net (record 189).
    await applyFees(tx);
    await applySplits(tx, importId);
    // Per user: the truncated cents of their own lines, minus the cents moved to payees (paid or held),
    // plus the cents received as an accepted payee (decision 140).
    const postings = await rows<{
      userId: string;
      cents: string | number;
      amountUsd: string;
      lines: number;
      splitInCents: string | number;
      feeCents: string | number;
    }>(
      tx,
      sql`
        with own as (
          select user_id, sum(amount) as amount, sum(lines) as lines from posting_groups group by user_id
        ),
        out_ as (
          select owner_id as user_id, sum(cents) as cents from split_settlements
           where import_id = ${importId} group by owner_id
        ),
        in_ as (
          select payee_user_id as user_id, sum(cents) as cents from split_settlements
           where import_id = ${importId} and not held group by payee_user_id
        ),
        users as (select user_id from own union select user_id from out_ union select user_id from in_)
        insert into royalty_postings
          (import_id, user_id, amount_usd, cents, lines, split_out_cents, split_in_cents, fee_percent, fee_cents)
        select ${importId}::uuid, u.user_id, trim_scale(coalesce(fee.gross, 0)),
               coalesce(trunc(own.amount, 2) * 100, 0) - coalesce(out_.cents, 0) + coalesce(in_.cents, 0),
               coalesce(own.lines, 0), coalesce(out_.cents, 0), coalesce(in_.cents, 0),
               trim_scale(fee.percent), coalesce(trunc(fee.gross, 2) * 100 - trunc(own.amount, 2) * 100, 0)
          from users u
          left join own on own.user_id = u.user_id
          left join out_ on out_.user_id = u.user_id
          left join in_ on in_.user_id = u.user_id
          left join posting_fees fee on fee.user_id = u.user_id
        returning user_id, cents::bigint as cents, amount_usd::text as amount_usd, lines, split_in_cents,
                  fee_cents::bigint as fee_cents`,
    );
    const period = periodLabel(claimed.periodStart, claimed.periodEnd);
    const credited = postings.filter((posting) => Number(posting.cents) !== 0);
    const results = await applyBalanceChanges(
      tx,
      credited.map((posting) => ({
        userId: posting.userId,
        balanceDeltaCents: Number(posting.cents),
        addsPositiveDifferenceToEarnings: true,
        updateType: 'royalty_import' as const,
        royaltyImportId: importId,
        admin: options.admin,
        notes: `Royalties for ${period} from ${claimed.fileName}`,
      })),
    ).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'insufficient_balance') {
        throw new AppError(
          'insufficient_balance',
          'The refunds in this report would take an artist below zero; nothing was posted.',
          409,
        );
      }
      throw error;
    });
    const missing = results.find((result) => result.status !== 'applied');
    if (missing) throw conflict(`The artist ${missing.userId} no longer exists; nothing was posted.`);

    // Held shares of invitations withdrawn before this posting go back to their owners, one ledger line each.
    const returned = await returnWithdrawnHolds(tx, importId);
    await applyBalanceChanges(
      tx,
      returned
        .filter((row) => row.cents !== 0)
        .map((row) => ({
          userId: row.ownerId,
          balanceDeltaCents: row.cents,
          addsPositiveDifferenceToEarnings: true,
          updateType: 'split_return' as const,
          royaltyImportId: importId,
          admin: options.admin,
          notes: `Held split shares returned: invitation to ${row.emails.join(', ')} withdrawn`,
        })),
    );
    const returnedCents = returned.reduce((sum, row) => sum + row.cents, 0);

    const postedCents = postings.reduce((sum, posting) => sum + Number(posting.cents), 0);
    const feeCents = postings.reduce((sum, posting) => sum + Number(posting.feeCents), 0);
    if (feeCents !== 0)
      await bookFees(tx, importId, claimed.periodStart?.slice(0, 7) ?? null, options.admin?.id ?? null);
    const [totals] = await rows<{ residue: string | null; held: string }>(
      tx,
      sql`
        select trim_scale(coalesce(sum(amount_usd), 0) - (${postedCents}::numeric + h.held + ${feeCents}) / 100)::text as residue,
               h.held::text as held
          from royalty_postings,
               (select coalesce(sum(cents), 0) as held from split_settlements
                 where import_id = ${importId} and held) h
         where import_id = ${importId}
         group by h.held`,
    );
    const residue = totals?.residue ?? '0';
    const heldCents = Number(totals?.held ?? 0);
    await tx
      .update(royaltyImports)
      .set({ postedCents, residue, postedArtists: postings.length })
      .where(eq(royaltyImports.id, importId));

    const paid = credited.filter((posting) => Number(posting.cents) > 0);
    if (paid.length > 0) {
      const emails = await tx
        .select({ id: profiles.id, email: profiles.email, artistName: profiles.artistName })
        .from(profiles)
        .where(
          sql`${profiles.id} in (select jsonb_array_elements_text(${JSON.stringify(paid.map((p) => p.userId))}::jsonb))`,
        );
      const byId = new Map(emails.map((row) => [row.id, row]));
      await tx.insert(mailOutbox).values(
        paid.flatMap((posting) => {
          const profile = byId.get(posting.userId);
          if (!profile) return [];
          const amount = formatCents(Number(posting.cents));
          return [
            {
              recipient: profile.email,
              subject: ROYALTY_TEXTS.earningsMailSubject(amount, period),
              textBody:
                Number(posting.splitInCents) !== 0
                  ? `Hi ${profile.artistName},\n\nYou earned ${amount} for ${period}, including ${formatCents(Number(posting.splitInCents))} of royalty split shares. It has been added to your available balance.\n\nSee each share (release, report and percentage) on the Royalties page.\n`
                  : `Hi ${profile.artistName},\n\nYour music earned ${amount} for ${period}. It has been added to your available balance.\n\nSee each store, country and track on the Royalties page.\n`,
            },
          ];
        }),
      );
    }
    // The unmatched lines' identities too: a later file repeating them is not booked again (decision 186).
    await run(
      tx,
      sql`
        insert into royalty_posted_lines (line_identity, import_id, line_no)
        select line_identity, import_id, line_no from royalty_import_lines
         where import_id = ${importId} and user_id is null and posted_in is null
         order by line_identity`,
    );
    // Unmatched money stays on the books, line by line, in the suspense account (decision 188).
    await bookSuspense(tx, claimed);
    if (options.beforeCommit) await options.beforeCommit(tx);
    const earningsLines = postings.reduce((sum, posting) => sum + Number(posting.lines), 0);
    return {
      importId,
      postedCents,
      residue,
      artists: postings.length,
      earningsLines,
      heldCents,
      returnedCents,
      feeCents,
    };
  });
}
