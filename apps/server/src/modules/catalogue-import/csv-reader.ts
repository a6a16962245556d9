/**
 * Reads a catalogue CSV (columns in CATALOGUE_CSV_COLUMNS, record 200) into SourceReleases: one row per
 * track, rows grouped by release_key (else UPC, else title), streamed through csv-parse with a bounded
 * record size. A row that cannot belong to a release is a problem of the file, not of a release.
 */
import { createReadStream } from 'node:fs';
import { SONGWRITER_ROLES, type SongwriterRole } from '@tunedrop/shared';
import { CATALOGUE_CSV_COLUMNS } from '@tunedrop/shared/schemas/catalogue-import';
import { parse } from 'csv-parse';
import { normaliseIcpn, type SourceRelease, type SourceTrack, splitPersonName } from './source';

const list = (cell: string | undefined): string[] =>
  (cell ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);

const year = (cell: string | undefined): number | null => {
  const text = (cell ?? '').trim();
  return /^\d{4}$/.test(text) ? Number(text) : null;
};

/** `Jane Doe` or `Jane Doe (lyrics)`: a songwriter with the builder's role (default music and lyrics). */
function songwriter(cell: string): SourceTrack['songwriters'][number] {
  const match = /^(.*?)\s*\(([a-z_ ]+)\)$/i.exec(cell);
  const name = match?.[1] ?? cell;
  const roleText = match?.[2]
    ?.trim()
    .toLowerCase()
    .replace(/\s+/g, '_')
    .replace('music_&_lyrics', 'music_and_lyrics');
  const role: SongwriterRole = (SONGWRITER_ROLES as readonly string[]).includes(roleText ?? '')
    ? (roleText as SongwriterRole)
    : 'music_and_lyrics';
  return { ...splitPersonName(name), role };
}

export async function readCatalogueCsv(
  filePath: string,
  fileName: string,
): Promise<{ releases: SourceRelease[]; problems: string[] }> {
  const problems: string[] = [];
  const groups = new Map<string, { rows: Record<string, string>[]; firstLine: number }>();
  const parser = createReadStream(filePath).pipe(
    parse({
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      max_record_size: 64 * 1024,
    }),
  );
  let line = 1;
  let header: string[] | null = null;
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      line += 1;
      if (!header) {
        header = Object.keys(record);
        const missing = CATALOGUE_CSV_COLUMNS.filter((c) => c.isRequired && !header?.includes(c.name)).map(
          (c) => c.name,
        );
        if (missing.length > 0) {
          problems.push(`${fileName}: missing column(s) ${missing.join(', ')}.`);
          return { releases: [], problems };
        }
      }
      const key = record.release_key || record.upc || record.release_title;
      if (!key) {
        problems.push(`${fileName} line ${line}: no release_key, upc or release_title; the row is skipped.`);
        continue;
      }
      const group = groups.get(key) ?? { rows: [], firstLine: line };
      group.rows.push(record);
      groups.set(key, group);
    }
  } catch (error) {
    problems.push(`${fileName}: unreadable CSV (${error instanceof Error ? error.message : String(error)}).`);
    return { releases: [], problems };
  }

  const releases: SourceRelease[] = [];
  for (const [key, { rows, firstLine }] of groups) {
    const first = rows[0] ?? {};
    const release: SourceRelease = {
      source: `${fileName}: ${key} (line ${firstLine})`,
      title: first.release_title ?? '',
      genre: first.genre ?? '',
      releaseDate: first.release_date || null,
      originalReleaseDate: first.original_release_date || null,
      labelName: first.label || null,
      upc: first.upc ? normaliseIcpn(first.upc) : null,
      copyrightHolder: first.c_line_holder ?? '',
      copyrightYear: year(first.c_line_year),
      publishingHolder: first.p_line_holder ?? '',
      publishingYear: year(first.p_line_year),
      cover: first.cover_file ? { path: first.cover_file } : null,
      stores:
        list(first.stores).length > 0 && first.stores?.trim().toLowerCase() !== 'all'
          ? list(first.stores)
          : null,
      storeState: (first.store_state ?? '').trim().toLowerCase() === 'taken_down' ? 'taken_down' : 'live',
      availability: null,
      displayArtists: list(first.artists),
      artistLinks: {},
      tracks: [],
      problems: [],
      notes: [],
    };
    const ordered = [...rows].sort((a, b) => Number(a.track_number) - Number(b.track_number));
    ordered.forEach((row, index) => {
      if (Number(row.track_number) !== index + 1)
        release.problems.push(
          `Track numbers must run 1, 2, 3… (found ${row.track_number || 'none'} at position ${index + 1}).`,
        );
      for (const column of ['release_title', 'genre', 'release_date', 'upc', 'cover_file'] as const) {
        if ((row[column] ?? '') !== (first[column] ?? ''))
          release.problems.push(`The rows of one release disagree on ${column}.`);
      }
      const explicit = (row.explicit ?? '').trim().toLowerCase();
      release.tracks.push({
        title: row.track_title ?? '',
        isrc: row.isrc || null,
        isExplicit: explicit === 'yes' || explicit === 'true' || explicit === '1',
        audio: row.audio_file ? { path: row.audio_file } : null,
        primaryArtists: list(row.artists),
        featuredArtists: list(row.featured_artists),
        songwriters: list(row.songwriters).map(songwriter),
        producers: list(row.producers).map((name) => splitPersonName(name)),
      });
    });
    release.problems = [...new Set(release.problems)];
    releases.push(release);
  }
  return { releases, problems };
}
