import { describe, expect, it } from 'vitest';
import { daysUntil, publishingHolderWarning, RIGHTS_HELP, releaseDateLeadWarning } from './guidance';

// 25 November 2026, late in the day: only the calendar day counts.
const today = new Date(2026, 10, 25, 23, 30);

describe('release date lead time (issue 26, record 336)', () => {
  it.each([
    ['2026-11-25', 0],
    ['2026-11-26', 1],
    ['2026-12-09', 14],
    ['2026-11-20', -5],
    ['2027-01-01', 37],
  ])('%s is %i days from the viewer’s day', (date, days) => {
    expect(daysUntil(date, today)).toBe(days);
  });

  it('warns for today, tomorrow, 13 days and a past date, naming the stores’ 1 to 4 weeks', () => {
    expect(releaseDateLeadWarning('2026-11-25', today)).toMatch(
      /^The release date is today\. Stores ask for 1 to 4 weeks/,
    );
    expect(releaseDateLeadWarning('2026-11-26', today)).toMatch(/^The release date is tomorrow\./);
    expect(releaseDateLeadWarning('2026-12-08', today)).toMatch(/^The release date is only 13 days away\./);
    expect(releaseDateLeadWarning('2026-11-01', today)).toMatch(/^The release date has already passed\./);
    expect(releaseDateLeadWarning('2026-12-08', today)).toContain('at least 14 days from today');
  });

  it('is silent from 14 days on and for a date not yet typed or unreadable', () => {
    expect(releaseDateLeadWarning('2026-12-09', today)).toBeNull();
    expect(releaseDateLeadWarning('2027-03-01', today)).toBeNull();
    expect(releaseDateLeadWarning('', today)).toBeNull();
    expect(releaseDateLeadWarning('25/11/2026', today)).toBeNull();
  });
});

describe('℗ and © help (record 181)', () => {
  it('says the ℗ holder owns the sound recording and is not the music publisher', () => {
    expect(RIGHTS_HELP.publishingHolder).toContain('℗ line: who owns the sound recording');
    expect(RIGHTS_HELP.publishingHolder).toContain('Not your music publisher');
    expect(RIGHTS_HELP.copyrightHolder).toContain('© line: who owns the copyright in the release');
  });

  it('warns when the ℗ holder reads like a music publisher, not for a label or an artist', () => {
    expect(publishingHolderWarning('Moonlight Publishing ')).toMatch(
      /^"Moonlight Publishing" looks like a music publisher\./,
    );
    expect(publishingHolderWarning('Sony Music Publishers')).not.toBeNull();
    expect(publishingHolderWarning('Moonlight Records')).toBeNull();
    expect(publishingHolderWarning('Editions Mego')).toBeNull();
    expect(publishingHolderWarning('Nova')).toBeNull();
  });
});
