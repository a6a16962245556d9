/**
 * Release time and territories (issue 26 finding 7, decision record 199): when a release goes live and
 * where. One schema for every route that writes them (builder submission, drafts, Edit Release) and the
 * helpers the go-live job, the ERN deals and the pages share.
 *
 * Columns on `releases` (migration 0053):
 * - release_time_mode: 'local_midnight' (default; the release date's 00:00 in each territory) or
 *   'worldwide_moment' (one instant everywhere);
 * - release_time ('HH:MM') and release_time_zone (IANA name): the wall-clock time of that instant on the
 *   release date, as the artist chose it; both null for local midnight;
 * - release_at: the instant itself (timestamptz), null for local midnight;
 * - territory_mode: 'worldwide' (default), 'include' (only these) or 'exclude' (everywhere except these);
 * - territories: ISO 3166-1 alpha-2 codes, upper case, sorted, no duplicates; empty for worldwide.
 */
import { z } from 'zod';
import { safeText } from '../text';
import { COUNTRY_CODES, countryLabel, isCountryCode } from './countries';

export const RELEASE_TIME_MODES = ['local_midnight', 'worldwide_moment'] as const;
export type ReleaseTimeMode = (typeof RELEASE_TIME_MODES)[number];
export const TERRITORY_MODES = ['worldwide', 'include', 'exclude'] as const;
export type TerritoryMode = (typeof TERRITORY_MODES)[number];

export const RELEASE_TIME_MODE_LABELS: Record<ReleaseTimeMode, string> = {
  local_midnight: 'Local midnight in each country',
  worldwide_moment: 'One moment worldwide',
};
export const TERRITORY_MODE_LABELS: Record<TerritoryMode, string> = {
  worldwide: 'Worldwide',
  include: 'Only these countries',
  exclude: 'Everywhere except these countries',
};

// The country list moved to countries.ts (issue 37: files under 450 lines); these names stay importable here.
export { COUNTRIES, COUNTRY_CODES, countryLabel, isCountryCode } from './countries';

export const AVAILABILITY_MESSAGES = {
  releaseTimeModeInvalid: 'Choose when the release goes live: local midnight or one moment worldwide.',
  releaseTimeRequired: 'Enter the time the release goes live everywhere (HH:MM).',
  releaseTimeInvalid: 'Enter the release time as HH:MM, from 00:00 to 23:59.',
  releaseTimeZoneRequired: 'Choose the time zone of the release time.',
  releaseTimeZoneInvalid: 'Unknown time zone. Choose one from the list, for example Europe/Berlin or UTC.',
  releaseTimeNotAllowed: 'A release time and zone are only set with "One moment worldwide".',
  territoryModeInvalid:
    'Choose where the release is available: worldwide, only these countries, or everywhere except these countries.',
  includeEmpty: 'Choose at least one country to release in, or choose Worldwide.',
  excludeEmpty: 'Choose at least one country to leave out, or choose Worldwide.',
  excludeAll: 'Every country is left out: the release would be available nowhere.',
  territoriesNotAllowed:
    'Countries are only listed with "Only these countries" or "Everywhere except these countries".',
  territoriesList: 'Send territories as a list of ISO 3166-1 two-letter codes.',
  tooManyTerritories: 'List each country at most once (249 at most).',
  unknownCodes: (codes: readonly string[]) =>
    `Unknown country ${codes.length === 1 ? 'code' : 'codes'}: ${codes.join(', ')}. Use ISO 3166-1 two-letter codes such as DE or US.`,
} as const;

/** Whether a time zone name is one this runtime knows (IANA names, and UTC). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Time zones to offer: the runtime's IANA list, UTC first. */
export function timeZoneNames(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((zone) => zone !== 'UTC')];
}

const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

/** The zone's offset from UTC in milliseconds at an instant. */
function zoneOffsetMs(instantMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instantMs));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? '0');
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instantMs / 1000) * 1000;
}

/**
 * The instant a wall-clock time on a date has in a zone ("2027-01-15", "00:00", "America/New_York" →
 * 2027-01-15T05:00:00Z). A time skipped by a daylight-saving change is read with the offset before it
 * (02:30 on a spring-forward night becomes 03:30 local); a repeated time takes its first occurrence.
 */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = TIME.exec(time);
  if (!d || !t || !isTimeZone(zone)) throw new Error(`not a date, time and zone: ${date} ${time} ${zone}`);
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  // Two offsets around the wall time cover a change on that day; the earlier matching instant wins.
  const candidates = [zoneOffsetMs(wall - 86_400_000, zone), zoneOffsetMs(wall + 86_400_000, zone)]
    .map((offset) => wall - offset)
    .filter((instant) => wall - zoneOffsetMs(instant, zone) === instant)
    .sort((a, b) => a - b);
  const chosen = candidates[0] ?? wall - zoneOffsetMs(wall - 86_400_000, zone);
  return new Date(chosen);
}

