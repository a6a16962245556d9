/**
 * Title style-guide pre-flight checks (issue 41, record 296): what stores refuse in a release or track
 * title, each with a plain reason, a way to fix it and, where one can be computed, the corrected title.
 * The builder shows them on the field and blocks the step; the server refuses a submission with them; review
 * shows them for releases submitted before the checks.
 */

export const TITLE_CHECK_CODES = ['featuring', 'all_caps', 'official_audio'] as const;
export type TitleCheckCode = (typeof TITLE_CHECK_CODES)[number];

export type TitleCheck = {
  code: TitleCheckCode;
  /** Why stores refuse it, in one sentence. */
  reason: string;
  /** What to do about it. */
  fix: string;
  /** The title with the problem removed, when it can be computed. */
  suggestion: string | null;
};

export const TITLE_CHECK_TEXTS: Record<TitleCheckCode, { reason: string; fix: string }> = {
  featuring: {
    reason: 'Stores refuse "feat." in the title field: featured artists are credited from the artist fields.',
    fix: 'Remove the "feat." part from the title and add the artist under Featured Artists.',
  },
  all_caps: {
    reason: 'Stores refuse titles written in all capital letters.',
    fix: 'Write the title with normal capitals (only the first letter of each word).',
  },
  official_audio: {
    reason: 'Stores refuse descriptions such as "Official Audio" or "Official Video" in a title.',
    fix: 'Remove the description from the title: it describes the upload, not the work.',
  },
};

/** "feat.", "ft.", "featuring", with what follows up to a closing bracket or the end. */
const FEATURING = /\s*[([]?\s*\b(?:feat\.?|ft\.|featuring)\s+[^)\]]*[)\]]?/i;
const OFFICIAL =
  /\s*[([-]?\s*\b(?:official\s+(?:music\s+)?(?:audio|video|lyric\s+video|visualizer)|lyric\s+video)\b\s*[)\]]?/i;

const tidy = (title: string) =>
  title
    .replace(/\s{2,}/g, ' ')
    .replace(/\s*-\s*$/, '')
    .trim();

/** Title case for an all-caps title: each word's first letter kept, the rest lowered. */
function normalCapitals(title: string): string {
  return title.toLowerCase().replace(/(^|[\s([{"'-])(\p{L})/gu, (_all, before: string, letter: string) => {
    return `${before}${letter.toUpperCase()}`;
  });
}

/** All capitals: at least two words and five letters, every letter upper-case (one acronym is fine). */
function isAllCaps(title: string): boolean {
  const letters = title.match(/\p{L}/gu) ?? [];
  const words = title
    .trim()
    .split(/\s+/)
    .filter((word) => /\p{L}/u.test(word));
  return (
    words.length >= 2 &&
    letters.length >= 5 &&
    letters.every((letter) => letter === letter.toUpperCase() && letter !== letter.toLowerCase())
  );
}

/** The checks a title fails, in a fixed order; empty when it is fine (or blank: "required" says that). */
export function titleStyleChecks(title: string): TitleCheck[] {
  const text = title.trim();
  if (!text) return [];
  const checks: TitleCheck[] = [];
  const check = (code: TitleCheckCode, suggestion: string | null) =>
    checks.push({ code, ...TITLE_CHECK_TEXTS[code], suggestion: suggestion || null });
  if (FEATURING.test(text)) check('featuring', tidy(text.replace(FEATURING, ' ')));
  if (OFFICIAL.test(text)) check('official_audio', tidy(text.replace(OFFICIAL, ' ')));
  if (isAllCaps(text)) check('all_caps', normalCapitals(text));
  return checks;
}

/** The title with every computable fix applied (the builder's "Fix title" button). */
export function fixedTitle(title: string): string {
  let current = title.trim();
  for (let round = 0; round < TITLE_CHECK_CODES.length; round += 1) {
    const first = titleStyleChecks(current).find((item) => item.suggestion);
    if (!first?.suggestion) break;
    current = first.suggestion;
  }
  return current;
}

/** The first failing check's reason: a field's error message. */
export function titleStyleError(title: string): string | null {
  return titleStyleChecks(title)[0]?.reason ?? null;
}
