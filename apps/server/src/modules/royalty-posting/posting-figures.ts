/**
 * The figures a posting confirmation names and its result repeats (issue 25 finding 5, record 189):
 * credited to balances, held for pending invitations, the operator's fee, suspense (unmatched money in
 * USD) and the rounding residue. Before posting they are computed by the posting's own statements
 * (groups, fee, recoupment, splits) in a transaction that is rolled back, so the preview cannot drift
 * from what posting does (lines already posted in another report are left out, as posting does, record
 * 186); after posting they are read from what it wrote.
 */
import type { PostingFigures } from '@tunedrop/shared/schemas/finance';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { royaltyImports } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { firstRow, run } from '../../lib/sql';
import { applyContracts } from '../contracts';
import { lineAmountsSql, needsAllocation } from '../royalty-imports';
import { applySplits, lockSplitsForPosting } from '../splits';
import { applyFees } from './fees';
import { createPostingGroups } from './posting-groups';

class Preview extends Error {
  constructor(readonly figures: PostingFigures) {
    super('preview');
  }
}

type FigureRow = {
  creditedCents: string | number;
  heldCents: string | number;
  reservedCents: string | number;
  feeCents: string | number;
  artists: string | number;
  grossUsd: string;
};

async function unmatchedUsd(db: DbOrTx, importId: string, rate: string): Promise<string> {
  const row = await firstRow<{ amount: string }>(
    db,
    sql`
      select trim_scale(coalesce(sum(l.line_amount), 0) * ${rate}::numeric)::text as amount
        from (${lineAmountsSql(importId, await needsAllocation(db, importId))}) l
       where l.user_id is null and l.posted_in is null`,
  );
  return row?.amount ?? '0';
}

function figuresOf(row: FigureRow | null | undefined, suspenseUsd: string, posted: boolean): PostingFigures {
  const creditedCents = Number(row?.creditedCents ?? 0);
  const heldCents = Number(row?.heldCents ?? 0);
  const feeCents = Number(row?.feeCents ?? 0);
  return {
    posted,
    creditedCents,
    heldCents,
    reservedCents: Number(row?.reservedCents ?? 0),
    feeCents,
    artists: Number(row?.artists ?? 0),
    grossUsd: row?.grossUsd ?? '0',
    suspenseUsd,
  };
}

export async function postingFigures(db: Db, importId: string): Promise<PostingFigures> {
  const [row] = await db.select().from(royaltyImports).where(eq(royaltyImports.id, importId));
  if (!row) throw notFound('Import not found');
  const rate = row.exchangeRate ?? '1';
  if (row.status === 'posted') {
    const found = await firstRow<FigureRow>(
      db,
      sql`
        select coalesce(sum(p.cents), 0) as credited_cents, coalesce(sum(p.fee_cents), 0) as fee_cents,
               count(*) filter (where p.cents <> 0) as artists,
               trim_scale(coalesce(sum(p.amount_usd), 0))::text as gross_usd,
               (select coalesce(sum(cents), 0) from split_settlements where import_id = ${importId} and held) as held_cents,
               (select coalesce(sum(held_cents), 0) from contract_reserves where import_id = ${importId}) as reserved_cents
          from royalty_postings p where p.import_id = ${importId}`,
    );
    // What the posting booked to suspense (record 188), line by line.
    const suspense = await firstRow<{ amount: string }>(
      db,
      sql`select trim_scale(coalesce(sum(amount_usd), 0))::text as amount from royalty_suspense_lines where import_id = ${importId}`,
    );
    return figuresOf(found, suspense?.amount ?? '0', true);
  }
  if (row.status !== 'staged') throw new AppError('not_ready', 'This report is not ready to post.', 409);
  const fallbackPeriod = row.periodStart?.slice(0, 7) ?? row.createdAt.toISOString().slice(0, 7);
  const allocate = await needsAllocation(db, importId);
  try {
    await db.transaction(async (tx) => {
      await lockSplitsForPosting(tx);
      // Splits in force "now", as if posted at this instant (the posting uses its own posted_at).
      await run(
        tx,
        sql`update royalty_imports set status = 'posted', posted_at = clock_timestamp() where id = ${importId}`,
      );
      await createPostingGroups(
        tx,
        sql`
          select l.user_id, l.release_id, l.track_id, coalesce(l.period, ${fallbackPeriod}),
                 sum(l.line_amount * ${rate}::numeric), count(*)
            from (${lineAmountsSql(importId, allocate)}) l
           where l.user_id is not null and l.posted_in is null
           group by 1, 2, 3, 4`,
      );
      await applyFees(tx);
      // Label contracts (record 285) on the staged lines: the same royalties, or the same refusal.
      await applyContracts(
        tx,
        importId,
        sql`
          select l.user_id, l.release_id, l.track_id, coalesce(l.period, ${fallbackPeriod}) as period, l.country,
                 l.store, l.usage_type, l.line_amount * ${rate}::numeric as amount_usd
            from (${lineAmountsSql(importId, allocate)}) l
           where l.user_id is not null and l.posted_in is null`,
      );
      await applySplits(tx, importId);
      const found = await firstRow<FigureRow>(
        tx,
        sql`
          with own as (select user_id, sum(amount) as amount from posting_groups group by user_id),
          held as (select coalesce(sum(cents), 0) as cents from split_settlements where import_id = ${importId} and held),
          con as (select user_id, sum(out_usd) as out_usd from posting_contracts group by user_id),
          con_in as (select coalesce(sum(in_cents), 0) as cents from posting_contracts),
          payees as (select distinct payee_user_id as user_id from split_settlements
                      where import_id = ${importId} and not held and cents <> 0
                     union select user_id from posting_contracts where in_cents <> 0)
          select coalesce(sum(trunc(own.amount, 2) * 100), 0) - (select cents from held) + (select cents from con_in)
                   as credited_cents,
                 (select cents from held) as held_cents,
                 (select coalesce(sum(held_cents), 0) from contract_reserves where import_id = ${importId})
                   as reserved_cents,
                 coalesce(sum(trunc(f.gross, 2) * 100 - trunc(own.amount + coalesce(con.out_usd, 0), 2) * 100), 0)
                   as fee_cents,
                 (select count(*) from (select user_id from own union select user_id from payees) u) as artists,
                 trim_scale(coalesce(sum(f.gross), 0))::text as gross_usd
            from own join posting_fees f on f.user_id = own.user_id
            left join con on con.user_id = own.user_id`,
      );
      throw new Preview(figuresOf(found, '0', false));
    });
  } catch (error) {
    if (!(error instanceof Preview)) throw error;
    return { ...error.figures, suspenseUsd: await unmatchedUsd(db, importId, rate) };
  }
  throw new Error('unreachable: the preview transaction always rolls back');
}