/** The first local midnight of a date anywhere on Earth: 00:00 at UTC+14 (Kiribati), 10:00 UTC the day before. */
export function firstLocalMidnight(date: string): Date {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!d) throw new Error(`not a date: ${date}`);
  return new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])) - 14 * 3_600_000);
}

/** When a release goes live: its instant for one moment worldwide, else the first local midnight of its date. */
export function goLiveAt(release: {
  releaseDate: string;
  releaseTimeMode: ReleaseTimeMode;
  releaseAt: Date | null;
}): Date {
  if (release.releaseTimeMode === 'worldwide_moment' && release.releaseAt) return release.releaseAt;
  return firstLocalMidnight(release.releaseDate);
}

/** What a client sends; missing fields are the defaults (local midnight, worldwide). */
export const releaseAvailabilityInputSchema = z.object({
  releaseTimeMode: z
    .enum(RELEASE_TIME_MODES, { message: AVAILABILITY_MESSAGES.releaseTimeModeInvalid })
    .default('local_midnight'),
  releaseTime: safeText().max(16).nullish(),
  releaseTimeZone: safeText().max(64).nullish(),
  territoryMode: z
    .enum(TERRITORY_MODES, { message: AVAILABILITY_MESSAGES.territoryModeInvalid })
    .default('worldwide'),
  territories: z
    .array(safeText().max(16), { message: AVAILABILITY_MESSAGES.territoriesList })
    .max(300, AVAILABILITY_MESSAGES.tooManyTerritories)
    .default([]),
});

export type ReleaseAvailability = {
  releaseTimeMode: ReleaseTimeMode;
  /** 'HH:MM', or null for local midnight. */
  releaseTime: string | null;
  /** IANA zone, or null for local midnight. */
  releaseTimeZone: string | null;
  territoryMode: TerritoryMode;
  /** Upper-case ISO codes, sorted, no duplicates; empty for worldwide. */
  territories: string[];
};

/**
 * The one rule set (issue 26 finding 7): checked and normalised values, errors keyed by field
 * (releaseTime, releaseTimeZone, territories). Codes are trimmed and upper-cased.
 */
export const releaseAvailabilitySchema = releaseAvailabilityInputSchema.transform(
  (input, context): ReleaseAvailability => {
    const fail = (path: string, message: string) => {
      context.addIssue({ code: 'custom', path: [path], message });
    };
    let releaseTime: string | null = null;
    let releaseTimeZone: string | null = null;
    const time = input.releaseTime?.trim() ?? '';
    const zone = input.releaseTimeZone?.trim() ?? '';
    if (input.releaseTimeMode === 'worldwide_moment') {
      if (!time) fail('releaseTime', AVAILABILITY_MESSAGES.releaseTimeRequired);
      else if (!TIME.test(time)) fail('releaseTime', AVAILABILITY_MESSAGES.releaseTimeInvalid);
      else releaseTime = time;
      if (!zone) fail('releaseTimeZone', AVAILABILITY_MESSAGES.releaseTimeZoneRequired);
      else if (!isTimeZone(zone)) fail('releaseTimeZone', AVAILABILITY_MESSAGES.releaseTimeZoneInvalid);
      else releaseTimeZone = zone;
    } else if (time || zone) {
      fail(time ? 'releaseTime' : 'releaseTimeZone', AVAILABILITY_MESSAGES.releaseTimeNotAllowed);
    }
    const codes = [...new Set(input.territories.map((code) => code.trim().toUpperCase()))].sort();
    const unknown = codes.filter((code) => !isCountryCode(code));
    if (input.territoryMode === 'worldwide') {
      if (codes.length > 0) fail('territories', AVAILABILITY_MESSAGES.territoriesNotAllowed);
    } else if (unknown.length > 0) {
      fail('territories', AVAILABILITY_MESSAGES.unknownCodes(unknown));
    } else if (codes.length === 0) {
      fail(
        'territories',
        input.territoryMode === 'include'
          ? AVAILABILITY_MESSAGES.includeEmpty
          : AVAILABILITY_MESSAGES.excludeEmpty,
      );
    } else if (input.territoryMode === 'exclude' && codes.length === COUNTRY_CODES.length) {
      fail('territories', AVAILABILITY_MESSAGES.excludeAll);
    }
    return {
      releaseTimeMode: input.releaseTimeMode,
      releaseTime,
      releaseTimeZone,
      territoryMode: input.territoryMode,
      territories: input.territoryMode === 'worldwide' ? [] : codes,
    };
  },
);

