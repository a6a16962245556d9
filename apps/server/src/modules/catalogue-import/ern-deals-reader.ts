/**
 * What an ERN 4.3 DealList says about where, when and at which stores the main release is on sale
 * (issue 44 finding 2, record 233): the territories (TerritoryCode, ExcludedTerritoryCode), the start
 * (StartDate: local midnight; StartDateTime: one moment worldwide), the stores (DistributionChannel's
 * proprietary ids, as Tunedrop's own export writes them) and whether any deal is still open. The inverse
 * of modules/ddex/deals.ts, so an export of ours reads back as it was.
 */
import { PLATFORM_IDS } from '@tunedrop/shared';
import type { SourceStoreState } from '@tunedrop/shared/schemas/catalogue-import';
import { isTimeZone } from '@tunedrop/shared/schemas/release-availability';
import type { SourceAvailability } from './source';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const raw = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
const list = (value: unknown): Node[] => raw(value).map((item) => (isNode(item) ? item : {}));
const text = (value: unknown): string | null => {
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === 'string' || typeof value === 'number') {
    const trimmed = String(value).trim();
    return trimmed === '' ? null : trimmed;
  }
  if (isNode(value) && '#text' in value) return text(value['#text']);
  return null;
};
const texts = (value: unknown): string[] => raw(value).flatMap((item) => text(item) ?? []);

function dateOnly(value: string | null): string | null {
  const match = value ? /^(\d{4}-\d{2}-\d{2})/.exec(value) : null;
  return match?.[1] ?? null;
}

/** An xs:dateTime with a zone (Z or ±hh:mm) as an instant; a time without a zone is read as UTC. */
function instantOf(value: string | null): Date | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const withZone = /(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
  const instant = new Date(withZone);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

export type DealsRead = {
  state: SourceStoreState;
  /** The earliest start date of the deals (the release date when the message gives none). */
  firstStart: string | null;
  availability: SourceAvailability;
  /** Platform ids named by the deals' channels; null when no deal names a store we know (every store). */
  stores: string[] | null;
  notes: string[];
};

/** Territories of the deals together: a release is on sale wherever any of its deals applies. */
function territoriesOf(terms: Node[]): Pick<SourceAvailability, 'territoryMode' | 'territories'> {
  const worldwide = { territoryMode: 'worldwide' as const, territories: [] };
  if (terms.length === 0) return worldwide;
  const included = new Set<string>();
  const excludedLists: string[][] = [];
  for (const term of terms) {
    const codes = texts(term.TerritoryCode).map((code) => code.toUpperCase());
    const without = texts(term.ExcludedTerritoryCode).map((code) => code.toUpperCase());
    if (codes.includes('WORLDWIDE') || (codes.length === 0 && without.length === 0)) return worldwide;
    for (const code of codes) included.add(code);
    if (without.length > 0) excludedLists.push(without);
  }
  const [firstExcluded, ...otherExcluded] = excludedLists;
  if (firstExcluded) {
    // Left out only where every deal leaves it out, and no deal names it.
    const excluded = firstExcluded.filter((code) => otherExcluded.every((codes) => codes.includes(code)));
    const left = [...new Set(excluded)].filter((code) => !included.has(code)).sort();
    return left.length > 0 ? { territoryMode: 'exclude', territories: left } : worldwide;
  }
  return { territoryMode: 'include', territories: [...included].sort() };
}

/**
 * An instant as the builder's wall-clock time on the release date: in UTC when the instant falls on that
 * date there, else in the whole-hour Etc/GMT zone nearest UTC where it does (the instant is what stores
 * receive and is kept exactly; ERN carries no zone name, record 233).
 */
export function momentOnDate(
  releaseDate: string,
  at: Date,
): { releaseTime: string; releaseTimeZone: string } | null {
  const offsets = [0, ...Array.from({ length: 14 }, (_v, index) => [index + 1, -(index + 1)]).flat()];
  for (const hours of offsets) {
    if (hours < -12 || hours > 14) continue;
    const local = new Date(at.getTime() + hours * 3_600_000);
    if (local.toISOString().slice(0, 10) !== releaseDate || local.getUTCSeconds() !== 0) continue;
    // IANA's Etc zones have the sign inverted: Etc/GMT-2 is two hours ahead of UTC.
    const zone = hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
    if (!isTimeZone(zone)) continue;
    return { releaseTime: local.toISOString().slice(11, 16), releaseTimeZone: zone };
  }
  return null;
}

const KNOWN_PLATFORMS = new Set<string>(PLATFORM_IDS);

/** The main release's deals (ERN-CHOREOGRAPHY §5: no deal, or only ended ones, is a takedown). */
export function readDeals(
  dealList: Node,
  release: { reference: string; releaseDate: string | null },
  today: string,
): DealsRead {
  const notes: string[] = [];
  const deals = list(dealList.ReleaseDeal)
    .filter((releaseDeal) => texts(releaseDeal.DealReleaseReference).includes(release.reference))
    .flatMap((releaseDeal) => list(releaseDeal.Deal));
  const terms = deals.map((deal) => (isNode(deal.DealTerms) ? deal.DealTerms : {}));
  const periods = terms.flatMap((term) => list(term.ValidityPeriod));
  const starts = periods
    .map((p) => dateOnly(text(p.StartDate) ?? text(p.StartDateTime)))
    .filter((d): d is string => Boolean(d))
    .sort();
  const firstStart = starts[0] ?? null;
  const isOpen =
    periods.length === 0 ||
    periods.some((p) => {
      const end = dateOnly(text(p.EndDate) ?? text(p.EndDateTime));
      return end === null || end >= today;
    });
  const state: SourceStoreState = deals.length === 0 ? 'taken_down' : isOpen ? 'live' : 'taken_down';

  const availability: SourceAvailability = {
    releaseTimeMode: 'local_midnight',
    releaseTime: null,
    releaseTimeZone: null,
    ...territoriesOf(terms),
  };
  const moments = periods
    .map((p) => instantOf(text(p.StartDateTime)))
    .filter((at): at is Date => at !== null)
    .sort((a, b) => a.getTime() - b.getTime());
  const moment = moments[0];
  const releaseDate = release.releaseDate ?? firstStart;
  if (moment && releaseDate) {
    const wall = momentOnDate(releaseDate, moment);
    if (wall) Object.assign(availability, { releaseTimeMode: 'worldwide_moment', ...wall });
    else
      notes.push(
        `The deals start at ${moment.toISOString()}, more than a day from the release date ${releaseDate}: read as local midnight.`,
      );
  }

  const channelIds = terms.flatMap((term) =>
    list(term.DistributionChannel).flatMap((channel) =>
      list(channel.PartyId).flatMap((id) => texts(id.ProprietaryId)),
    ),
  );
  const known = PLATFORM_IDS.filter((id) => channelIds.includes(id));
  const unknown = [...new Set(channelIds.filter((id) => !KNOWN_PLATFORMS.has(id)))];
  if (known.length > 0 && unknown.length > 0)
    notes.push(`Stores not known here, not kept: ${unknown.join(', ')}`);
  return { state, firstStart, availability, stores: known.length > 0 ? known : null, notes };
}
