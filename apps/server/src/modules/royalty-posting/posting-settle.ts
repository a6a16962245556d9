/**
 * The settling transaction of a posting (decision 112, records 162, 241): the report row moves to posted,
 * the artists' sums become credits through the one balance path with the fee, held split shares, suspense
 * and the sub-cent residue, all one balanced journal transaction; a mail per artist through the outbox.
 * Suspense assignments (suspense.ts) run it inside their own transaction (a savepoint).
 */

import { formatCents } from '@tunedrop/shared';
import { centsToDecimal } from '@tunedrop/shared/money';
import { type PostResult, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { allowLongStatements } from '../../db/long-statements';
import { mailOutbox, profiles, royaltyImports, webhookEndpoints } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { rows, run } from '../../lib/sql';
import { applyContracts } from '../contracts';
import type { JournalEntryInput } from '../ledger';
import { applySplits, lockSplitsForPosting, returnWithdrawnHolds } from '../splits';
import { applyBalanceChanges } from '../wallet';
import { emitWebhookEvent } from '../webhook-outbox';
import { applyFees, bookFees } from './fees';
import { createPostingGroups } from './posting-groups';
import { recordPosting } from './posting-journal';
import { bookSuspense } from './suspense-booking';

export type PostOptions = {
  admin: { id: string; email: string } | null;
  /** Test hook: runs inside the transaction after every write, before commit. */
  beforeCommit?: (tx: Tx) => Promise<void>;
  /**
   * Benches only (bench/royalty-posting.ts, record 277): the posting without its journal transaction,
   * timed as the journal-free baseline. Refused unless `beforeCommit` is given (the bench's rolls back).
   */
  withoutJournal?: boolean;
};

function periodLabel(start: string | null, end: string | null): string {
  const from = start?.slice(0, 7) ?? '';
  const to = end?.slice(0, 7) ?? from;
  return from === to ? from : `${from} to ${to}`;
}

/** The settling transaction; suspense assignments (suspense.ts) run it inside their own (a savepoint). */
export async function postInTransaction(db: Db, importId: string, options: PostOptions): Promise<PostResult> {
  if (options.withoutJournal && !options.beforeCommit)
    throw new Error('withoutJournal is only for a bench whose beforeCommit rolls the posting back');
  return db.transaction(async (tx) => {
    await allowLongStatements(tx);
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
    await createPostingGroups(
      tx,
      sql`
      select user_id, release_id, track_id, period, amount, lines
        from royalty_posting_groups where import_id = ${importId}`,
    );
    // A temp table has no statistics until analysed: the splits' and postings' joins over it were planned
    // for a handful of rows (record 204).
    await run(tx, sql`analyze posting_groups`);
    await run(tx, sql`delete from royalty_posting_groups where import_id = ${importId}`);
    // The operator's fee first, on each artist's gross; recoupment and splits apply to the net (record 189).
    await applyFees(tx);
    // Label contracts (record 285): the payee's royalty leaves the label's groups before its splits.
    await applyContracts(tx, importId);
    await applySplits(tx, importId);
    // Per user: the truncated cents of their own lines, minus the cents moved to payees (paid or held),
    // plus the cents received as an accepted payee (decision 317).
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
        con as (
          select user_id, sum(out_usd) as out_usd, sum(in_cents) as in_cents from posting_contracts group by user_id
        ),
        users as (
          select user_id from own union select user_id from out_ union select user_id from in_
          union select user_id from con
        )
        insert into royalty_postings
          (import_id, user_id, amount_usd, cents, lines, split_out_cents, split_in_cents, fee_percent, fee_cents)
        select ${importId}::uuid, u.user_id, trim_scale(coalesce(fee.gross, 0)),
               coalesce(trunc(own.amount, 2) * 100, 0) - coalesce(out_.cents, 0) + coalesce(in_.cents, 0)
                 + coalesce(con.in_cents, 0),
               coalesce(own.lines, 0), coalesce(out_.cents, 0), coalesce(in_.cents, 0),
               trim_scale(fee.percent),
               coalesce(trunc(fee.gross, 2) * 100 - trunc(own.amount + coalesce(con.out_usd, 0), 2) * 100, 0)
          from users u
          left join own on own.user_id = u.user_id
          left join out_ on out_.user_id = u.user_id
          left join in_ on in_.user_id = u.user_id
          left join posting_fees fee on fee.user_id = u.user_id
          left join con on con.user_id = u.user_id
        returning user_id, cents::bigint as cents, amount_usd::text as amount_usd, lines, split_in_cents,
                  fee_cents::bigint as fee_cents`,
    );
    const period = periodLabel(claimed.periodStart, claimed.periodEnd);
    const credited = postings.filter((posting) => Number(posting.cents) !== 0);
    // The artists' journal legs join the report's one transaction (recordPosting, below).
    const artistLegs: JournalEntryInput[] = [];
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
      { collect: artistLegs },
    ).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'insufficient_balance') {
        throw new AppError(
          'insufficient_balance',
          'The refunds in this report would take an artist below zero; nothing was posted.',
          422,
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
          counterEntries: row.payees.map((payee) => ({
            account: 'payee_held' as const,
            subject: payee.payeeId,
            amount: centsToDecimal(payee.cents),
          })),
        })),
      { reference: { type: 'royalty_import', id: importId }, memo: 'Held split shares returned' },
    );
    const returnedCents = returned.reduce((sum, row) => sum + row.cents, 0);

    const postedCents = postings.reduce((sum, posting) => sum + Number(posting.cents), 0);
    const feeCents = postings.reduce((sum, posting) => sum + Number(posting.feeCents), 0);
    if (feeCents !== 0)
      await bookFees(tx, importId, claimed.periodStart?.slice(0, 7) ?? null, options.admin?.id ?? null);
    const [totals] = await rows<{ residue: string | null; held: string; matched: string }>(
      tx,
      sql`
        select trim_scale(coalesce(sum(amount_usd), 0) - (${postedCents}::numeric + h.held + r.held + ${feeCents}) / 100)::text as residue,
               h.held::text as held, trim_scale(coalesce(sum(amount_usd), 0))::text as matched
          from royalty_postings,
               (select coalesce(sum(cents), 0) as held from split_settlements
                 where import_id = ${importId} and held) h,
               -- Contract reserves (record 287): held on reserve_held, not credited.
               (select coalesce(sum(held_cents), 0) as held from contract_reserves where import_id = ${importId}) r
         where import_id = ${importId}
         group by h.held, r.held`,
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
    // royalty_run.published to the credited accounts with a webhook endpoint (issue 40): one query finds
    // them, so a posting to thousands of artists without endpoints writes nothing more.
    if (paid.length > 0) {
      const hooked = await tx
        .selectDistinct({ accountId: webhookEndpoints.accountId })
        .from(webhookEndpoints)
        .where(
          sql`${webhookEndpoints.disabledAt} is null and ${webhookEndpoints.accountId} in (select jsonb_array_elements_text(${JSON.stringify(paid.map((p) => p.userId))}::jsonb))`,
        );
      // The statement a posting changes is its month's (UTC), the month the balance moved (record 190).
      const [now] = await rows<{ month: string }>(
        tx,
        sql`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM') as month`,
      );
      for (const { accountId } of hooked) {
        await emitWebhookEvent(tx, accountId, 'royalty_run.published', {
          importId,
          period: claimed.periodStart?.slice(0, 7) ?? null,
        });
        await emitWebhookEvent(tx, accountId, 'statement.ready', { month: now?.month ?? null, importId });
      }
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
    const suspenseUsd = await bookSuspense(tx, claimed);
    if (!options.withoutJournal)
      await recordPosting(tx, {
        report: claimed,
        artistLegs,
        matchedUsd: totals?.matched ?? '0',
        suspenseUsd,
        feeCents,
        residue,
        memo: `Royalties for ${period} from ${claimed.fileName}`,
        actorId: options.admin?.id ?? null,
      });
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
