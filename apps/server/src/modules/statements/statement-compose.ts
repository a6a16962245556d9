/**
 * One royalty statement composed from the rows statement.ts reads (issue 25, record 190): the changes to an
 * account's balance in one calendar month (UTC), explained by what caused them. Pure (no database), so a
 * statement worker thread runs it off the request's event loop (record 208); the CSV, the PDF and the page
 * all read the one object it returns.
 */

import {
  allocateLargestRemainder,
  centsAddingUpTo,
  sumDecimals,
  unitsAtCommonScale,
} from '@tunedrop/shared/money';
import type {
  RoyaltyStatement,
  StatementAmountRow,
  StatementMovementRow,
  StatementReserves,
} from '@tunedrop/shared/schemas/royalty-statements';
import {
  type ReceivedLine,
  receivedShareBreakdown,
  type ShareSource,
  shareRows,
  trackLabel,
} from './statement-shares';

export type { ReceivedLine, ShareSource } from './statement-shares';

/** Balance-log types that are withdrawals (and their refunds), and those that are the operator's adjustments. */
const WITHDRAWAL_TYPES = new Set(['withdrawal_request', 'withdrawal_cancel', 'withdrawal_refund']);
const ADJUSTMENT_TYPES = new Set(['manual', 'bulk_csv', 'cli']);

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

export type StatementWithDetails = RoyaltyStatement & { details: StatementDetailRow[] };

/** What statement.ts reads from the database for one statement: plain rows, so they pass to a worker thread. */
export type StatementData = {
  period: string;
  /** One artist profile's view (record 201): its earnings only; the balance stays the account's. */
  artistProfile: { id: string; name: string } | null;
  /** Its opening and closing balances are the journal's (record 259). */
  account: { name: string; email: string; openingCents: number; closingCents: number };
  /** The month's balance-log rows, oldest first (never empty). */
  log: LogRow[];
  postings: {
    grossCents: string | number;
    splitOutCents: string | number;
    splitInCents: string | number;
    feeCents: string | number;
    feePercent: string | null;
    importId: string;
  }[];
  /** Each posted report's exact earnings per artist profile of the account's releases (record 235). */
  profileAmounts: { importId: string; artistProfileId: string | null; amount: string }[];
  /** The earnings lines of the month's postings, grouped (DetailRow), largest amount first. */
  found: DetailRow[];
  shareSources: ShareSource[];
  /** The owners' lines behind the shares received; empty when none were received. */
  receivedLines: ReceivedLine[];
  issuer: { legalName: string; address: string };
  /** The account's contract reserves in the month (record 287); null when it never had one. */
  reserves?: StatementReserves | null;
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
  const { period, artistProfile, log, postings, found, shareSources } = data;
  // The balances are the journal's sums at the month's bounds; the log's rows explain the change between them.
  const { openingCents, closingCents } = data.account;
  const loggedCents = log.reduce((sum, row) => sum + Number(row.cents), 0);

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
  // The books moved by more (or less) than the history explains: shown, so the statement still adds up
  // (ledger:verify names the difference).
  if (closingCents - openingCents !== loggedCents) {
    adjustments.push({
      date: `${period}-01`,
      description: 'Balance change on the books not in the balance history',
      cents: closingCents - openingCents - loggedCents,
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

  const account: StatementWithDetails = {
    period,
    issuer: { legalName: data.issuer.legalName, address: data.issuer.address },
    account: { name: data.account.name, email: data.account.email },
    salesPeriods: [
      ...new Set([...details.map((row) => row.salesPeriod), ...shareSources.map((row) => row.period)]),
    ].sort(),
    openingCents,
    earnings: {
      grossCents: shownGrossCents,
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
    ...(data.reserves ? { reserves: data.reserves } : {}),
    details,
  };
  if (!artistProfile) return account;

  // One profile's view (record 235): its lines, its part of each report's fee, the shares paid on its
  // releases and its net; what no profile earned (shares received, other credits) is the account's.
  const profileGrossCents = details.reduce((sum, row) => sum + row.cents, 0);
  const profileFee = -Number(profileFeeCents(postings, data.profileAmounts, artistProfile.id));
  const profileShares = shareRows(
    shareSources,
    (source) => source.direction === 'to' && source.artistProfileId === artistProfile.id,
  );
  const profileNetCents =
    profileGrossCents + profileFee + profileShares.reduce((sum, row) => sum + row.cents, 0);
  return {
    ...account,
    artistProfile,
    salesPeriods: [
      ...new Set([
        ...details.map((row) => row.salesPeriod),
        ...shareSources
          .filter((source) => source.artistProfileId === artistProfile.id)
          .map((row) => row.period),
      ]),
    ].sort(),
    earnings: { ...account.earnings, grossCents: profileGrossCents },
    feeCents: profileFee,
    shares: profileShares,
    sharesReceived: null,
    otherEarnings: [],
    netEarningsCents: profileNetCents,
    outsideProfileCents: netEarningsCents - profileNetCents,
  };
}

/**
 * A profile's part of the month's fee (record 235): each report's fee cents shared over the account's artist
 * profiles in proportion to their exact earnings in it (largest remainder), so the profiles' fees add up to
 * the account's to the cent. A report whose lines are all of no profile keeps its fee on the account.
 */
function profileFeeCents(
  postings: StatementData['postings'],
  amounts: StatementData['profileAmounts'],
  profileId: string,
): bigint {
  let total = 0n;
  for (const posting of postings) {
    const fee = BigInt(posting.feeCents);
    const parts = amounts.filter((row) => row.importId === posting.importId && row.artistProfileId);
    const index = parts.findIndex((row) => row.artistProfileId === profileId);
    if (fee === 0n || index < 0) continue;
    // Returns can make a profile's month negative: it then bears none of the fee, taken on positive gross.
    let weights = unitsAtCommonScale(parts.map((row) => row.amount)).map((units) =>
      units > 0n ? units : 0n,
    );
    if (weights.every((weight) => weight === 0n)) weights = weights.map(() => 1n);
    total += allocateLargestRemainder(fee, weights)[index] ?? 0n;
  }
  return total;
}

/** Without the CSV's detail rows: what the page shows. */
export function statementSummary({
  details: _details,
  ...statement
}: StatementWithDetails): RoyaltyStatement {
  return statement;
}
