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
import { type PostResult, ROYALTY_TEXTS } from '@tunedrop/shared/schemas/royalties';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { mailOutbox, profiles, royaltyImports } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { applyBalanceChanges } from '../wallet/balance';
import { lineAmountsSql, needsAllocation } from './amounts';

export type PostOptions = {
  admin: { id: string; email: string } | null;
  /** Test hook: runs inside the transaction after every write, before commit. */
  beforeCommit?: (tx: Tx) => Promise<void>;
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

function periodLabel(start: string | null, end: string | null): string {
  const from = start?.slice(0, 7) ?? '';
  const to = end?.slice(0, 7) ?? from;
  return from === to ? from : `${from} to ${to}`;
}

export async function postImport(db: Db, importId: string, options: PostOptions): Promise<PostResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '256MB'`);
    const [claimed] = await tx
      .update(royaltyImports)
      .set({ status: 'posted', postedAt: new Date(), postedBy: options.admin?.id ?? null })
      .where(sql`${royaltyImports.id} = ${importId} and ${royaltyImports.status} = 'staged'`)
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
    const rate = claimed.exchangeRate ?? '1';
    const fallbackPeriod = claimed.periodStart?.slice(0, 7) ?? claimed.createdAt.toISOString().slice(0, 7);
    const allocate = await needsAllocation(tx, importId);
    const postings = rowsOf<{ user_id: string; cents: string | number; amount_usd: string; lines: number }>(
      await tx.execute(sql`
        with inserted as (
          insert into royalty_earnings
            (import_id, line_no, line_key, user_id, track_id, release_id, store, country, period,
             usage_type, units, amount, amount_usd)
          select l.import_id, l.line_no, l.line_key, l.user_id, l.track_id, l.release_id, l.store, l.country,
                 coalesce(l.period, ${fallbackPeriod}), l.usage_type, l.units, l.line_amount,
                 l.line_amount * ${rate}::numeric
            from (${lineAmountsSql(importId, allocate)}) l
           where l.user_id is not null
          returning user_id, amount_usd
        )
        insert into royalty_postings (import_id, user_id, amount_usd, cents, lines)
        select ${importId}::uuid, user_id, trim_scale(sum(amount_usd)), trunc(sum(amount_usd), 2) * 100, count(*)
          from inserted
         group by user_id
        returning user_id, cents::bigint as cents, amount_usd::text as amount_usd, lines`),
    );
    const period = periodLabel(claimed.periodStart, claimed.periodEnd);
    const credited = postings.filter((posting) => Number(posting.cents) !== 0);
    const results = await applyBalanceChanges(
      tx,
      credited.map((posting) => ({
        userId: posting.user_id,
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

    const postedCents = postings.reduce((sum, posting) => sum + Number(posting.cents), 0);
    const [totals] = rowsOf<{ residue: string | null }>(
      await tx.execute(sql`
        select trim_scale(coalesce(sum(amount_usd), 0) - ${postedCents}::numeric / 100)::text as residue
          from royalty_postings where import_id = ${importId}`),
    );
    const residue = totals?.residue ?? '0';
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
          sql`${profiles.id} in (select jsonb_array_elements_text(${JSON.stringify(paid.map((p) => p.user_id))}::jsonb))`,
        );
      const byId = new Map(emails.map((row) => [row.id, row]));
      await tx.insert(mailOutbox).values(
        paid.flatMap((posting) => {
          const profile = byId.get(posting.user_id);
          if (!profile) return [];
          const amount = formatCents(Number(posting.cents));
          return [
            {
              recipient: profile.email,
              subject: ROYALTY_TEXTS.earningsMailSubject(amount, period),
              textBody: `Hi ${profile.artistName},\n\nYour music earned ${amount} for ${period}. It has been added to your available balance.\n\nSee each store, country and track on the Royalties page.\n`,
            },
          ];
        }),
      );
    }
    if (options.beforeCommit) await options.beforeCommit(tx);
    const earningsLines = postings.reduce((sum, posting) => sum + Number(posting.lines), 0);
    return { importId, postedCents, residue, artists: postings.length, earningsLines };
  });
}
