/**
 * `audit:balances`: recomputes every profile's money from the records and lists what disagrees.
 * Available balance: the last log row's new balance (0 with no rows), and each row must start where
 * the previous one ended. Total earnings: the sum of the log's earnings deltas. Pending: the sum of
 * the user's pending withdrawal requests. Royalties (issue 16): each 'royalty_import' log row must move the
 * balance by the cents of its posting, and each posting must be its earnings lines' exact USD sum
 * truncated to cents, so the balance reconciles with earnings lines, withdrawals and manual adjustments.
 * Splits (issue 17, record 317): a posting's cents are its lines' truncated sum minus the cents settled to
 * payees plus the cents received as an accepted payee; the 'split_release' and 'split_return' log rows of a
 * user add up to the held settlements released to them. The operator's fee (issue 25, record 189) comes off
 * first: the owner's part is the net (gross − gross × fee% ) truncated, and the posting's fee_cents is
 * trunc(gross) − trunc(net). Label contracts (issue 39, record 285): the label's part is the net less the
 * exact royalty of its contracts, truncated; the payee receives each contract's settled cents.
 * The report and liability identities are in modules/finance/overview.ts.
 */
import { formatCents } from '@tunedrop/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { allowLongStatements } from '../../db/long-statements';
import { profiles } from '../../db/schema';
import { rows } from '../../lib/sql';

export type BalanceMismatch = {
  userId: string;
  email: string;
  field: 'balance' | 'total_earnings' | 'pending_balance' | 'log_chain' | 'royalty_earnings';
  storedCents: number;
  expectedCents: number;
};

type AuditRow = {
  id: string;
  email: string;
  balance: string | number;
  total: string | number;
  pending: string | number;
  logBalance: string | number;
  logEarnings: string | number;
  pendingRequests: string | number;
  chainBreaks: string | number;
  firstBreakOld: string | number | null;
  firstBreakExpected: string | number | null;
};

export async function auditBalances(db: DbOrTx): Promise<{ checked: number; mismatches: BalanceMismatch[] }> {
  return db.transaction(async (tx) => {
    // One statement over the whole balance log: the long statement limit (record 223).
    await allowLongStatements(tx);
    return auditIn(tx);
  });
}

async function auditIn(db: DbOrTx): Promise<{ checked: number; mismatches: BalanceMismatch[] }> {
  const found = await rows<AuditRow>(
    db,
    sql`
    with ordered as (
      select user_id, old_balance_cents, new_balance_cents, earnings_delta_cents, created_at, id,
             coalesce(lag(new_balance_cents) over w, 0) as previous_new,
             -- One sort for both windows (issue 19): the newest row is the last of the ascending order.
             row_number() over w = count(*) over (partition by user_id) as is_newest
        from balance_updates_log
      window w as (partition by user_id order by created_at, id)
    ),
    per_user as (
      select user_id,
             max(new_balance_cents) filter (where is_newest) as log_balance,
             sum(earnings_delta_cents) as log_earnings,
             count(*) filter (where old_balance_cents <> previous_new) as chain_breaks
        from ordered
       group by user_id
    ),
    first_break as (
      select distinct on (user_id) user_id, old_balance_cents, previous_new
        from ordered
       where old_balance_cents <> previous_new
       order by user_id, created_at, id
    ),
    pending as (
      select user_id, sum(amount_cents) as pending_requests
        from withdrawal_requests
       where status = 'pending'
       group by user_id
    )
    select p.id, p.email,
           p.balance_cents as balance, p.total_earnings_cents as total, p.pending_balance_cents as pending,
           coalesce(u.log_balance, 0) as log_balance,
           coalesce(u.log_earnings, 0) as log_earnings,
           coalesce(w.pending_requests, 0) as pending_requests,
           coalesce(u.chain_breaks, 0) as chain_breaks,
           b.old_balance_cents as first_break_old,
           b.previous_new as first_break_expected
      from profiles p
      left join per_user u on u.user_id = p.id
      left join first_break b on b.user_id = p.id
      left join pending w on w.user_id = p.id
     -- Only the accounts that disagree leave the database (100,000 rows took seconds to ship and parse).
     where p.balance_cents <> coalesce(u.log_balance, 0)
        or p.total_earnings_cents <> coalesce(u.log_earnings, 0)
        or p.pending_balance_cents <> coalesce(w.pending_requests, 0)
        or coalesce(u.chain_breaks, 0) > 0
     order by p.email`,
  );
  const [counted] = await db.select({ count: sql<number>`count(*)::int` }).from(profiles);
  const mismatches: BalanceMismatch[] = [];
  for (const row of found) {
    const base = { userId: row.id, email: row.email };
    const compare = (field: BalanceMismatch['field'], stored: unknown, expected: unknown) => {
      if (Number(stored) !== Number(expected)) {
        mismatches.push({ ...base, field, storedCents: Number(stored), expectedCents: Number(expected) });
      }
    };
    compare('balance', row.balance, row.logBalance);
    compare('total_earnings', row.total, row.logEarnings);
    compare('pending_balance', row.pending, row.pendingRequests);
    if (Number(row.chainBreaks) > 0) {
      mismatches.push({
        ...base,
        field: 'log_chain',
        storedCents: Number(row.firstBreakOld),
        expectedCents: Number(row.firstBreakExpected),
      });
    }
  }
  mismatches.push(...(await auditRoyalties(db)));
  return { checked: Number(counted?.count ?? 0), mismatches };
}

