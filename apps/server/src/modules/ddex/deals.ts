/**
 * The deals of an ERN 4.3 message (issue 26 findings 6 and 7, records 198 and 319): where and from when a release
 * is on sale (territories and the validity period, shared by every deal of the message, the YouTube
 * profile's included), and the store profile's DealList: one Deal per distinct offer of the chosen
 * stores (`PLATFORM_DEALS`), each naming only the stores that make that offer.
 */
import { PLATFORMS } from '@tunedrop/shared';
import { dealsForPlatforms } from '@tunedrop/shared/platform-deals';
import { el, type XmlElement } from './xml';

/** Where the release is on sale: everywhere (the default), only in these, or everywhere but these. */
export type ErnTerritories =
  | { mode: 'worldwide' }
  | { mode: 'include'; codes: readonly string[] }
  | { mode: 'exclude'; codes: readonly string[] };

/**
 * When the deals start: the release date at local midnight in each territory (the default; ERN StartDate,
 * a date), or one moment worldwide (ERN StartDateTime, an instant in UTC).
 */
export type ErnReleaseStart = { mode: 'local_midnight' } | { mode: 'worldwide_moment'; at: Date };

/** What the deal terms read of a release (ern.ts's ErnRelease has it). */
export type DealScope = {
  releaseDate: string;
  territories?: ErnTerritories;
  releaseStart?: ErnReleaseStart;
};

/** An instant as xs:dateTime in UTC, whole seconds: 2026-12-12T05:00:00Z. */
export const utcDateTime = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * TerritoryCode or ExcludedTerritoryCode (a choice in DealTerms: an excluded list means the whole world
 * but those). An empty list is read as worldwide: a release on sale nowhere is refused where it is typed.
 */
export function territoryTerms(scope: DealScope): XmlElement[] {
  const territories = scope.territories ?? { mode: 'worldwide' };
  if (territories.mode === 'worldwide' || territories.codes.length === 0)
    return [el('TerritoryCode', 'Worldwide')];
  const codes = [...new Set(territories.codes.map((code) => code.toUpperCase()))].sort();
  const name = territories.mode === 'include' ? 'TerritoryCode' : 'ExcludedTerritoryCode';
  return codes.map((code) => el(name, code));
}

/** The ValidityPeriod: from the release date (local midnight) or from the one worldwide moment. */
export function validityPeriod(scope: DealScope, end?: { date: string } | null): XmlElement {
  const start = scope.releaseStart ?? { mode: 'local_midnight' };
  if (start.mode === 'worldwide_moment') {
    const endDateTime = end ? utcDateTime(laterOf(new Date(`${end.date}T00:00:00Z`), start.at)) : null;
    return el(
      'ValidityPeriod',
      el('StartDateTime', utcDateTime(start.at)),
      endDateTime ? el('EndDateTime', endDateTime) : null,
    );
  }
  return el(
    'ValidityPeriod',
    el('StartDate', scope.releaseDate),
    // ISO dates sort as text: never end before the start.
    end ? el('EndDate', [end.date, scope.releaseDate].sort().at(-1) ?? end.date) : null,
  );
}

const laterOf = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

const PLATFORM_NAMES = new Map<string, string>(PLATFORMS.map((platform) => [platform.id, platform.name]));

/**
 * The store profile's DealList for the main release (reference R0): one Deal per distinct offer of the
 * stores, in the order the stores are given; null when no store has a deal (a takedown, choreography §5).
 */
export function storeDealList(
  scope: DealScope & { distributionStores: readonly string[] },
  context: { sender: string; releaseReference: string },
): XmlElement | null {
  const deals = dealsForPlatforms(scope.distributionStores).map(({ offer, platforms }) =>
    el(
      'Deal',
      el(
        'DealTerms',
        ...territoryTerms(scope),
        validityPeriod(scope),
        ...offer.models.map((model) => el('CommercialModelType', model)),
        ...offer.uses.map((use) => el('UseType', use)),
        ...platforms.map((platform) =>
          el(
            'DistributionChannel',
            el('PartyName', el('FullName', PLATFORM_NAMES.get(platform) ?? platform)),
            el('PartyId', el('ProprietaryId', { Namespace: context.sender }, platform)),
          ),
        ),
      ),
    ),
  );
  return deals.length > 0
    ? el('DealList', el('ReleaseDeal', el('DealReleaseReference', context.releaseReference), ...deals))
    : null;
}
