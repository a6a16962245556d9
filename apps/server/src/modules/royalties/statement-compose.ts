/**
 * One royalty statement composed from the rows statement.ts reads (issue 25, record 190): the changes to an
 * account's balance in one calendar month (UTC), explained by what caused them. Pure (no database), so a
 * statement worker thread runs it off the request's event loop (record 208); the CSV, the PDF and the page
 * all read the one object it returns.
 */

import { formatScaled, parseScaled } from '@tunedrop/shared/money';
import type {
  RoyaltyStatement,
  StatementAmountRow,
  StatementMovementRow,
  StatementShareRow,
} from '@tunedrop/shared/schemas/royalty-statements';
import { centsAddingUpTo, sumDecimals } from './statement-cents';

/** Balance-log types that are withdrawals (and their refunds), and those that are the operator's adjustments. */
const WITHDRAWAL_TYPES = new Set(['withdrawal_request', 'withdrawal_cancel', 'withdrawal_refund']);
const ADJUSTMENT_TYPES = new Set(['manual', 'bulk_csv', 'cli']);

/** "1.5" → "-1.5", "-1.5" → "1.5". */
const negated = (text: string) => (text.startsWith('-') ? text.slice(1) : `-${text}`);

export type LogRow = {
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

export type ShareSource = {
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

export type DetailRow = {
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

/** The owner's earnings lines a received share came from, grouped by store and country (statement.ts reads them). */
export type ReceivedLine = {
  importId: string;
  userId: string;
  releaseId: string | null;
  trackId: string | null;
  period: string;
  store: string | null;
  country: string | null;
  fraction: string;
};

/**
 * A payee's shares received, by the store, country and track of the owner's earnings they came from: each
 * share's cents spread over the owner's lines of the same report, release, track and sales month in
 * proportion to their amounts, so every breakdown adds up to the shares received.
 */
function receivedShareBreakdown(sources: ShareSource[], lines: ReceivedLine[]) {
  const received = sources.filter((source) => source.direction === 'from');
  if (received.length === 0) return null;
  const centsOf = sourceCents(sources);
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

/** What statement.ts reads from the database for one statement: plain rows, so they pass to a worker thread. */
export type StatementData = {
  period: string;
  /** One artist profile's view (record 201): its earnings only; the balance stays the account's. */
  artistProfile: { id: string; name: string } | null;
  account: { name: string; email: string; balanceCents: string | number | null; laterCents: string | number };
  /** The month's balance-log rows, oldest first (never empty). */
  log: LogRow[];
  postings: {
    grossCents: string | number;
    splitOutCents: string | number;
    splitInCents: string | number;
    feeCents: string | number;
    feePercent: string | null;
  }[];
  /** The earnings lines of the month's postings, grouped (DetailRow), largest amount first. */
  found: DetailRow[];
  shareSources: ShareSource[];
  /** The owners' lines behind the shares received; empty when none were received. */
  receivedLines: ReceivedLine[];
  issuer: { legalName: string; address: string };
};

/** The month's royalty postings (the rows that credited reports). */
export const postedImportIds = (log: LogRow[]) => [
  ...new Set(
    log
      .filter((row) => row.updateType === 'royalty_import' && row.royaltyImportId)
      .map((row) => row.royaltyImportId as string),
  ),
];

/** A profile's view keeps the lines of its releases, each with the cents the account's statement gives it. */
const isOfProfile =
  (artistProfile: StatementData['artistProfile']) => (row: { artistProfileId: string | null }) =>
    !artistProfile || row.artistProfileId === artistProfile.id;

/** The sales months a statement covers: its earnings lines' and its split shares'. */
export function statementSalesPeriods(data: Pick<StatementData, 'artistProfile' | 'found' | 'shareSources'>) {
  return [
    ...new Set([
      ...data.found.filter(isOfProfile(data.artistProfile)).map((row) => row.salesPeriod),
      ...data.shareSources.map((row) => row.period),
    ]),
  ].sort();
}

/** The statement of the rows read: opening + every row = closing, to the cent. */
export function composeStatement(data: StatementData): StatementWithDetails {
  const { period, artistProfile, account, log, postings, found, shareSources } = data;
  // Anchored on today's balance: every later change taken back gives the month's closing balance.
  const closingCents = Number(account.balanceCents ?? 0) - Number(account.laterCents);
  const changeCents = log.reduce((sum, row) => sum + Number(row.cents), 0);
  const openingCents = closingCents - changeCents;

  const postingCents = log
    .filter((row) => row.updateType === 'royalty_import')
    .reduce((sum, row) => sum + Number(row.cents), 0);
  const grossCents = postings.reduce((sum, row) => sum + Number(row.grossCents), 0);
  const splitOutCents = postings.reduce((sum, row) => sum + Number(row.splitOutCents), 0);
  const splitInCents = postings.reduce((sum, row) => sum + Number(row.splitInCents), 0);
  // The operator's fee, taken from the gross before splits at posting (record 189), as a deduction.
  const feeCents = -postings.reduce((sum, row) => sum + Number(row.feeCents), 0);
  const feePercents = [
    ...new Set(postings.filter((row) => Number(row.feeCents) !== 0).map((row) => row.feePercent ?? '')),
  ];

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
  const ofProfile = isOfProfile(artistProfile);
  const details = allDetails.filter(ofProfile);
  const profileFound = found.filter(ofProfile);

  const shares = shareRows(shareSources);
  const sharesReceived = receivedShareBreakdown(shareSources, data.receivedLines);

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

  return {
    period,
    issuer: { legalName: data.issuer.legalName, address: data.issuer.address },
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
