import { describe, expect, it } from 'vitest';
import { isDpid, mod3736Check } from './codes';
import { DELIVERY_MESSAGES } from './messages';
import { dpidSchema } from './settings';

// DPIDs printed in DDEX's own material (IDENTIFIERS.md; the ERN 4.3 and DSR samples in shared/ddex).
const PUBLISHED = [
  'PADPIDA3897722461G', // DDEX knowledge base
  'PADPIDA2013042401U', // ERN 4.3 samples: sender
  'PADPIDA2009101501Y', // ERN 4.3 samples: recipient
  'PADPIDA2007050901U', // ERN 4.3 samples
  'PADPIDA20070627029', // ERN 4.3 samples
  'PADPIDA2008120501W', // DSR part 8
  'PADPIDA2013020802I', // DSRF sample
  'PADPIDA2014111801Y', // DSRF test file name
  'PADPIDA2014122301Q', // BWARM example
  'PADPIDA99999999013', // DSR samples
  'PADPIDA99999999021', // DSR samples
];

describe('DDEX Party ID check character (ISO 7064 MOD 37,36)', () => {
  it.each(PUBLISHED)('accepts the published %s', (dpid) => {
    expect(isDpid(dpid)).toBe(true);
    expect(dpidSchema.parse(dpid)).toBe(dpid);
  });

  it.each([
    // One character changed, and two neighbours swapped: what the check character is there to catch.
    ['PADPIDA3897722461H', DELIVERY_MESSAGES.dpidCheckInvalid],
    ['PADPIDA3897722416G', DELIVERY_MESSAGES.dpidCheckInvalid],
    ['PADPIDA2013042401V', DELIVERY_MESSAGES.dpidCheckInvalid],
    // Test ids in some DDEX sample files that do not carry a valid check character.
    ['PADPIDA2014999999Z', DELIVERY_MESSAGES.dpidCheckInvalid],
    ['PADPIDA2015999999X', DELIVERY_MESSAGES.dpidCheckInvalid],
    // The server's placeholder sender (DDEX_SENDER_PARTY_ID's default): never a real value.
    ['PADPIDA0000000000T', DELIVERY_MESSAGES.dpidCheckInvalid],
    // Syntax: too short, wrong prefix.
    ['PADPIDA123', DELIVERY_MESSAGES.dpidInvalid],
    ['PADPIDB3897722461G', DELIVERY_MESSAGES.dpidInvalid],
  ])('refuses %s', (dpid, message) => {
    expect(isDpid(dpid)).toBe(false);
    const result = dpidSchema.safeParse(dpid);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });

  it('reads the printed form with dashes and lower case', () => {
    expect(dpidSchema.parse('pa-dpida-3897722461-g')).toBe('PADPIDA3897722461G');
  });

  it('computes the check character of the first 17 characters', () => {
    expect(mod3736Check('PADPIDA3897722461')).toBe('G');
    expect(mod3736Check('PADPIDA2007062702')).toBe('9');
  });
});
