/**
 * Splits applied inside a royalty posting (decision 317), set-based: a handful of statements over the
 * posting's groups of lines (owner, release, track, period), never a loop over lines.
 *
 * 1. Recoupment: per release, the whole cents of its expenses (created before the posting) not yet
 *    recouped, at most the whole cents of its positive earnings in this report, are repaid to the owner
 *    first. Within the release they are taken from the groups in a fixed order (track id, period).
 * 2. Shares: the rest of each group is split by the version in force when the report was posted: the
 *    track's own newest version created before the posting, else the release default's. Each payee gets
 *    exactly (rest × percent / 100); payees whose invitation was withdrawn get nothing (the owner keeps it);
 *    payees who have not accepted are held.
 * 3. Settlements: per payee, the exact sum and its cents truncated toward zero; the owner gives up exactly
 *    those cents, so the sub-cent residue stays with the owner (recorded as amount_usd − cents/100).
 * 4. Held shares of invitations withdrawn since are returned to their owner by this posting.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows, run } from '../../lib/sql';

/** Split edits and expenses take this advisory lock shared, postings exclusive (effective dating). */
export const SPLITS_LOCK_KEY = 1_702_017;

/**
 * Takes the posting's side of the splits lock: a split saved before this returns applies to the report,
 * one saved after waits for the posting to commit and applies to the next.
 */
export async function lockSplitsForPosting(tx: Tx): Promise<void> {
  await run(tx, sql`select pg_advisory_xact_lock(${SPLITS_LOCK_KEY})`);
}

/** The split edit's side: shared, so edits of different releases never wait for each other. */
export async function lockSplitsForEdit(tx: Tx): Promise<void> {
  await run(tx, sql`select pg_advisory_xact_lock_shared(${SPLITS_LOCK_KEY})`);
}

/**
 * Writes recoupments, allocations and settlements for the posting's groups (the temporary table
 * `posting_groups`: user_id, release_id, track_id, period, amount, lines). Returns nothing: the caller
 * reads the settlements in its postings statement.
 */
export async function applySplits(tx: Tx, importId: string): Promise<void> {
  const postedAt = sql`(select posted_at from royalty_imports where id = ${importId})`;
  const [needed] = await rows<{ needed: boolean }>(
    tx,
    sql`
      select exists (
        select 1 from (select distinct release_id from posting_groups where release_id is not null) g
         where exists (select 1 from split_versions v where v.release_id = g.release_id and v.created_at <= ${postedAt})
            or exists (select 1 from release_expenses e where e.release_id = g.release_id and e.created_at <= ${postedAt})
      ) as needed`,
  );
  if (!needed?.needed) return;

  await run(
    tx,
    sql`
    insert into split_recoupments (import_id, release_id, owner_id, cents)
    select ${importId}::uuid, x.release_id, x.owner_id, least(x.remaining, floor(x.positive * 100))::bigint
      from (
        select g.release_id, r.user_id as owner_id, sum(greatest(g.amount, 0)) as positive,
               (select coalesce(sum(e.amount_cents), 0) from release_expenses e
                 where e.release_id = g.release_id and e.created_at <= ${postedAt})
             - (select coalesce(sum(c.cents), 0) from split_recoupments c where c.release_id = g.release_id)
               as remaining
          from posting_groups g
          join releases r on r.id = g.release_id and r.user_id = g.user_id
         group by g.release_id, r.user_id
      ) x
     where least(x.remaining, floor(x.positive * 100)) > 0`,
  );

  await run(
    tx,
    sql`
    insert into split_allocations
      (import_id, owner_id, release_id, track_id, period, kind, version_id, payee_id, percent,
       group_usd, base_usd, amount_usd, held)
    with grp as (
      select g.user_id as owner_id, g.release_id, g.track_id, g.period, g.amount,
             coalesce(rc.cents, 0) * 0.01 as recoup,
             coalesce(sum(greatest(g.amount, 0)) over (
               partition by g.release_id order by g.track_id nulls last, g.period
               rows between unbounded preceding and 1 preceding), 0) as before
        from posting_groups g
        join releases r on r.id = g.release_id and r.user_id = g.user_id
        left join split_recoupments rc on rc.import_id = ${importId} and rc.release_id = g.release_id
    ),
    rec as (
      select grp.*,
             case when amount > 0 then least(amount, greatest(0, recoup - before)) else 0 end as recouped
        from grp
    ),
    ver as (
      select rec.*,
             (select v.id from split_versions v
               where v.release_id = rec.release_id and v.created_at <= ${postedAt}
                 and (v.track_id = rec.track_id or v.track_id is null)
               order by v.track_id is null, v.created_at desc, v.version desc
               limit 1) as version_id
        from rec
    )
    select ${importId}::uuid, owner_id, release_id, track_id, period, 'recoupment', null, null, null,
           amount, amount, trim_scale(recouped), false
      from ver where recouped <> 0
    union all
    select ${importId}::uuid, ver.owner_id, ver.release_id, ver.track_id, ver.period, 'share', ver.version_id,
           s.payee_id, s.percent, ver.amount, trim_scale(ver.amount - ver.recouped),
           trim_scale((ver.amount - ver.recouped) * s.percent * 0.01), p.status = 'pending'
      from ver
      join split_shares s on s.version_id = ver.version_id
      join split_payees p on p.id = s.payee_id and p.status <> 'withdrawn'`,
  );

  await run(
    tx,
    sql`
    insert into split_settlements (import_id, payee_id, owner_id, payee_user_id, amount_usd, cents, held)
    select a.import_id, a.payee_id, a.owner_id, p.user_id, trim_scale(sum(a.amount_usd)),
           (trunc(sum(a.amount_usd), 2) * 100)::bigint, p.status = 'pending'
      from split_allocations a
      join split_payees p on p.id = a.payee_id
     where a.import_id = ${importId} and a.kind = 'share'
     group by a.import_id, a.payee_id, a.owner_id, p.user_id, p.status`,
  );
}

/**
 * Held shares of invitations withdrawn before this posting go back to their owners: marks them returned
 * by this report and gives each owner's total (with the payees' addresses for the ledger line, and the
 * cents per payee for the journal).
 */
export async function returnWithdrawnHolds(
  tx: Tx,
  importId: string,
): Promise<
  { ownerId: string; cents: number; emails: string[]; payees: { payeeId: string; cents: number }[] }[]
> {
  const found = await rows<{
    ownerId: string;
    cents: string;
    emails: string[];
    payees: { payeeId: string; cents: number | string }[];
  }>(
    tx,
    sql`
      with returned as (
        update split_settlements s
           set released_to = 'owner', released_at = clock_timestamp(), released_import_id = ${importId}
          from split_payees p
         where p.id = s.payee_id and p.status = 'withdrawn' and s.held and s.released_to is null
        returning s.owner_id, s.payee_id, s.cents, p.email
      ),
      per_payee as (
        select owner_id, payee_id, email, sum(cents) as cents from returned group by owner_id, payee_id, email
      )
      select owner_id, sum(cents)::text as cents, array_agg(distinct email order by email) as emails,
             json_agg(json_build_object('payeeId', payee_id, 'cents', cents::text)) as payees
        from per_payee group by owner_id`,
  );
  return found.map((row) => ({
    ownerId: row.ownerId,
    cents: Number(row.cents),
    emails: row.emails,
    payees: row.payees.map((payee) => ({ payeeId: payee.payeeId, cents: Number(payee.cents) })),
  }));
}
