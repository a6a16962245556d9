/**
 * One royalty statement (issue 25, record 190): the changes to an account's balance in one calendar month
 * (UTC), read from the balance log and explained by what caused them. Opening balance, gross earnings of the
 * reports posted (by store, country and track, in whole cents that add up to what was credited), the
 * operator's fee, split shares paid and received with their release and track, withdrawals, adjustments and
 * the closing balance: opening + every row = closing, to the cent. This file reads the rows; composing them
 * is statement-compose.ts, pure, so the CSV, PDF and page are built off the event loop (record 208).
 */

import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { firstRow, rows } from '../../lib/sql';
import { reserveSummary } from '../contracts';
import { payableCentsAt } from '../ledger';
import {
  type DetailRow,
  type LogRow,
  postedImportIds,
  type ReceivedLine,
  type ShareSource,
  type StatementData,
} from './statement-compose';
import { readStatementIssuer } from './statement-issuer';

/** The month's first instant and the next month's, in UTC. */
function monthBounds(period: string) {
  const start = sql`((${period} || '-01')::date::timestamp at time zone 'UTC')`;
  return { start, end: sql`(${start} + interval '1 month')` };
}

/** The first instant (UTC) of the month `period` (YYYY-MM), or of the month `after` months later. */
const monthStart = (period: string, after = 0) =>
  new Date(Date.UTC(Number(period.slice(0, 4)), Number(period.slice(5, 7)) - 1 + after, 1));