/** The builder draft's copy (saved as typed; checked at "Continue" and on submission). */
export const availabilityDraftSchema = z
  .object({
    releaseTimeMode: z.enum(RELEASE_TIME_MODES).catch('local_midnight'),
    releaseTime: safeText().max(5).catch(''),
    releaseTimeZone: safeText().max(64).catch(''),
    territoryMode: z.enum(TERRITORY_MODES).catch('worldwide'),
    territories: z.array(safeText().max(2)).max(300).catch([]),
  })
  .catch({
    releaseTimeMode: 'local_midnight',
    releaseTime: '',
    releaseTimeZone: '',
    territoryMode: 'worldwide',
    territories: [],
  });
export type AvailabilityDraft = z.infer<typeof availabilityDraftSchema>;

export const EMPTY_AVAILABILITY_DRAFT: AvailabilityDraft = {
  releaseTimeMode: 'local_midnight',
  releaseTime: '',
  releaseTimeZone: '',
  territoryMode: 'worldwide',
  territories: [],
};

/** What a draft sends: time and zone only with a worldwide moment, codes only with a list. */
export function availabilityDraftToInput(
  draft: AvailabilityDraft = EMPTY_AVAILABILITY_DRAFT,
): z.input<typeof releaseAvailabilityInputSchema> {
  const moment = draft.releaseTimeMode === 'worldwide_moment';
  return {
    releaseTimeMode: draft.releaseTimeMode,
    releaseTime: moment ? draft.releaseTime : null,
    releaseTimeZone: moment ? draft.releaseTimeZone : null,
    territoryMode: draft.territoryMode,
    territories: draft.territoryMode === 'worldwide' ? [] : draft.territories,
  };
}

/** What the pages show (release page, Edit Release, review card): the stored values and the instant. */
export type ReleaseAvailabilityView = ReleaseAvailability & {
  /** ISO instant of a worldwide moment; null for local midnight. */
  releaseAt: string | null;
};

export const DEFAULT_AVAILABILITY: ReleaseAvailability = {
  releaseTimeMode: 'local_midnight',
  releaseTime: null,
  releaseTimeZone: null,
  territoryMode: 'worldwide',
  territories: [],
};

/** The instant to store as release_at for a release date: null for local midnight. */
export function releaseAtFor(releaseDate: string, availability: ReleaseAvailability): Date | null {
  if (
    availability.releaseTimeMode !== 'worldwide_moment' ||
    !availability.releaseTime ||
    !availability.releaseTimeZone
  )
    return null;
  return zonedInstant(releaseDate, availability.releaseTime, availability.releaseTimeZone);
}

/** "Local midnight in each country" or "One moment worldwide: 2027-01-15 00:00 America/New_York (05:00 UTC)". */
export function describeReleaseTime(release: {
  releaseDate: string;
  releaseTimeMode: ReleaseTimeMode;
  releaseTime: string | null;
  releaseTimeZone: string | null;
  releaseAt: string | Date | null;
}): string {
  if (release.releaseTimeMode !== 'worldwide_moment' || !release.releaseAt) {
    return `${RELEASE_TIME_MODE_LABELS.local_midnight} on ${release.releaseDate}`;
  }
  const instant = new Date(release.releaseAt);
  const utc = `${instant.toISOString().slice(0, 10)} ${instant.toISOString().slice(11, 16)} UTC`;
  return `${RELEASE_TIME_MODE_LABELS.worldwide_moment}: ${release.releaseDate} ${release.releaseTime ?? ''} ${release.releaseTimeZone ?? ''} (${utc})`;
}

/** "Worldwide", "Only: Germany (DE), France (FR)" or "Everywhere except: Germany (DE), France (FR)". */
export function describeTerritories(release: {
  territoryMode: TerritoryMode;
  territories: readonly string[];
}): string {
  if (release.territoryMode === 'worldwide' || release.territories.length === 0) return 'Worldwide';
  const list = release.territories.map(countryLabel).join(', ');
  return release.territoryMode === 'include' ? `Only: ${list}` : `Everywhere except: ${list}`;
}
