/**
 * A posting's contract step (issue 39, record 285), inside the posting's settling transaction after the
 * operator's fee and before splits. Set-based: one statement matches every earnings line of the report
 * under a contract to its first matching term (or the default rate) and writes the exact royalty per
 * contract, term, release, track and month; the label's posting groups give up that exact royalty; the
 * payee is credited its whole cents per contract. Nothing loops over lines.
 *
 * Reads the posting's temporary tables `posting_groups` and `posting_fees`; leaves `posting_contracts`
 * (user_id, out_usd, in_cents) for the postings statement: what each label gave up exactly and each payee
 * receives in cents (after recoupment, record 286, and less the reserves held, record 287). A report with no release under a contract in force leaves it empty.
 */
import { CONTRACT_TEXTS } from '@tunedrop/shared/schemas/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/errors';
import { rows, run } from '../../lib/sql';
import { CONTRACTS_LOCK_KEY } from './service';

/**
 * A line's channel from its usage type, as the stores word it: Content ID and user-generated first (a
 * YouTube "ad-supported stream" claim is UGC), then streams, downloads, physical and sync; else null
 * (only a term without a channel matches it).
 */
const channelSql = (usageType: SQL): SQL => sql`
  case
    when lower(coalesce(${usageType}, '')) ~ '(ugc|content ?id|user.generated|youtube)' then 'ugc'
    when lower(coalesce(${usageType}, '')) ~ '(stream|subscription|ad.supported|premium|radio|interactive|on.demand)' then 'stream'
    when lower(coalesce(${usageType}, '')) ~ '(download|purchase|permanent|a la carte)' then 'download'
    when lower(coalesce(${usageType}, '')) ~ '(physical|vinyl|cd)' then 'physical'
    when lower(coalesce(${usageType}, '')) ~ 'sync' then 'sync'
  end`;

/** The first instant of a line's sale month ('YYYY-MM…'), null when the period is not a month. */
const monthSql = (period: SQL): SQL =>
  sql`case when ${period} ~ '^[0-9]{4}-(0[1-9]|1[0-2])' then (left(${period}, 7) || '-01')::date end`;

/**
 * The report's lines as the contract step reads them: (user_id, release_id, track_id, period, country,
 * store, usage_type, amount_usd). A posting reads the earnings lines it wrote; the confirmation's preview
 * (posting-figures.ts) passes the staged lines, so it names the same figures and the same refusal.
 */
export const earningsLinesSql = (importId: string): SQL => sql`
  select user_id, release_id, track_id, period, country, store, usage_type, amount_usd
    from royalty_earnings where import_id = ${importId}`;

