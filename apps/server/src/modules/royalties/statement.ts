/**
 * One royalty statement (issue 25, record 190): the changes to an account's balance in one calendar month
 * (UTC), read from the balance log and explained by what caused them. Opening balance, gross earnings of the
 * reports posted (by store, country and track, in whole cents that add up to what was credited), the
 * operator's fee, split shares paid and received with their release and track, withdrawals, adjustments and
 * the closing balance: opening + every row = closing, to the cent. The CSV, the PDF and the page all read
 * this one object.
 */

import { formatScaled, parseScaled } from '@tunedrop/shared/money';
import type {
  RoyaltyStatement,
  StatementAmountRow,
  StatementMovementRow,
  StatementShareRow,
} from '@tunedrop/shared/schemas/royalty-statements';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { firstRow, rows } from '../../lib/sql';
import { centsAddingUpTo, sumDecimals } from './statement-cents';
import { readStatementIssuer } from './statement-issuer';

/** Balance-log types that are withdrawals (and their refunds), and those that are the operator's adjustments. */
const WITHDRAWAL_TYPES = new Set(['withdrawal_request', 'withdrawal_cancel', 'withdrawal_refund']);
const ADJUSTMENT_TYPES = new Set(['manual', 'bulk_csv', 'cli']);

/** The month's first instant and the next month's, in UTC. */
function monthBounds(period: string) {
  const start = sql`((${period} || '-01')::date::timestamp at time zone 'UTC')`;
  return { start, end: sql`(${start} + interval '1 month')` };
}