/** `x in ${idList(ids)}`: a list of uuids passed as one JSON parameter. */
const idList = (ids: readonly string[]) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`;

/** The rows of the statement of `period` (YYYY-MM), or null when the balance did not change that month. */
export async function readStatementData(
  db: DbOrTx,
  userId: string,
  period: string,
  /** One artist profile's view (record 201): its earnings only; the balance stays the account's. */
  artistProfile?: { id: string; name: string } | null,
): Promise<StatementData | null> {
  const { start, end } = monthBounds(period);
  const account = await firstRow<{ name: string; email: string }>(
    db,
    sql`select coalesce(nullif(u.name, ''), u.email) as name, u.email from "user" u where u.id = ${userId}`,
  );
  if (!account) return null;
  const log = await rows<LogRow>(
    db,
    sql`
      select b.id, b.update_type, b.new_balance_cents - b.old_balance_cents as cents,
             to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, b.notes, b.royalty_import_id,
             w.status as withdrawal_status
        from balance_updates_log b
        left join withdrawal_requests w on w.id = b.withdrawal_request_id
       where b.user_id = ${userId} and b.created_at >= ${start} and b.created_at < ${end}
       order by b.created_at, b.id`,
  );
  if (log.length === 0) return null;
  // The month's opening and closing balances are the journal's (issue 36, record 259); the log explains them.
  const { startCents: openingCents, endCents: closingCents } = await payableCentsAt(
    db,
    userId,
    monthStart(period),
    monthStart(period, 1),
  );

  const postedIds = postedImportIds(log);
  const postings = postedIds.length
    ? await rows<{
        grossCents: string | number;
        splitOutCents: string | number;
        splitInCents: string | number;
        feeCents: string | number;
        feePercent: string | null;
        importId: string;
      }>(
        db,
        sql`
          select (trunc(amount_usd, 2) * 100)::bigint as gross_cents, split_out_cents, split_in_cents, fee_cents,
                 trim_scale(fee_percent)::text as fee_percent, import_id::text as import_id
            from royalty_postings
           where user_id = ${userId} and import_id in ${idList(postedIds)}`,
      )
    : [];
  const found = postedIds.length
    ? await rows<DetailRow>(
        db,
        sql`
          select e.period as sales_period, e.store, e.country, e.usage_type, r.title as release_title, r.upc,
                 t.title as track_title, t.isrc, trim_scale(sum(e.units))::text as units,
                 trim_scale(sum(e.amount_usd))::text as amount, count(*) as lines,
                 r.artist_profile_id::text as artist_profile_id
            from royalty_earnings e
            left join tracks t on t.id = e.track_id
            left join releases r on r.id = e.release_id
           where e.user_id = ${userId} and e.import_id in ${idList(postedIds)}
           group by e.period, e.store, e.country, e.usage_type, r.title, r.upc, t.title, t.isrc, r.artist_profile_id
           order by sum(e.amount_usd) desc, e.period, e.store, e.country, t.title`,
      )
    : [];
  // Each report's earnings per artist profile, to share its fee among the profiles (record 235).
  const profileAmounts =
    artistProfile && postedIds.length
      ? await rows<StatementData['profileAmounts'][number]>(
          db,
          sql`
          select e.import_id::text as import_id, r.artist_profile_id::text as artist_profile_id,
                 trim_scale(sum(e.amount_usd))::text as amount
            from royalty_earnings e
            left join releases r on r.id = e.release_id
           where e.user_id = ${userId} and e.import_id in ${idList(postedIds)}
           group by e.import_id, r.artist_profile_id`,
        )
      : [];

  // Split shares: those this month's postings moved, and held shares released to this payee this month.
  const shareSources = await rows<ShareSource>(
    db,
    sql`
      select a.import_id, a.payee_id, a.owner_id, a.release_id, a.track_id, 'to' as direction, p.email as party, r.title as release_title,
             t.title as track_title, t.isrc, a.percent::text as percent, trim_scale(a.amount_usd)::text as amount,
             s.held, s.cents as settlement_cents, false as is_released, a.period,
             r.artist_profile_id::text as artist_profile_id
        from split_allocations a
        join split_payees p on p.id = a.payee_id
        join split_settlements s on s.import_id = a.import_id and s.payee_id = a.payee_id
        left join releases r on r.id = a.release_id
        left join tracks t on t.id = a.track_id
       where a.owner_id = ${userId} and a.kind = 'share'
         and a.import_id in ${idList(postedIds)}
      union all
      select a.import_id, a.payee_id, a.owner_id, a.release_id, a.track_id, 'from', u.email, r.title, t.title, t.isrc,
             a.percent::text, trim_scale(a.amount_usd)::text, s.held, s.cents,
             s.released_to = 'payee' and s.released_at >= ${start} and s.released_at < ${end}, a.period,
             null
        from split_payees p
        join split_allocations a on a.payee_id = p.id and a.kind = 'share'
        join split_settlements s on s.import_id = a.import_id and s.payee_id = a.payee_id
        left join "user" u on u.id = a.owner_id
        left join releases r on r.id = a.release_id
        left join tracks t on t.id = a.track_id
       where p.user_id = ${userId}
         and ((not s.held and a.import_id in ${idList(postedIds)})
              or (s.released_to = 'payee' and s.released_at >= ${start} and s.released_at < ${end}))`,
  );
  // The owners' lines behind the shares received, to spread each share over its stores and countries.
  const received = shareSources.filter((source) => source.direction === 'from');
  const receivedLines = received.length
    ? await rows<ReceivedLine>(
        db,
        sql`
      select import_id, user_id, release_id, track_id, period, store, country,
             round(sum(amount_usd) / nullif(sum(sum(amount_usd)) over (
               partition by import_id, user_id, release_id, track_id, period), 0), 12)::text as fraction
        from royalty_earnings
       where import_id in ${idList([...new Set(received.map((source) => source.importId))])}
         and user_id in (select jsonb_array_elements_text(${JSON.stringify([
           ...new Set(received.map((source) => source.ownerId)),
         ])}::jsonb))
       group by import_id, user_id, release_id, track_id, period, store, country`,
      )
    : [];

  const issuer = await readStatementIssuer(db);
  return {
    reserves: await reserveSummary(db, userId, period),
    period,
    artistProfile: artistProfile ?? null,
    account: { ...account, openingCents, closingCents },
    log,
    postings,
    profileAmounts,
    found,
    shareSources,
    receivedLines,
    issuer: { legalName: issuer.legalName, address: issuer.address },
  };
}
