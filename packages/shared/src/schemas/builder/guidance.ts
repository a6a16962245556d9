/**
 * Guidance the builder and Edit Release show beside the fields (issue 26, records 181 and 336): what the
 * © and ℗ fields mean, and warnings that never block a submission (a release date too close for the
 * stores, a ℗ holder that looks like a music publisher).
 */

/**
 * The spec's field names stay ("Copyright Holder", "Publishing Holder"); the help text says which line
 * each one becomes. "Publishing" here is the publication of the sound recording (the ℗ notice names who
 * first published the phonogram and the year), never the music publisher of the songs.
 */
export const RIGHTS_HELP = {
  copyrightHolder:
    '© line: who owns the copyright in the release itself (its artwork and packaging). Usually the label, or the artist if self-released.',
  copyrightYear: 'The year of the © line.',
  publishingHolder:
    '℗ line: who owns the sound recording (the master). Usually the label, or the artist if self-released. Not your music publisher: publishers own the songs, not the recording.',
  publishingYear: 'The year the recording was first released, shown on the ℗ line.',
} as const;

/** Whole words that name a music publisher rather than the owner of a recording. */
const PUBLISHER_WORDS = /\b(publishing|publisher|publishers)\b/i;

/**
 * A warning (never a refusal) when the ℗ holder reads like a music publisher ("Moonlight Publishing"):
 * that name would go to every store as the owner of the recordings.
 */
export function publishingHolderWarning(holder: string): string | null {
  if (!PUBLISHER_WORDS.test(holder)) return null;
  return `"${holder.trim()}" looks like a music publisher. The ℗ line names who owns the sound recording, usually your label or the artist. Check this before you submit: stores show it on every track.`;
}

/** Stores ask for this many days between delivery and the release date (1 to 4 weeks). */
export const RELEASE_LEAD_DAYS = 14;

/** Whole days from `today` (the viewer's calendar day) to a YYYY-MM-DD date; null for an unreadable date. */
export function daysUntil(date: string, today: Date = new Date()): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  if (!match) return null;
  const target = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const start = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return Math.round((target - start) / 86_400_000);
}

/**
 * A warning (never a refusal, record 336) when the release date is less than 14 days away, today or
 * already past: stores may list the release later than its date. Null when far enough or not yet valid.
 */
export function releaseDateLeadWarning(releaseDate: string, today: Date = new Date()): string | null {
  const days = daysUntil(releaseDate, today);
  if (days === null || days >= RELEASE_LEAD_DAYS) return null;
  const when =
    days < 0
      ? 'has already passed'
      : days === 0
        ? 'is today'
        : days === 1
          ? 'is tomorrow'
          : `is only ${days} days away`;
  return `The release date ${when}. Stores ask for 1 to 4 weeks to review and list a new release, so it may appear on some stores after this date. For a release that goes live everywhere on the day, choose a date at least ${RELEASE_LEAD_DAYS} days from today.`;
}