/** Per artist and report: log rows vs posting cents vs the earnings lines' exact sum. */
async function auditRoyalties(db: DbOrTx): Promise<BalanceMismatch[]> {
  const found = await rows<{
    userId: string;
    email: string;
    posted: unknown;
    logged: unknown;
    earned: unknown;
  }>(
    db,
    sql`
    with logged as (
      select user_id, royalty_import_id as import_id, sum(new_balance_cents - old_balance_cents) as cents
        from balance_updates_log where update_type = 'royalty_import' group by user_id, royalty_import_id
    ),
    earned as (
      select user_id, import_id, sum(amount_usd) as gross
        from royalty_earnings
       -- Lines of a posting in progress are not credited yet (decision 162).
       where import_id in (select id from royalty_imports where status = 'posted')
       group by user_id, import_id
    ),
    -- Splits (decision 317): cents moved from an owner to payees (paid or held) and received by payees.
    split_out as (
      select owner_id as user_id, import_id, sum(cents) as cents from split_settlements group by owner_id, import_id
    ),
    split_in as (
      select payee_user_id as user_id, import_id, sum(cents) as cents from split_settlements
       where not held group by payee_user_id, import_id
    ),
    contract_out as (
      select label_id as user_id, import_id, sum(royalty_usd) as usd from contract_settlements group by 1, 2
    ),
    -- The payee's cents less what went back to the label against unrecouped advances (record 286) and
    -- less the reserves held (record 287; their releases are reserve_release rows, checked below).
    contract_in as (
      select user_id, import_id, sum(cents) as cents
        from (select payee_user_id as user_id, import_id, cents - recouped_cents as cents from contract_settlements
              union all
              select payee_user_id, import_id, -held_cents from contract_reserves
              union all
              select label_id, import_id, recouped_cents from contract_settlements) x
       group by 1, 2
    ),
    expected as (
      -- The operator's fee first (record 189): the owner's cents are the net's (less its contracts'
      -- royalty, record 285), truncated.
      select p.user_id, p.import_id,
             coalesce(trunc(e.gross - e.gross * coalesce(p.fee_percent, 0) * 0.01 - coalesce(co.usd, 0), 2) * 100, 0)
               - coalesce(o.cents, 0) + coalesce(i.cents, 0) + coalesce(ci.cents, 0) as cents,
             coalesce(trunc(e.gross, 2) * 100 - trunc(e.gross - e.gross * coalesce(p.fee_percent, 0) * 0.01, 2) * 100, 0)
               as fee_cents
        from royalty_postings p
        left join earned e on e.user_id = p.user_id and e.import_id = p.import_id
        left join split_out o on o.user_id = p.user_id and o.import_id = p.import_id
        left join split_in i on i.user_id = p.user_id and i.import_id = p.import_id
        left join contract_out co on co.user_id = p.user_id and co.import_id = p.import_id
        left join contract_in ci on ci.user_id = p.user_id and ci.import_id = p.import_id
    ),
    -- Held shares released later: to the payee on acceptance, or back to the owner by a posting.
    released as (
      select case when released_to = 'payee' then payee_user_id else owner_id end as user_id, sum(cents) as cents
        from split_settlements where released_to is not null
       group by 1
    ),
    released_logged as (
      select user_id, sum(new_balance_cents - old_balance_cents) as cents
        from balance_updates_log where update_type in ('split_release', 'split_return') group by user_id
    )
    select p.user_id, pr.email, p.cents as posted, coalesce(l.cents, 0) as logged, x.cents as earned
      from royalty_postings p
      join profiles pr on pr.id = p.user_id
      join expected x on x.user_id = p.user_id and x.import_id = p.import_id
      left join logged l on l.user_id = p.user_id and l.import_id = p.import_id
     where p.cents <> coalesce(l.cents, 0) or p.cents <> x.cents or p.fee_cents <> x.fee_cents
    union all
    select l.user_id, pr.email, 0, l.cents, 0
      from logged l join profiles pr on pr.id = l.user_id
     where not exists (select 1 from royalty_postings p where p.user_id = l.user_id and p.import_id = l.import_id)
    union all
    select coalesce(r.user_id, rl.user_id), pr.email, coalesce(r.cents, 0), coalesce(rl.cents, 0), coalesce(r.cents, 0)
      from released r
      full join released_logged rl on rl.user_id = r.user_id
      join profiles pr on pr.id = coalesce(r.user_id, rl.user_id)
     where coalesce(r.cents, 0) <> coalesce(rl.cents, 0)
    union all
    select coalesce(r.user_id, rl.user_id), pr.email, coalesce(r.cents, 0), coalesce(rl.cents, 0), coalesce(r.cents, 0)
      from (select rs.payee_user_id as user_id, sum(x.cents) as cents
              from contract_reserve_releases x join contract_reserves rs on rs.id = x.reserve_id
             where x.released_at is not null group by rs.payee_user_id) r
      full join (select user_id, sum(new_balance_cents - old_balance_cents) as cents
                   from balance_updates_log where update_type = 'reserve_release' group by user_id) rl
        on rl.user_id = r.user_id
      join profiles pr on pr.id = coalesce(r.user_id, rl.user_id)
     where coalesce(r.cents, 0) <> coalesce(rl.cents, 0)`,
  );
  return found.map((row) => ({
    userId: row.userId,
    email: row.email,
    field: 'royalty_earnings' as const,
    storedCents: Number(row.logged),
    expectedCents: Number(row.posted) !== Number(row.logged) ? Number(row.posted) : Number(row.earned),
  }));
}

export function describeMismatch(mismatch: BalanceMismatch): string {
  if (mismatch.field === 'log_chain') {
    return `${mismatch.email} (${mismatch.userId}): the balance log jumps: a row starts at ${formatCents(mismatch.storedCents)} where the previous one ended at ${formatCents(mismatch.expectedCents)}`;
  }
  if (mismatch.field === 'royalty_earnings') {
    return `${mismatch.email} (${mismatch.userId}): royalty postings credited ${formatCents(mismatch.storedCents)} but the earnings lines give ${formatCents(mismatch.expectedCents)}`;
  }
  const source =
    mismatch.field === 'pending_balance' ? 'pending withdrawal requests add up to' : 'balance log gives';
  return `${mismatch.email} (${mismatch.userId}): ${mismatch.field} is ${formatCents(mismatch.storedCents)} but the ${source} ${formatCents(mismatch.expectedCents)}`;
}