/** `x in ${idList(ids)}`: a list of uuids passed as one JSON parameter. */
const idList = (ids: readonly string[]) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`;

/** "1.5" → "-1.5", "-1.5" → "1.5". */
const negated = (text: string) => (text.startsWith('-') ? text.slice(1) : `-${text}`);

type LogRow = {
  id: string;
  updateType: string;
  cents: string | number;
  day: string;
  notes: string | null;
  royaltyImportId: string | null;
  withdrawalStatus: string | null;
};

function movementDescription(row: LogRow): string {
  switch (row.updateType) {
    case 'withdrawal_request':
      return `Withdrawal requested${row.withdrawalStatus ? ` (${row.withdrawalStatus})` : ''}`;
    case 'withdrawal_cancel':
      return 'Withdrawal cancelled, amount restored';
    case 'withdrawal_refund':
      return 'Withdrawal rejected, amount refunded';
    case 'bulk_csv':
      return 'Balance adjustment (bulk CSV)';
    case 'cli':
      return row.notes ? `Balance adjustment: ${row.notes}` : 'Balance adjustment';
    case 'manual':
      return 'Balance adjustment by the operator';
    default:
      return row.notes ?? 'Other balance change';
  }
}

type ShareSource = {
  importId: string;
  payeeId: string;
  ownerId: string;
  releaseId: string | null;
  trackId: string | null;
  direction: 'to' | 'from';
  party: string;
  releaseTitle: string | null;
  trackTitle: string | null;
  isrc: string | null;
  percent: string;
  amount: string;
  held: boolean;
  settlementCents: string | number;
  isReleased: boolean;
  period: string;
};

/** Each source's whole cents (unsigned): its settlement's cents shared over the settlement's allocations. */
function sourceCents(sources: ShareSource[]): Map<ShareSource, bigint> {
  const bySettlement = new Map<string, ShareSource[]>();
  for (const source of sources) {
    const key = `${source.importId}/${source.payeeId}/${source.direction}/${source.isReleased}`;
    bySettlement.set(key, [...(bySettlement.get(key) ?? []), source]);
  }
  const centsOf = new Map<ShareSource, bigint>();
  for (const group of bySettlement.values()) {
    const first = group[0];
    if (!first) continue;
    const cents = centsAddingUpTo(
      group.map((source) => source.amount),
      BigInt(first.settlementCents),
    );
    group.forEach((source, index) => {
      centsOf.set(source, cents[index] ?? 0n);
    });
  }
  return centsOf;
}

/** Share rows in whole cents: each settlement's cents shared over its allocations, then summed per source. */
function shareRows(sources: ShareSource[]): StatementShareRow[] {
  const centsOf = sourceCents(sources);
  const summed = new Map<string, StatementShareRow & { exacts: string[] }>();
  for (const source of sources) {
    const sign = source.direction === 'to' ? -1n : 1n;
    const note = source.isReleased ? 'released' : source.direction === 'to' && source.held ? 'held' : null;
    const key = JSON.stringify([
      source.direction,
      source.party,
      source.releaseTitle,
      source.trackTitle,
      source.isrc,
      source.percent,
      note,
    ]);
    const row = summed.get(key) ?? {
      direction: source.direction,
      party: source.party,
      releaseTitle: source.releaseTitle,
      trackTitle: source.trackTitle,
      isrc: source.isrc,
      percent: source.percent,
      note,
      cents: 0,
      exact: '0',
      exacts: [],
    };
    row.cents += Number(sign * (centsOf.get(source) ?? 0n));
    row.exacts.push(sign < 0n ? negated(source.amount) : source.amount);
    summed.set(key, row);
  }
  return [...summed.values()]
    .map(({ exacts, ...row }) => ({ ...row, exact: sumDecimals(exacts) }))
    .sort((a, b) =>
      a.direction !== b.direction
        ? a.direction === 'to'
          ? -1
          : 1
        : `${a.party}${a.releaseTitle}${a.trackTitle}`.localeCompare(
            `${b.party}${b.releaseTitle}${b.trackTitle}`,
          ),
    );
}

type DetailRow = {
  salesPeriod: string;
  store: string | null;
  country: string | null;
  usageType: string | null;
  releaseTitle: string | null;
  upc: string | null;
  trackTitle: string | null;
  isrc: string | null;
  units: string;
  amount: string;
  lines: string | number;
  /** The release's artist profile (record 201). */
  artistProfileId: string | null;
};

/** The statement's earnings lines grouped to one row per sales month, store, country, usage and track. */
export type StatementDetailRow = Omit<DetailRow, 'lines'> & { cents: number };

function breakdown(details: StatementDetailRow[], labelOf: (row: StatementDetailRow) => string) {
  const byLabel = new Map<string, { units: string[]; exacts: string[]; cents: number }>();
  for (const row of details) {
    const label = labelOf(row);
    const entry = byLabel.get(label) ?? { units: [], exacts: [], cents: 0 };
    entry.units.push(row.units);
    entry.exacts.push(row.amount);
    entry.cents += row.cents;
    byLabel.set(label, entry);
  }
  return [...byLabel.entries()]
    .map(
      ([label, entry]): StatementAmountRow => ({
        label,
        units: sumDecimals(entry.units),
        cents: entry.cents,
        exact: sumDecimals(entry.exacts),
      }),
    )
    .sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label));
}

/**
 * A payee's shares received, by the store, country and track of the owner's earnings they came from: each
 * share's cents spread over the owner's lines of the same report, release, track and sales month in
 * proportion to their amounts, so every breakdown adds up to the shares received.
 */
async function receivedShareBreakdown(db: DbOrTx, sources: ShareSource[]) {
  const received = sources.filter((source) => source.direction === 'from');
  if (received.length === 0) return null;
  const centsOf = sourceCents(sources);
  const lines = await rows<{
    importId: string;
    userId: string;
    releaseId: string | null;
    trackId: string | null;
    period: string;
    store: string | null;
    country: string | null;
    fraction: string;
  }>(
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
  );
  const byStore = new Map<string, { cents: bigint; exacts: string[] }>();
  const byCountry = new Map<string, { cents: bigint; exacts: string[] }>();
  const byTrack = new Map<string, { cents: bigint; exacts: string[] }>();
  const add = (map: typeof byStore, label: string, cents: bigint, exact: string) => {
    const entry = map.get(label) ?? { cents: 0n, exacts: [] };
    entry.cents += cents;
    entry.exacts.push(exact);
    map.set(label, entry);
  };
  for (const source of received) {
    const cents = centsOf.get(source) ?? 0n;
    add(byTrack, trackLabel(source), cents, source.amount);
    const own = lines.filter(
      (line) =>
        line.importId === source.importId &&
        line.userId === source.ownerId &&
        line.releaseId === source.releaseId &&
        line.trackId === source.trackId &&
        line.period === source.period &&
        line.fraction !== null,
    );
    // Each line's exact part of the source's amount: fraction × amount (trailing zeros trimmed).
    const amount = parseScaled(source.amount) ?? { units: 0n, scale: 0 };
    const exacts = own.map((line) => {
      const fraction = parseScaled(line.fraction) ?? { units: 0n, scale: 0 };
      return formatScaled({ units: fraction.units * amount.units, scale: fraction.scale + amount.scale });
    });
    const spread = own.length > 0 ? centsAddingUpTo(exacts, cents) : [];
    if (own.length === 0) {
      add(byStore, 'Unknown store', cents, source.amount);
      add(byCountry, 'Unknown', cents, source.amount);
    }
    own.forEach((line, index) => {
      add(byStore, line.store ?? 'Unknown store', spread[index] ?? 0n, exacts[index] ?? '0');
      add(byCountry, line.country ?? 'Unknown', spread[index] ?? 0n, exacts[index] ?? '0');
    });
  }
  const amountRows = (map: typeof byStore): StatementAmountRow[] =>
    [...map.entries()]
      .map(([label, entry]) => ({
        label,
        units: '',
        cents: Number(entry.cents),
        exact: sumDecimals(entry.exacts)
          .replace(/(\.\d*?)0+$/, '$1')
          .replace(/\.$/, ''),
      }))
      .sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label));
  return { byStore: amountRows(byStore), byCountry: amountRows(byCountry), byTrack: amountRows(byTrack) };
}

export const trackLabel = (row: {
  trackTitle: string | null;
  isrc: string | null;
  releaseTitle: string | null;
}) =>
  row.trackTitle ? `${row.trackTitle}${row.isrc ? ` (${row.isrc})` : ''}` : (row.releaseTitle ?? 'Unknown');

export type StatementWithDetails = RoyaltyStatement & { details: StatementDetailRow[] };

/** The statement of `period` (YYYY-MM), or null when the balance did not change that month. */
export async function buildStatement(
  db: DbOrTx,
  userId: string,
  period: string,
  /** One artist profile's view (record 201): its earnings only; the balance stays the account's. */
  artistProfile?: { id: string; name: string } | null,
): Promise<StatementWithDetails | null> {
  const { start, end } = monthBounds(period);
  const account = await firstRow<{
    name: string;
    email: string;
    balanceCents: string | number | null;
    laterCents: string | number;
  }>(
    db,
    sql`
      select coalesce(nullif(u.name, ''), u.email) as name, u.email, p.balance_cents,
             (select coalesce(sum(b.new_balance_cents - b.old_balance_cents), 0) from balance_updates_log b
               where b.user_id = u.id and b.created_at >= ${end}) as later_cents
        from "user" u left join profiles p on p.id = u.id
       where u.id = ${userId}`,
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

  // Anchored on today's balance: every later change taken back gives the month's closing balance.
  const closingCents = Number(account.balanceCents ?? 0) - Number(account.laterCents);
  const changeCents = log.reduce((sum, row) => sum + Number(row.cents), 0);
  const openingCents = closingCents - changeCents;

  const postedIds = [
    ...new Set(
      log
        .filter((row) => row.updateType === 'royalty_import' && row.royaltyImportId)
        .map((row) => row.royaltyImportId as string),
    ),
  ];
  const postingCents = log
    .filter((row) => row.updateType === 'royalty_import')
    .reduce((sum, row) => sum + Number(row.cents), 0);

  const postings = postedIds.length
    ? await rows<{
        grossCents: string | number;
        splitOutCents: string | number;
        splitInCents: string | number;
        feeCents: string | number;
        feePercent: string | null;
      }>(
        db,
        sql`
          select (trunc(amount_usd, 2) * 100)::bigint as gross_cents, split_out_cents, split_in_cents, fee_cents,
                 trim_scale(fee_percent)::text as fee_percent
            from royalty_postings
           where user_id = ${userId} and import_id in ${idList(postedIds)}`,
      )
    : [];
  const grossCents = postings.reduce((sum, row) => sum + Number(row.grossCents), 0);
  const splitOutCents = postings.reduce((sum, row) => sum + Number(row.splitOutCents), 0);
  const splitInCents = postings.reduce((sum, row) => sum + Number(row.splitInCents), 0);
  // The operator's fee, taken from the gross before splits at posting (record 189), as a deduction.
  const feeCents = -postings.reduce((sum, row) => sum + Number(row.feeCents), 0);
  const feePercents = [
    ...new Set(postings.filter((row) => Number(row.feeCents) !== 0).map((row) => row.feePercent ?? '')),
  ];

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
  // A posting's gross always has its earnings lines; were they missing, its money would show below as an
  // unexplained difference rather than fail the statement.
  const shownGrossCents = found.length > 0 ? grossCents : 0;
  const detailCents = centsAddingUpTo(
    found.map((row) => row.amount),
    BigInt(shownGrossCents),
  );
  const allDetails: StatementDetailRow[] = found.map(({ lines: _lines, ...row }, index) => ({
    ...row,
    cents: Number(detailCents[index] ?? 0n),
  }));
  // A profile's view keeps the lines of its releases, each with the cents the account's statement gives it.
  const isOfProfile = (row: { artistProfileId: string | null }) =>
    !artistProfile || row.artistProfileId === artistProfile.id;
  const details = allDetails.filter(isOfProfile);
  const profileFound = found.filter(isOfProfile);

  // Split shares: those this month's postings moved, and held shares released to this payee this month.
  const shareSources = await rows<ShareSource>(
    db,
    sql`
      select a.import_id, a.payee_id, a.owner_id, a.release_id, a.track_id, 'to' as direction, p.email as party, r.title as release_title,
             t.title as track_title, t.isrc, a.percent::text as percent, trim_scale(a.amount_usd)::text as amount,
             s.held, s.cents as settlement_cents, false as is_released, a.period
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
             s.released_to = 'payee' and s.released_at >= ${start} and s.released_at < ${end}, a.period
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
  const shares = shareRows(shareSources);
  const sharesReceived = await receivedShareBreakdown(db, shareSources);

  const otherEarnings: StatementMovementRow[] = [];
  const withdrawals: StatementMovementRow[] = [];
  const adjustments: StatementMovementRow[] = [];
  let releasedCents = 0;
  for (const row of log) {
    const movement = { date: row.day, description: movementDescription(row), cents: Number(row.cents) };
    if (row.updateType === 'royalty_import') continue;
    if (row.updateType === 'split_release') releasedCents += movement.cents;
    else if (WITHDRAWAL_TYPES.has(row.updateType)) withdrawals.push(movement);
    else if (ADJUSTMENT_TYPES.has(row.updateType)) adjustments.push(movement);
    else otherEarnings.push(movement);
  }
  // Anything the postings credited that gross, fee and shares do not explain is shown, never hidden.
  const unexplainedCents = postingCents - (shownGrossCents + feeCents - splitOutCents + splitInCents);
  if (unexplainedCents !== 0) {
    otherEarnings.push({
      date: `${period}-01`,
      description: 'Other posting differences',
      cents: unexplainedCents,
    });
  }
  const releasedShareCents = shares
    .filter((row) => row.note === 'released')
    .reduce((sum, row) => sum + row.cents, 0);
  if (releasedCents !== releasedShareCents) {
    otherEarnings.push({
      date: `${period}-01`,
      description: 'Held split shares released (not itemised)',
      cents: releasedCents - releasedShareCents,
    });
  }
  const netEarningsCents =
    shownGrossCents +
    feeCents +
    shares.reduce((sum, row) => sum + row.cents, 0) +
    otherEarnings.reduce((sum, row) => sum + row.cents, 0);

  const issuer = await readStatementIssuer(db);
  return {
    period,
    issuer: { legalName: issuer.legalName, address: issuer.address },
    account: { name: account.name, email: account.email },
    salesPeriods: [
      ...new Set([...details.map((row) => row.salesPeriod), ...shareSources.map((row) => row.period)]),
    ].sort(),
    openingCents,
    ...(artistProfile ? { artistProfile } : {}),
    earnings: {
      grossCents: artistProfile ? details.reduce((sum, row) => sum + row.cents, 0) : shownGrossCents,
      grossExact: sumDecimals(profileFound.map((row) => row.amount)),
      lines: profileFound.reduce((sum, row) => sum + Number(row.lines), 0),
      units: sumDecimals(profileFound.map((row) => row.units)),
      byStore: breakdown(details, (row) => row.store ?? 'Unknown store'),
      byCountry: breakdown(details, (row) => row.country ?? 'Unknown'),
      byTrack: breakdown(details, trackLabel),
    },
    feeCents,
    feePercent: feePercents.length === 1 ? (feePercents[0] ?? null) || null : null,
    shares,
    sharesReceived,
    otherEarnings,
    netEarningsCents,
    withdrawals,
    adjustments,
    closingCents,
    details,
  };
}

/** Without the CSV's detail rows: what the page shows. */
export function statementSummary({
  details: _details,
  ...statement
}: StatementWithDetails): RoyaltyStatement {
  return statement;
}