export async function applyContracts(
  tx: Tx,
  importId: string,
  lines: SQL = earningsLinesSql(importId),
): Promise<void> {
  // A suspense assignment may settle more than one posting in one transaction (record 188).
  await run(tx, sql`drop table if exists pg_temp.posting_contracts, pg_temp.posting_contract_lines`);
  await run(
    tx,
    sql`
      create temp table posting_contracts (user_id text not null, out_usd numeric not null, in_cents bigint not null)
        on commit drop`,
  );
  // Edits saved before this lock apply to this report; later ones wait for its commit (record 285).
  await run(tx, sql`select pg_advisory_xact_lock(${CONTRACTS_LOCK_KEY})`);
  const [bound] = await rows<{ any: boolean }>(
    tx,
    sql`
      select exists (
        select 1 from (select distinct user_id, release_id from posting_groups where release_id is not null) g
          join contract_releases cr on cr.release_id = g.release_id
          join contracts c on c.id = cr.contract_id and c.label_id = g.user_id
      ) as any`,
  );
  if (!bound?.any) return;

  const month = monthSql(sql`e.period`);
  await run(
    tx,
    sql`
      create temp table posting_contract_lines on commit drop as
      with l as (
        select e.user_id, e.release_id, e.track_id, e.period, e.country, e.store, e.amount_usd, ${month} as month,
               ${channelSql(sql`e.usage_type`)} as channel, coalesce(f.percent, 0) as fee_percent,
               c.id as contract_id, c.name as contract_name, c.default_basis, c.default_rate
          from (${lines}) e
          join contract_releases cr on cr.release_id = e.release_id
          join contracts c on c.id = cr.contract_id and c.label_id = e.user_id
          left join posting_fees f on f.user_id = e.user_id
         where (${month} is null
                or (${month} >= date_trunc('month', c.starts_on)::date and (c.ends_on is null or ${month} <= c.ends_on)))
      )
      select l.contract_id, l.contract_name, l.user_id, l.release_id, l.track_id, l.period, l.amount_usd,
             l.fee_percent, t.position, coalesce(t.basis, l.default_basis) as basis, coalesce(t.rate, l.default_rate) as rate,
             case when coalesce(t.basis, l.default_basis) = 'net'
                  then l.amount_usd - l.amount_usd * l.fee_percent * 0.01 else l.amount_usd end as basis_usd
        from l
        left join lateral (
          select t.position, t.basis, t.rate from contract_terms t
           where t.contract_id = l.contract_id
             and (cardinality(t.territories) = 0 or upper(l.country) = any(t.territories))
             and (t.channel is null or t.channel = l.channel)
             and (t.store is null or lower(t.store) = lower(l.store))
             and (t.starts_on is null or l.month >= date_trunc('month', t.starts_on)::date)
             and (t.ends_on is null or l.month <= t.ends_on)
           order by t.position
           limit 1
        ) t on true`,
  );
  // A line no term matches, in a contract without a default: nothing is posted (shown before money moves).
  const [unmatched] = await rows<{ contractName: string; lines: number | string }>(
    tx,
    sql`
      select contract_name, count(*) as lines from posting_contract_lines where rate is null
       group by contract_id, contract_name order by count(*) desc, contract_name limit 1`,
  );
  if (unmatched) {
    throw new AppError(
      'contract_unmatched',
      CONTRACT_TEXTS.unmatched(Number(unmatched.lines), unmatched.contractName),
      409,
    );
  }
  // A rate of gross receipts above what the fee leaves would make the label pay out more than it received
  // (a negative label share): refused by name, before any money moves.
  const [aboveNet] = await rows<{ contractName: string; rate: string; fee: string; max: string }>(
    tx,
    sql`
      select contract_name, trim_scale(rate)::text as rate, trim_scale(fee_percent)::text as fee,
             trim_scale(100 - fee_percent)::text as max
        from posting_contract_lines
       where basis = 'gross' and rate > 100 - fee_percent
       order by rate desc, contract_name limit 1`,
  );
  if (aboveNet) {
    throw new AppError(
      'contract_rate_above_net',
      CONTRACT_TEXTS.rateAboveNet(aboveNet.contractName, aboveNet.rate, aboveNet.fee, aboveNet.max),
      409,
    );
  }
  await run(
    tx,
    sql`
      insert into contract_royalties
        (import_id, contract_id, term_position, release_id, track_id, period, lines, gross_usd, basis, basis_usd,
         rate, royalty_usd)
      select ${importId}::uuid, contract_id, position, release_id, track_id, period, count(*),
             trim_scale(sum(amount_usd)), basis, trim_scale(sum(basis_usd)), trim_scale(rate),
             trim_scale(sum(basis_usd) * rate * 0.01)
        from posting_contract_lines
       group by contract_id, position, release_id, track_id, period, basis, rate`,
  );
  // The label's groups give up the exact royalty: its splits share what is left (its own share).
  await run(
    tx,
    sql`
      update posting_groups g set amount = g.amount - x.royalty
        from (
          select c.label_id, r.release_id, r.track_id, r.period, sum(r.royalty_usd) as royalty
            from contract_royalties r join contracts c on c.id = r.contract_id
           where r.import_id = ${importId}
           group by c.label_id, r.release_id, r.track_id, r.period
        ) x
       where g.user_id = x.label_id and g.release_id = x.release_id
         and g.track_id is not distinct from x.track_id and g.period = x.period`,
  );
  await run(
    tx,
    sql`
      insert into contract_settlements (import_id, contract_id, label_id, payee_user_id, royalty_usd, cents)
      select ${importId}::uuid, c.id, c.label_id, c.payee_user_id, trim_scale(sum(r.royalty_usd)),
             (trunc(sum(r.royalty_usd), 2) * 100)::bigint
        from contract_royalties r join contracts c on c.id = r.contract_id
       where r.import_id = ${importId}
       group by c.id, c.label_id, c.payee_user_id`,
  );
  // Advances and recoupable costs first (record 286): what is still unrecouped goes back to the label
  // from the payee's cents of this posting; only the rest is the payee's.
  await run(
    tx,
    sql`
      update contract_settlements s
         set recouped_cents = least(greatest(s.cents, 0), greatest(u.unrecouped, 0))
        from (
          select c.id as contract_id,
                 (select coalesce(sum(a.recoupable_cents), 0) from contract_advances a where a.contract_id = c.id)
               - (select coalesce(sum(p.recouped_cents), 0) from contract_settlements p
                   where p.contract_id = c.id and p.import_id <> ${importId}) as unrecouped
            from contracts c
           where c.id in (select contract_id from contract_settlements where import_id = ${importId})
        ) u
       where s.import_id = ${importId} and s.contract_id = u.contract_id and u.unrecouped > 0`,
  );
  await holdReserves(tx, importId);
  await run(
    tx,
    sql`
      insert into posting_contracts (user_id, out_usd, in_cents)
      select label_id, royalty_usd, recouped_cents from contract_settlements where import_id = ${importId}
      union all
      select s.payee_user_id, 0,
             s.cents - s.recouped_cents
               - (select coalesce(sum(r.held_cents), 0) from contract_reserves r
                   where r.import_id = s.import_id and r.contract_id = s.contract_id)
        from contract_settlements s where s.import_id = ${importId}`,
  );
}

