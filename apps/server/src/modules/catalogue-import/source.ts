/**
 * What a catalogue source says about one release (record 200), before any rule is applied: the ERN
 * reader and the CSV reader both produce it, the import checks and stores it. Paths are as the source
 * wrote them (relative to the folder); nothing here has touched the disk.
 */
import type { SongwriterRole } from '@tunedrop/shared';
import type { SourceStoreState } from '@tunedrop/shared/schemas/catalogue-import';
import type { ReleaseAvailability } from '@tunedrop/shared/schemas/release-availability';

export type SourcePerson = { firstName: string; middleName?: string; lastName: string };

export type SourceFile = {
  path: string;
  /** The hash the source gives for the file (ERN HashSum), checked while the file is read. */
  hash?: { algorithm: 'md5' | 'sha1' | 'sha256'; value: string };
  /** The codec the source names (ERN AudioCodecType), when it names one. */
  codec?: string;
};

export type SourceTrack = {
  title: string;
  isrc: string | null;
  isExplicit: boolean;
  audio: SourceFile | null;
  primaryArtists: string[];
  featuredArtists: string[];
  songwriters: (SourcePerson & { role: SongwriterRole })[];
  producers: SourcePerson[];
};

/** Release time and territories as the source gives them (ERN deals; the CSV has none: the defaults). */
export type SourceAvailability = ReleaseAvailability;

/** An artist's store links as the source gives them (ERN PartyId / ArtistProfilePage). */
export type SourceArtistLinks = { spotifyLink?: string; appleMusicLink?: string };

export type SourceRelease = {
  /** The message file or the CSV's release key: how the report names it. */
  source: string;
  title: string;
  genre: string;
  releaseDate: string | null;
  originalReleaseDate: string | null;
  labelName: string | null;
  upc: string | null;
  copyrightHolder: string;
  copyrightYear: number | null;
  publishingHolder: string;
  publishingYear: number | null;
  cover: SourceFile | null;
  /** Platform ids; null means every store. */
  stores: string[] | null;
  /** Where and from when it is on sale; null for the defaults (worldwide, local midnight). */
  availability: SourceAvailability | null;
  /** The release's main artists as the source displays them (the artist profile is chosen by these). */
  displayArtists: string[];
  /** Store links per artist name (lower-cased), kept on the credits. */
  artistLinks: Record<string, SourceArtistLinks>;
  storeState: SourceStoreState;
  tracks: SourceTrack[];
  /** Reasons the source itself already refuses the release (unreadable parts). */
  problems: string[];
  /** Things kept or dropped the report should say. */
  notes: string[];
};

/** A name as one string, split the way the builder asks for it (last word is the last name). */
export function splitPersonName(fullName: string): SourcePerson {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { firstName: words[0] ?? '', lastName: '' };
  const lastName = words.at(-1) ?? '';
  const [firstName = '', ...middle] = words.slice(0, -1);
  return middle.length > 0 ? { firstName, middleName: middle.join(' '), lastName } : { firstName, lastName };
}

/** `(P) 1994 EMI Music Japan Inc.` or `2015 Parlophone Records Limited` → the holder, without mark or year. */
export function holderFromLine(text: string, year: number | null): string {
  let holder = text.trim().replace(/^(\(p\)|\(c\)|℗|©|p|c)\s+/i, '');
  const leadingYear = /^(\d{4})\s+/.exec(holder);
  if (leadingYear && (year === null || Number(leadingYear[1]) === year))
    holder = holder.slice(leadingYear[0].length);
  return holder.trim();
}

/** A GTIN as ERN and CSV carry it (a GTIN-14 has a leading zero before the EAN-13): the 12 or 13 digits we keep. */
export function normaliseIcpn(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  return /^0\d{13}$/.test(digits) ? digits.slice(1) : digits;
}
