/**
 * Split shares on a statement (records 318, 190, 235): each settlement's whole cents shared over its
 * allocations, the rows of shares paid and received, and where received shares came from (store, country,
 * track of the owner's earnings). Pure, like statement-compose.ts, which uses them.
 */
import { centsAddingUpTo, multiplyDecimal, sumDecimals } from '@tunedrop/shared/money';
import type { StatementAmountRow, StatementShareRow } from '@tunedrop/shared/schemas/royalty-statements';

/** "1.5" → "-1.5", "-1.5" → "1.5". */
const negated = (text: string) => (text.startsWith('-') ? text.slice(1) : `-${text}`);

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
  /** The owner's release's artist profile on a share paid ('to'); null on a share received (record 235). */
  artistProfileId: string | null;
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

/**
 * Share rows in whole cents: each settlement's cents shared over its allocations, then summed per source. A
 * profile's view keeps the sources `isShown` accepts, with the cents the account's statement gives them.
 */
export function shareRows(sources: ShareSource[], isShown: (source: ShareSource) => boolean = () => true) {
  const centsOf = sourceCents(sources);
  const summed = new Map<string, StatementShareRow & { exacts: string[] }>();
  for (const source of sources.filter(isShown)) {
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
export function receivedShareBreakdown(sources: ShareSource[], lines: ReceivedLine[]) {
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
    const exacts = own.map((line) => multiplyDecimal(line.fraction, source.amount));
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
        exact: sumDecimals(entry.exacts),
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
