/** One year message for the builder and Edit Release (issue 18, record 121): the real range for a future year. */
import { describe, expect, it } from 'vitest';
import { BUILDER_MESSAGES, currentYear, releaseSubmissionSchema, yearMessage } from './builder';
import { editReleaseFormSchema, editReleaseSchema, RELEASE_MESSAGES } from './releases';

const JUNE_2026 = new Date('2026-06-15T12:00:00Z');

describe('yearMessage', () => {
  it('names the real range for a year after the current one, typed or as a number', () => {
    expect(yearMessage('copyright', '2031', JUNE_2026)).toBe(
      'Valid copyright year is required (1900 to 2026)',
    );
    expect(yearMessage('publishing', 2027, JUNE_2026)).toBe(
      'Valid publishing year is required (1900 to 2026)',
    );
    expect(yearMessage('copyright', ' 2031 ', JUNE_2026)).toBe(
      'Valid copyright year is required (1900 to 2026)',
    );
  });

  it("keeps the spec's message for a missing, malformed or pre-1900 year", () => {
    for (const year of ['', null, undefined, 'abcd', '203', '20310', '1899', 1800, 2.5]) {
      expect(yearMessage('copyright', year, JUNE_2026)).toBe(BUILDER_MESSAGES.copyrightYearInvalid);
      expect(yearMessage('publishing', year, JUNE_2026)).toBe(BUILDER_MESSAGES.publishingYearInvalid);
    }
    expect(BUILDER_MESSAGES.copyrightYearInvalid).toBe('Valid copyright year is required (1900 or later)');
    expect(BUILDER_MESSAGES.publishingYearInvalid).toBe('Valid publishing year is required (1900 or later)');
  });

  it('takes the latest year anywhere on Earth as the current one (UTC+14), as the builder accepts it', () => {
    const newYearInKiribati = new Date('2026-12-31T11:00:00Z');
    expect(yearMessage('copyright', '2027', newYearInKiribati)).toBe(BUILDER_MESSAGES.copyrightYearInvalid);
    expect(yearMessage('copyright', '2028', newYearInKiribati)).toBe(
      'Valid copyright year is required (1900 to 2027)',
    );
  });
});

describe('the builder and Edit Release say the same', () => {
  const future = currentYear() + 1;
  const range = `Valid copyright year is required (1900 to ${currentYear()})`;
  const issueAt = (
    result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
    path: string,
  ) => result.error?.issues.find((issue) => issue.path.join('.') === path)?.message;

  it('for a future year', () => {
    const builder = releaseSubmissionSchema.safeParse({ release: { copyrightYear: String(future) } });
    expect(issueAt(builder, 'release.copyrightYear')).toBe(range);
    const edit = editReleaseSchema.safeParse({ copyrightYear: future });
    expect(issueAt(edit, 'copyrightYear')).toBe(range);
    const form = editReleaseFormSchema.safeParse({ copyrightYear: String(future) });
    expect(issueAt(form, 'copyrightYear')).toBe(range);
  });

  it("for a pre-1900 or malformed year (the spec's message)", () => {
    const builder = releaseSubmissionSchema.safeParse({ release: { copyrightYear: '1899' } });
    expect(issueAt(builder, 'release.copyrightYear')).toBe(BUILDER_MESSAGES.copyrightYearInvalid);
    expect(issueAt(editReleaseSchema.safeParse({ copyrightYear: 1899 }), 'copyrightYear')).toBe(
      RELEASE_MESSAGES.copyrightYearInvalid,
    );
    expect(issueAt(editReleaseFormSchema.safeParse({ copyrightYear: '19x9' }), 'copyrightYear')).toBe(
      RELEASE_MESSAGES.copyrightYearInvalid,
    );
    expect(issueAt(editReleaseSchema.safeParse({ copyrightYear: 2000.5 }), 'copyrightYear')).toBe(
      RELEASE_MESSAGES.copyrightYearInvalid,
    );
  });
});
