/**
 * The contract term's reserve (issue 39, record 287): a percent and a release schedule adding up to exactly
 * 100, one rule for the admin form and the server.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_TEXTS,
  contractInputSchema,
  contractTermSchema,
  describeTerm,
  parseReserveSchedule,
} from './contracts';

describe('parseReserveSchedule', () => {
  it('reads percentages per following month that add up to exactly 100', () => {
    expect(parseReserveSchedule('50/50')).toEqual(['50', '50']);
    expect(parseReserveSchedule(' 25 / 25, 50 ')).toEqual(['25', '25', '50']);
    expect(parseReserveSchedule('33.3333/33.3333/33.3334')).toEqual(['33.3333', '33.3333', '33.3334']);
    expect(parseReserveSchedule('100')).toEqual(['100']);
    expect(parseReserveSchedule('')).toEqual([]);
  });

  it('refuses a schedule not adding up to 100, a zero or negative part, and more than 24 months', () => {
    for (const text of ['60/30', '50/50/1', '100/0', '-50/150', '33.33333/66.66667', 'half/half']) {
      expect(parseReserveSchedule(text)).toBeNull();
    }
    expect(parseReserveSchedule(Array.from({ length: 25 }, () => '4').join('/'))).toBeNull();
    expect(parseReserveSchedule(Array.from({ length: 20 }, () => '5').join('/'))).toHaveLength(20);
  });
});

describe('a term with a reserve', () => {
  const term = { channel: 'physical', basis: 'gross', rate: '25' } as const;

  it('keeps the reserve and its schedule, as text or as a list', () => {
    const parsed = contractTermSchema.parse({ ...term, reservePercent: '20', reserveSchedule: '50/50' });
    expect(parsed).toMatchObject({ reservePercent: '20', reserveSchedule: ['50', '50'] });
    expect(
      contractTermSchema.parse({ ...term, reservePercent: '20.0', reserveSchedule: ['50', '50'] }),
    ).toMatchObject({ reservePercent: '20', reserveSchedule: ['50', '50'] });
    expect(describeTerm(parsed)).toBe(
      '25% of gross receipts on physical, 20% reserved and released 50/50 over the next 2 months',
    );
  });

  it('has no reserve when both are left empty', () => {
    expect(contractTermSchema.parse({ ...term, reservePercent: '', reserveSchedule: '' })).toMatchObject({
      reservePercent: '0',
      reserveSchedule: [],
    });
    expect(contractTermSchema.parse(term)).toMatchObject({ reservePercent: '0', reserveSchedule: [] });
  });

  it('refuses each half without the other, and a reserve above 100, on its field', () => {
    const issues = (input: object) =>
      contractTermSchema
        .safeParse({ ...term, ...input })
        .error?.issues.map((issue) => [issue.path, issue.message]);
    expect(issues({ reservePercent: '20' })).toEqual([
      [['reserveSchedule'], CONTRACT_TEXTS.reserveScheduleMissing],
    ]);
    expect(issues({ reserveSchedule: '50/50' })).toEqual([
      [['reservePercent'], CONTRACT_TEXTS.reserveScheduleWithoutReserve],
    ]);
    expect(issues({ reservePercent: '120', reserveSchedule: '50/50' })).toEqual([
      [['reservePercent'], CONTRACT_TEXTS.reserveInvalid],
    ]);
    expect(issues({ reservePercent: '20', reserveSchedule: '60/30' })).toEqual([
      [['reserveSchedule'], CONTRACT_TEXTS.reserveScheduleInvalid],
    ]);
  });
});

describe('a contract’s default rate', () => {
  const contract = {
    name: 'Roster deal',
    labelEmail: 'label@example.com',
    payeeEmail: 'artist@example.com',
    startsOn: '2025-01-01',
    releaseIds: ['00000000-0000-4000-8000-000000000000'],
    defaultBasis: 'gross',
  } as const;

  it('refuses a rate above 100 with its own words, not "Invalid input"', () => {
    const result = contractInputSchema.safeParse({ ...contract, defaultRate: '150' });
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['defaultRate'], CONTRACT_TEXTS.rateInvalid],
    ]);
  });

  it('reads an empty default as none, and a rate as typed', () => {
    expect(contractInputSchema.parse({ ...contract, defaultRate: '015.50' }).defaultRate).toBe('15.5');
    const none = contractInputSchema.safeParse({ ...contract, defaultBasis: null, defaultRate: '' });
    expect(none.error?.issues.map((issue) => issue.message)).toEqual([CONTRACT_TEXTS.noTerms]);
  });
});
