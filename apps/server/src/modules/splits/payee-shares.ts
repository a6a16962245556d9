/**
 * The payee's view: the shares they hold in other artists' releases, what they earned and what was recouped first.
 */
import type { PayeeSharesResponse } from '@tunedrop/shared/schemas/splits';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../lib/sql';

/** The payee's shares, newest report first: release, track, report, percentage, exact amount, held or paid. */
export async function listPayeeShares(db: DbOrTx, userId: string): Promise<PayeeSharesResponse> {
  const found = await rows<{
    importId: string;
    fileName: string;
    period: string;
    releaseTitle: string;
    trackTitle: string | null;
    percent: string;
    amount: string;
    held: boolean;
    postedAt: Date | string;
  }>(
    db,
    sql`
      select a.import_id, i.file_name, a.period, r.title as release_title, t.title as track_title,
             a.percent::text as percent, a.amount_usd::text as amount,
             (st.held and st.released_to is null) as held, i.posted_at
        from split_payees p
        join split_allocations a on a.payee_id = p.id and a.kind = 'share'
        join split_settlements st on st.import_id = a.import_id and st.payee_id = p.id
        join royalty_imports i on i.id = a.import_id
        join releases r on r.id = a.release_id
        left join tracks t on t.id = a.track_id
       where p.user_id = ${userId}
       order by i.posted_at desc, r.title, t.position nulls first, a.period
       limit 500`,
  );
  const [totals] = await rows<{ paid: string; held: string }>(
    db,
    sql`
      select coalesce(sum(cents) filter (where not held or released_to = 'payee'), 0)::text as paid,
             coalesce(sum(cents) filter (where held and released_to is null), 0)::text as held
        from split_settlements s join split_payees p on p.id = s.payee_id
       where p.user_id = ${userId}`,
  );
  return {
    items: found.map((row) => ({
      importId: row.importId,
      reportName: row.fileName,
      period: row.period,
      releaseTitle: row.releaseTitle,
      trackTitle: row.trackTitle,
      percent: row.percent,
      amountUsd: row.amount,
      held: row.held,
      postedAt: new Date(row.postedAt).toISOString(),
    })),
    totals: { paidCents: Number(totals?.paid ?? 0), heldCents: Number(totals?.held ?? 0) },
    expenses: await payeeExpenses(db, userId),
  };
}

/** Expenses on the releases this account accepted a share of (record 148), newest first. */
async function payeeExpenses(db: DbOrTx, userId: string): Promise<PayeeSharesResponse['expenses']> {
  const found = await rows<{
    id: string;
    amountCents: number | string;
    description: string;
    spentOn: string;
    createdAt: Date | string;
    releaseTitle: string;
    ownerName: string;
  }>(
    db,
    sql`select e.id, e.amount_cents, e.description, e.spent_on::text as spent_on, e.created_at,
               r.title as release_title, coalesce(pr.artist_name, u.email) as owner_name
          from release_expenses e
          join releases r on r.id = e.release_id
          join "user" u on u.id = r.user_id
          left join profiles pr on pr.id = r.user_id
         where e.release_id in (select release_id from split_payees where user_id = ${userId} and status = 'accepted')
         order by e.created_at desc
         limit 200`,
  );
  return found.map((row) => ({
    id: row.id,
    amountCents: Number(row.amountCents),
    description: row.description,
    spentOn: row.spentOn,
    createdAt: new Date(row.createdAt).toISOString(),
    releaseTitle: row.releaseTitle,
    ownerName: row.ownerName,
  }));
}
