import { describe, expect, it } from 'vitest';
import {
  dpidSchema,
  formatIsrc,
  gtinCheckDigit,
  isDpid,
  isUpc,
  settingsInputSchema,
  targetInputSchema,
  targetUrlScheme,
} from './delivery';

describe('identifiers (IDENTIFIERS.md worked examples)', () => {
  it('computes GS1 check digits and validates UPC/EAN', () => {
    expect(gtinCheckDigit('629104150021')).toBe(3);
    expect(isUpc('012345678905')).toBe(true);
    expect(isUpc('5901234123457')).toBe(true);
    expect(isUpc('731453000000')).toBe(false);
  });
  it('checks DPIDs with ISO 7064 MOD 37,36', () => {
    expect(isDpid('PADPIDA3897722461G')).toBe(true);
    expect(isDpid('PA-DPIDA-2013042401-U')).toBe(true);
    expect(isDpid('PADPIDA2014999999Z')).toBe(false);
    // The server's placeholder sender id fails its check character: it is never saved as a value.
    expect(dpidSchema.safeParse('PADPIDA0000000000T').success).toBe(false);
    expect(dpidSchema.safeParse('PADPIDA123').success).toBe(false);
  });
  it('formats an ISRC for display', () => {
    expect(formatIsrc('qzabc2600001')).toBe('QZ-ABC-26-00001');
  });
});

describe('settings and target input', () => {
  const settings = { ddexSenderPartyId: 'PADPIDA2013042401U', ddexSenderName: 'Tunedrop' };
  it('normalises the registrant and refuses a bad prefix', () => {
    expect(settingsInputSchema.parse({ ...settings, isrcRegistrant: 'qzabc', upcPrefix: '' })).toMatchObject({
      isrcRegistrant: 'QZ-ABC',
      upcPrefix: null,
    });
    expect(
      settingsInputSchema.safeParse({ ...settings, isrcRegistrant: 'Q-ABCD', upcPrefix: null }).success,
    ).toBe(false);
    expect(
      settingsInputSchema.safeParse({ ...settings, isrcRegistrant: null, upcPrefix: '12ab' }).success,
    ).toBe(false);
  });
  it('accepts the three URL schemes only', () => {
    expect(targetUrlScheme('sftp://u:p@host:22/in')).toBe('sftp');
    expect(targetUrlScheme('s3://bucket/prefix')).toBe('s3');
    expect(targetUrlScheme('file:///srv/out')).toBe('file');
    expect(targetUrlScheme('file://relative/x')).toBeNull();
    expect(targetUrlScheme('ftp://host/x')).toBeNull();
    const base = { name: 'A', url: 'file:///srv/out', dpid: 'PADPIDA2009101501Y' };
    expect(targetInputSchema.safeParse({ ...base, platforms: [] }).success).toBe(false);
    expect(targetInputSchema.safeParse({ ...base, platforms: ['nope'] }).success).toBe(false);
    expect(targetInputSchema.parse({ ...base, platforms: 'all' }).profile).toBe('release');
  });
});