/**
 * Reserves (record 287): per contract and term with a reserve, the percent of the royalty on the term's
 * sales (positive lines only: nothing is held on returns), truncated to the cent, held from what the
 * payee is paid after recoupment (never more: the terms in order take what is left). Each reserve's parts
 * fall due in the statement months after the posting's, by the term's schedule; the parts are the
 * differences of the cumulative percentages truncated to the cent, so they add up to what was held.
 * The posting's journal transaction moves the held cents to `reserve_held` (posting-journal.ts).
 */
async function holdReserves(tx: Tx, importId: string): Promise<void> {
  await run(
    tx,
    sql`
      insert into contract_reserves
        (import_id, contract_id, term_position, label_id, payee_user_id, held_month, sales_royalty_usd, percent,
         reserve_usd, held_cents)
      with sales as (
        select l.contract_id, l.position, t.reserve_percent as percent,
               sum(l.basis_usd * l.rate * 0.01) filter (where l.amount_usd > 0) as royalty
          from posting_contract_lines l
          join contract_terms t on t.contract_id = l.contract_id and t.position = l.position
         where t.reserve_percent > 0
         group by l.contract_id, l.position, t.reserve_percent
      ),
      wanted as (
        select contract_id, position, percent, royalty, royalty * percent * 0.01 as reserve,
               (trunc(royalty * percent * 0.01, 2) * 100)::bigint as cents
          from sales where royalty > 0
      ),
      capped as (
        select w.*, s.label_id, s.payee_user_id, greatest(s.cents - s.recouped_cents, 0) as available,
               sum(w.cents) over (partition by w.contract_id order by w.position) as upto
          from wanted w
          join contract_settlements s on s.import_id = ${importId} and s.contract_id = w.contract_id
      )
      select ${importId}::uuid, contract_id, position, label_id, payee_user_id,
             date_trunc('month', clock_timestamp() at time zone 'UTC')::date, trim_scale(royalty), trim_scale(percent),
             trim_scale(reserve), least(cents, greatest(available - (upto - cents), 0))
        from capped
       where least(cents, greatest(available - (upto - cents), 0)) > 0`,
  );
  await run(
    tx,
    sql`
      insert into contract_reserve_releases (reserve_id, part, due_month, cents)
      select id, part, (held_month + make_interval(months => part::int))::date,
             (floor(held_cents * upto / 100) - floor(held_cents * (upto - percent) / 100))::bigint
        from (
          select r.id, r.held_month, r.held_cents, s.part, s.percent,
                 sum(s.percent) over (partition by r.id order by s.part) as upto
            from contract_reserves r
            join contract_terms t on t.contract_id = r.contract_id and t.position = r.term_position
            cross join lateral unnest(t.reserve_schedule) with ordinality as s(percent, part)
           where r.import_id = ${importId}
        ) x`,
  );
}
