/**
 * Field rules the builder's steps share: links, file names, codes (ISRC, UPC), dates and years, and the
 * text, upload-id and draft-text builders the steps' schemas are made of.
 */
import { z } from 'zod';
import { GENRES, LIMITS } from '../../constants';
import { safeText } from '../../text';
import { BUILDER_MESSAGES } from './messages';

/**
 * Characters that change how a name reads without being seen (issue 43 finding 12): bidirectional
 * embeddings, overrides and isolates (U+202E shows `song‮vaw.exe` as `songexe.wav`), direction marks,
 * zero-width characters, the byte order mark and the line and paragraph separators.
 */
export const INVISIBLE_FORMATTING = /[\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/;

/**
 * An uploaded file's name as the browser reports it (issue 22): the same one-line text rule as every
 * other field, 1 to 255 characters. It is stored and shown; storage keys and ZIP entries use safe forms.
 */
export const uploadFileNameSchema = safeText(undefined, BUILDER_MESSAGES.fileNameText)
  .trim()
  .min(1, BUILDER_MESSAGES.fileNameRequired)
  .max(255, BUILDER_MESSAGES.fileNameRequired)
  .refine((name) => !INVISIBLE_FORMATTING.test(name), BUILDER_MESSAGES.fileNameFormatting);

export const SPOTIFY_ARTIST_URL_PREFIX = 'https://open.spotify.com/artist/';
export const APPLE_MUSIC_URL_PREFIX = 'https://music.apple.com/';

/** A link parsed only when it is plain https on `host` (no user, password or port); null otherwise. */
function httpsOn(url: string, host: string): URL | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  const isPlain = parsed.protocol === 'https:' && !parsed.username && !parsed.password && !parsed.port;
  return isPlain && parsed.hostname === host ? parsed : null;
}

/**
 * The Spotify artist id in an artist link (`https://open.spotify.com/artist/<id>`, optionally with a
 * query such as `?si=`), or null when the link is not one: checked by host and form (issue 43 finding 12).
 */
export function parseSpotifyArtistUrl(url: string): string | null {
  const value = url.trim();
  if (!value.startsWith(SPOTIFY_ARTIST_URL_PREFIX) || !httpsOn(value, 'open.spotify.com')) return null;
  const match = /^([A-Za-z0-9]{10,40})\/?(?:[?#][^\s<>"]*)?$/.exec(
    value.slice(SPOTIFY_ARTIST_URL_PREFIX.length),
  );
  return match?.[1] ?? null;
}

export function isSpotifyArtistUrl(url: string): boolean {
  return parseSpotifyArtistUrl(url) !== null;
}

/** An Apple Music artist link: `https://music.apple.com/[cc/]artist/[name/][id]<digits>`, by host and form. */
export function isAppleMusicUrl(url: string): boolean {
  const parsed = httpsOn(url, 'music.apple.com');
  return (
    parsed !== null &&
    url.trim().startsWith(APPLE_MUSIC_URL_PREFIX) &&
    /^(?:\/[a-z]{2})?\/artist\/(?:[^/\s]+\/)?(?:id)?\d+\/?$/i.test(parsed.pathname)
  );
}

/**
 * Uploaded file names (§5): accents stripped, anything but letters, digits, dot, underscore and
 * hyphen becomes an underscore, repeated underscores collapse. Only the last path segment counts.
 */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return base
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/_+/g, '_');
}

export function isWavFileName(name: string): boolean {
  return /\.wav$/i.test(name.trim());
}

const ISRC_PATTERN = /^[A-Z]{2}-?[A-Z0-9]{3}-?[0-9]{2}-?[0-9]{5}$/;

/** CC-XXX-YY-NNNNN with the hyphens optional, upper-cased and without hyphens; null when invalid. */
export function normalizeIsrc(value: string): string | null {
  const upper = value.trim().toUpperCase();
  if (!ISRC_PATTERN.test(upper)) return null;
  return upper.replace(/-/g, '');
}

