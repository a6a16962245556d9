import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY_MESSAGES,
  COUNTRY_CODES,
  describeTerritories,
  firstLocalMidnight,
  goLiveAt,
  releaseAtFor,
  releaseAvailabilitySchema,
  zonedInstant,
} from './release-availability';

function errors(input: unknown): Record<string, string> {
  const result = releaseAvailabilitySchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0] ?? ''), issue.message]));
}

describe('release time and territories', () => {
  it('defaults to local midnight, worldwide', () => {
    expect(releaseAvailabilitySchema.parse({})).toEqual({
      releaseTimeMode: 'local_midnight',
      releaseTime: null,
      releaseTimeZone: null,
      territoryMode: 'worldwide',
      territories: [],
    });
  });

  it('normalises codes: trimmed, upper case, sorted, once', () => {
    const parsed = releaseAvailabilitySchema.parse({
      territoryMode: 'exclude',
      territories: [' fr', 'DE', 'de'],
    });
    expect(parsed.territories).toEqual(['DE', 'FR']);
  });

  it('names unknown codes and refuses empty lists', () => {
    expect(errors({ territoryMode: 'include', territories: ['DE', 'XX', 'UK'] }).territories).toBe(
      AVAILABILITY_MESSAGES.unknownCodes(['UK', 'XX']),
    );
    expect(errors({ territoryMode: 'include', territories: [] }).territories).toBe(
      AVAILABILITY_MESSAGES.includeEmpty,
    );
    expect(errors({ territoryMode: 'exclude' }).territories).toBe(AVAILABILITY_MESSAGES.excludeEmpty);
    expect(errors({ territoryMode: 'exclude', territories: [...COUNTRY_CODES] }).territories).toBe(
      AVAILABILITY_MESSAGES.excludeAll,
    );
    expect(errors({ territoryMode: 'worldwide', territories: ['DE'] }).territories).toBe(
      AVAILABILITY_MESSAGES.territoriesNotAllowed,
    );
    expect(errors({ territoryMode: 'somewhere' }).territoryMode).toBe(
      AVAILABILITY_MESSAGES.territoryModeInvalid,
    );
  });

  it('a worldwide moment needs a valid time and zone; local midnight takes neither', () => {
    expect(errors({ releaseTimeMode: 'worldwide_moment' })).toEqual({
      releaseTime: AVAILABILITY_MESSAGES.releaseTimeRequired,
      releaseTimeZone: AVAILABILITY_MESSAGES.releaseTimeZoneRequired,
    });
    expect(
      errors({ releaseTimeMode: 'worldwide_moment', releaseTime: '24:00', releaseTimeZone: 'Mars/Base' }),
    ).toEqual({
      releaseTime: AVAILABILITY_MESSAGES.releaseTimeInvalid,
      releaseTimeZone: AVAILABILITY_MESSAGES.releaseTimeZoneInvalid,
    });
    expect(errors({ releaseTimeMode: 'local_midnight', releaseTime: '10:00' }).releaseTime).toBe(
      AVAILABILITY_MESSAGES.releaseTimeNotAllowed,
    );
    expect(
      releaseAvailabilitySchema.parse({
        releaseTimeMode: 'worldwide_moment',
        releaseTime: '00:00',
        releaseTimeZone: 'UTC',
      }),
    ).toMatchObject({ releaseTime: '00:00', releaseTimeZone: 'UTC' });
  });

  it('turns a wall-clock time in a zone into one instant, across daylight saving', () => {
    expect(zonedInstant('2027-01-15', '00:00', 'America/New_York').toISOString()).toBe(
      '2027-01-15T05:00:00.000Z',
    );
    expect(zonedInstant('2027-07-15', '00:00', 'America/New_York').toISOString()).toBe(
      '2027-07-15T04:00:00.000Z',
    );
    expect(zonedInstant('2027-01-15', '09:30', 'Asia/Kolkata').toISOString()).toBe(
      '2027-01-15T04:00:00.000Z',
    );
    expect(zonedInstant('2027-01-15', '00:00', 'UTC').toISOString()).toBe('2027-01-15T00:00:00.000Z');
    // 02:30 does not exist on 2027-03-14 in New York (spring forward): read as 03:30 EDT.
    expect(zonedInstant('2027-03-14', '02:30', 'America/New_York').toISOString()).toBe(
      '2027-03-14T07:30:00.000Z',
    );
    // 01:30 happens twice on 2027-11-07 (fall back): the first, EDT.
    expect(zonedInstant('2027-11-07', '01:30', 'America/New_York').toISOString()).toBe(
      '2027-11-07T05:30:00.000Z',
    );
  });

  it('goes live at the instant, or at the first local midnight (UTC+14)', () => {
    expect(firstLocalMidnight('2027-01-15').toISOString()).toBe('2027-01-14T10:00:00.000Z');
    const moment = releaseAvailabilitySchema.parse({
      releaseTimeMode: 'worldwide_moment',
      releaseTime: '18:00',
      releaseTimeZone: 'Europe/Berlin',
    });
    const releaseAt = releaseAtFor('2027-01-15', moment);
    expect(releaseAt?.toISOString()).toBe('2027-01-15T17:00:00.000Z');
    expect(goLiveAt({ releaseDate: '2027-01-15', releaseTimeMode: 'worldwide_moment', releaseAt })).toEqual(
      releaseAt,
    );
    expect(
      goLiveAt({
        releaseDate: '2027-01-15',
        releaseTimeMode: 'local_midnight',
        releaseAt: null,
      }).toISOString(),
    ).toBe('2027-01-14T10:00:00.000Z');
  });

  it('describes territories with names and codes', () => {
    expect(describeTerritories({ territoryMode: 'worldwide', territories: [] })).toBe('Worldwide');
    expect(describeTerritories({ territoryMode: 'exclude', territories: ['DE', 'FR'] })).toBe(
      'Everywhere except: Germany (DE), France (FR)',
    );
  });
});
