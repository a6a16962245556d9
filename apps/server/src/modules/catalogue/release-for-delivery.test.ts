/** ZIP entry names of the moderator export are safe whatever was stored (issue 22, finding 9). */
import { describe, expect, it } from 'vitest';
import { safeEntryName, uniqueEntryNames } from './release-for-delivery';

describe('ZIP entry names', () => {
  it('turns line breaks, control characters, double quotes and path characters into underscores', () => {
    expect(safeEntryName('Take\r\nContent-Type: evil.wav')).toBe('Take__Content-Type_ evil.wav');
    expect(safeEntryName('My "Best" Take.wav')).toBe('My _Best_ Take.wav');
    expect(safeEntryName('a\u0000b\u2028c.wav')).toBe('a_b_c.wav');
    expect(safeEntryName('../../etc/passwd.wav')).toBe('__.._etc_passwd.wav');
    expect(safeEntryName('C:\\music\\mix?.wav')).toBe('C__music_mix_.wav');
    expect(safeEntryName("Don't Stop.wav")).toBe("Don't Stop.wav");
  });

  it('falls back to a plain name when nothing usable is left', () => {
    expect(safeEntryName('\r\n')).toBe('track.wav');
    expect(safeEntryName('...')).toBe('track.wav');
  });

  it('keeps names unique after making them safe', () => {
    expect(uniqueEntryNames(['a\nb.wav', 'a\rb.wav', 'metadata.json'], ['metadata.json'])).toEqual([
      'a_b.wav',
      'a_b (2).wav',
      'metadata (2).json',
    ]);
    for (const name of uniqueEntryNames(['x\r\ny.wav', 'q"uote.wav'])) {
      expect(name).not.toMatch(/[\r\n"]/);
    }
  });
});