/** 12 (UPC-A) or 13 (EAN-13) digits whose last digit is the GTIN check digit. */
export function isValidUpc(value: string): boolean {
  if (!/^[0-9]{12,13}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = digits.pop() as number;
  let sum = 0;
  // Weights 3,1,3,… from the digit next to the check digit leftwards.
  for (let index = 0; index < digits.length; index += 1) {
    const fromRight = digits.length - 1 - index;
    sum += (digits[index] as number) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10 === check;
}

/** The latest year anyone on Earth can be in right now (UTC+14), so a year picked on 1 January is valid. */
export function currentYear(now: Date = new Date()): number {
  return new Date(now.getTime() + 14 * 3600 * 1000).getUTCFullYear();
}

/** The years a basic user's locked year fields may hold at this moment (usually one). */
export function currentYears(now: Date = new Date()): number[] {
  const years = new Set([
    now.getUTCFullYear(),
    currentYear(now),
    new Date(now.getTime() - 12 * 3600 * 1000).getUTCFullYear(),
  ]);
  return [...years];
}

export type YearField = 'copyright' | 'publishing';

/**
 * The one message of a copyright or publishing year, for the builder and Edit Release alike (issue 18):
 * a year after the current one names the real range ('Valid copyright year is required (1900 to 2026)'),
 * since "1900 or later" would be false for it; a missing, malformed or pre-1900 year keeps the spec's
 * message ('… (1900 or later)'). `year` is what the field holds, as typed or as a number.
 */
export function yearMessage(field: YearField, year: unknown, now: Date = new Date()): string {
  const text = typeof year === 'number' || typeof year === 'string' ? String(year).trim() : '';
  if (/^\d{4}$/.test(text) && Number(text) > currentYear(now)) {
    return `Valid ${field} year is required (${LIMITS.minYear} to ${currentYear(now)})`;
  }
  return field === 'copyright'
    ? BUILDER_MESSAGES.copyrightYearInvalid
    : BUILDER_MESSAGES.publishingYearInvalid;
}

/** A year from 1900 to the current one (UTC+14, see currentYear), typed or as a number. */
export function isValidYear(year: number, now: Date = new Date()): boolean {
  return Number.isInteger(year) && year >= LIMITS.minYear && year <= currentYear(now);
}

export const genreSchema = z.enum(GENRES, { message: BUILDER_MESSAGES.genreRequired });

/** Where an upload stands from the wizard's point of view. */
export type FileState = 'none' | 'uploading' | 'checked' | 'failed';

export function isValidDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const yearSchema = (field: YearField) =>
  z.union([z.number(), safeText()], { message: yearMessage(field, null) }).transform((value, context) => {
    const text = String(value).trim();
    const year = /^\d{4}$/.test(text) ? Number(text) : Number.NaN;
    if (!isValidYear(year)) {
      context.addIssue({ code: 'custom', message: yearMessage(field, value) });
      return z.NEVER;
    }
    return year;
  });

export const requiredText = (message: string, max = 200) =>
  safeText({ message }).trim().min(1, message).max(max, `At most ${max} characters`);
export const optionalText = (max = 200) =>
  safeText()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

export const uploadIdSchema = (message: string) =>
  safeText({ message })
    .trim()
    .regex(/^[a-f0-9]{32}$/, message);

export const titleKey = (title: string) => title.trim().toLowerCase();

export const draftText = (max = 200) => safeText().max(max).catch('');

export const fileRefSchema = z.object({
  uploadId: safeText().regex(/^[a-f0-9]{32}$/),
  name: safeText().max(300),
  sizeBytes: z.number().int().nonnegative(),
});
export type FileRef = z.infer<typeof fileRefSchema>;

export function firstErrors(error: z.ZodError, prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = `${prefix}${issue.path.join('.')}`;
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}
