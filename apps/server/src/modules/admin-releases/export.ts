/**
 * Export of one release as a single ZIP streamed straight from storage (archiver): the cover, the tracks
 * under their original names, metadata.json and ern.xml (DDEX ERN 4.3). Nothing is buffered whole.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { ExportManifest } from '@tunedrop/shared/schemas/admin-releases';
import { ZipArchive } from 'archiver';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { producers, profiles, releases, songwriters, tracks } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { releaseNotFound } from '../releases/service';
import { buildErnMessage, type ErnRelease } from './ern';

export type ExportData = {
  release: typeof releases.$inferSelect;
  uploader: { email: string; artistName: string };
  tracks: (typeof tracks.$inferSelect & {
    songwriters: { firstName: string; middleName: string | null; lastName: string; role: string }[];
    producers: { firstName: string; middleName: string | null; lastName: string }[];
    entryName: string;
  })[];
  coverEntryName: string | null;
};

/**
 * A ZIP entry name from a stored file name: one line, never a path, nothing an unzip tool or a file
 * system refuses or misreads. Control and line-separator characters, double quotes and the characters
 * Windows forbids become `_` (names stored before issue 22 may hold CR/LF); apostrophes stay ("Don't").
 */
export function safeEntryName(raw: string, fallback = 'track.wav'): string {
  const name = raw
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029"\\/:*?<>|]/g, '_')
    .replace(/^[\s.]+/, '_')
    .trim();
  return /[^_\s.]/.test(name) ? name : fallback;
}

/** Names inside the ZIP: the original file name made safe, and unique when two tracks share one. */
export function uniqueEntryNames(names: string[], reserved: string[] = []): string[] {
  const taken = new Set(reserved.map((name) => name.toLowerCase()));
  return names.map((raw) => {
    const base = safeEntryName(raw);
    let candidate = base;
    for (let index = 2; taken.has(candidate.toLowerCase()); index += 1) {
      const dot = base.lastIndexOf('.');
      candidate = dot > 0 ? `${base.slice(0, dot)} (${index})${base.slice(dot)}` : `${base} (${index})`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

export async function loadExportData(db: DbOrTx, releaseId: string): Promise<ExportData> {
  const [release] = await db.select().from(releases).where(eq(releases.id, releaseId)).limit(1);
  if (!release) throw releaseNotFound();
  const [uploader] = await db
    .select({ email: profiles.email, artistName: profiles.artistName })
    .from(profiles)
    .where(eq(profiles.id, release.userId))
    .limit(1);
  const trackRows = await db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  const trackIds = trackRows.map((track) => track.id);
  const writerRows = trackIds.length
    ? await db.select().from(songwriters).where(inArray(songwriters.trackId, trackIds))
    : [];
  const producerRows = trackIds.length
    ? await db.select().from(producers).where(inArray(producers.trackId, trackIds))
    : [];
  const coverEntryName = release.coverArtKey
    ? `cover.${release.coverArtKey.split('.').pop()?.toLowerCase() === 'png' ? 'png' : 'jpg'}`
    : null;
  const entryNames = uniqueEntryNames(
    trackRows.map((track) => track.originalFileName),
    ['metadata.json', 'ern.xml', ...(coverEntryName ? [coverEntryName] : [])],
  );
  return {
    release,
    uploader: uploader ?? { email: '', artistName: '' },
    coverEntryName,
    tracks: trackRows.map((track, index) => ({
      ...track,
      entryName: entryNames[index] ?? track.originalFileName,
      songwriters: writerRows
        .filter((writer) => writer.trackId === track.id)
        .map(({ firstName, middleName, lastName, role }) => ({ firstName, middleName, lastName, role })),
      producers: producerRows
        .filter((producer) => producer.trackId === track.id)
        .map(({ firstName, middleName, lastName }) => ({ firstName, middleName, lastName })),
    })),
  };
}

/** Checks every file is in storage before a byte is sent, so a broken export fails as a clean error. */
export async function exportManifest(
  storage: Storage,
  data: ExportData,
): Promise<Omit<ExportManifest, 'downloadUrl'>> {
  const files = [
    ...(data.release.coverArtKey && data.coverEntryName
      ? [{ key: data.release.coverArtKey, name: data.coverEntryName }]
      : []),
    ...data.tracks.map((track) => ({ key: track.fileKey, name: track.entryName })),
  ];
  const present = await Promise.all(files.map((file) => storage.exists(file.key)));
  const missing = files.filter((_file, index) => !present[index]);
  if (missing.length > 0) {
    throw new AppError(
      'export_files_missing',
      `Failed to export release files: ${missing.map((file) => file.name).join(', ')} could not be found in storage.`,
      409,
    );
  }
  return {
    fileName: exportFileName(data.release),
    entries: [
      ...files.map((file) => ({
        name: file.name,
        sizeBytes: data.tracks.find((track) => track.entryName === file.name)?.fileSizeBytes ?? null,
      })),
      { name: 'metadata.json', sizeBytes: null },
      { name: 'ern.xml', sizeBytes: null },
    ],
  };
}

export function exportFileName(release: { id: string; title: string }): string {
  const slug =
    release.title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'release';
  return `${slug}-${release.id.slice(0, 8)}.zip`;
}

export function exportMetadata(data: ExportData, exportedAt: Date) {
  const { release } = data;
  return {
    exportedAt: exportedAt.toISOString(),
    release: {
      id: release.id,
      title: release.title,
      status: release.status,
      primaryArtists: release.primaryArtists,
      featuredArtists: release.featuredArtists,
      primaryArtistsData: release.primaryArtistsData,
      featuredArtistsData: release.featuredArtistsData,
      genre: release.genre,
      releaseDate: release.releaseDate,
      originalReleaseDate: release.originalReleaseDate,
      labelName: release.labelName,
      upc: release.upc,
      copyrightHolder: release.copyrightHolder,
      copyrightYear: release.copyrightYear,
      publishingHolder: release.publishingHolder,
      publishingYear: release.publishingYear,
      distributionStores: release.distributionStores,
      coverArt: data.coverEntryName,
      rejectionReason: release.rejectionReason,
      takedownRequested: release.takedownRequested,
      createdAt: release.createdAt.toISOString(),
    },
    tracks: data.tracks.map((track) => ({
      id: track.id,
      position: track.position,
      title: track.title,
      isrc: track.isrc,
      explicit: track.explicit,
      durationMs: track.durationMs,
      fileName: track.entryName,
      originalFileName: track.originalFileName,
      fileSizeBytes: track.fileSizeBytes,
      sampleRate: track.sampleRate,
      bitDepth: track.bitDepth,
      channels: track.channels,
      primaryArtistsData: track.primaryArtistsData,
      featuredArtistsData: track.featuredArtistsData,
      songwriters: track.songwriters,
      producers: track.producers,
    })),
    uploader: { email: data.uploader.email, artistName: data.uploader.artistName },
  };
}

type ErnFile = { fileName: string; fileSizeBytes?: number; md5?: string | null };

/**
 * The release as the ERN builder takes it, from the export data: the ZIP export and store deliveries
 * differ only in the stores that get deals and in where each file is (and its hash, once sent).
 */
export function ernReleaseFrom(
  data: ExportData,
  where: {
    distributionStores: ErnRelease['distributionStores'];
    cover: ErnRelease['cover'];
    trackFile: (track: ExportData['tracks'][number], index: number) => ErnFile;
  },
): ErnRelease {
  const { release } = data;
  return {
    id: release.id,
    title: release.title,
    upc: release.upc,
    labelName: release.labelName,
    genre: release.genre,
    releaseDate: release.releaseDate,
    originalReleaseDate: release.originalReleaseDate,
    copyrightHolder: release.copyrightHolder,
    copyrightYear: release.copyrightYear,
    publishingHolder: release.publishingHolder,
    publishingYear: release.publishingYear,
    distributionStores: where.distributionStores,
    primaryArtists:
      release.primaryArtistsData.length > 0
        ? release.primaryArtistsData
        : release.primaryArtists.map((name) => ({ name })),
    featuredArtists:
      release.featuredArtistsData.length > 0
        ? release.featuredArtistsData
        : release.featuredArtists.map((name) => ({ name })),
    cover: where.cover,
    tracks: data.tracks.map((track, index) => ({
      id: track.id,
      position: track.position,
      title: track.title,
      isrc: track.isrc,
      explicit: track.explicit,
      durationMs: track.durationMs,
      fileSizeBytes: track.fileSizeBytes,
      sampleRate: track.sampleRate,
      bitDepth: track.bitDepth,
      channels: track.channels,
      primaryArtists: track.primaryArtistsData,
      featuredArtists: track.featuredArtistsData,
      songwriters: track.songwriters,
      producers: track.producers,
      ...where.trackFile(track, index),
    })),
  };
}

export function exportErn(data: ExportData, config: Config, options: { messageId: string; createdAt: Date }) {
  const ern = ernReleaseFrom(data, {
    distributionStores: data.release.distributionStores,
    cover: data.coverEntryName
      ? { fileName: data.coverEntryName, codec: data.coverEntryName.endsWith('.png') ? 'PNG' : 'JPEG' }
      : null,
    trackFile: (track) => ({ fileName: track.entryName }),
  });
  return buildErnMessage(
    ern,
    {
      senderPartyId: config.DDEX_SENDER_PARTY_ID,
      senderName: config.DDEX_SENDER_NAME,
      recipientPartyId: config.DDEX_RECIPIENT_PARTY_ID,
      recipientName: config.DDEX_RECIPIENT_NAME,
    },
    options,
  );
}

/**
 * The ZIP as a stream. Files are appended lazily one after another (a stream is opened only when the
 * archiver reaches it), WAVs stored without compression (it would cost CPU for almost nothing).
 */
export function streamExportZip(
  deps: { storage: Storage; config: Config; logger: Logger },
  data: ExportData,
): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const output = new PassThrough();
  archive.on('warning', (error: Error) => deps.logger.warn({ err: error }, 'export archive warning'));
  archive.on('error', (error: Error) => {
    deps.logger.warn({ err: error, releaseId: data.release.id }, 'export archive failed');
    output.destroy(error);
  });
  archive.pipe(output);

  const lazyFile = (key: string) => {
    // Opened when the archiver starts reading it, so only one file is open at a time.
    const stream = new PassThrough();
    let isStarted = false;
    stream.on('resume', () => {
      if (isStarted) return;
      isStarted = true;
      deps.storage
        .get(key)
        .then((file) => {
          file.body.on('error', (error) => stream.destroy(error));
          file.body.pipe(stream);
        })
        .catch((error: unknown) => stream.destroy(error as Error));
    });
    return stream;
  };

  const now = new Date();
  if (data.release.coverArtKey && data.coverEntryName) {
    archive.append(lazyFile(data.release.coverArtKey), { name: data.coverEntryName, store: true });
  }
  for (const track of data.tracks) {
    archive.append(lazyFile(track.fileKey), { name: track.entryName, store: true });
  }
  archive.append(`${JSON.stringify(exportMetadata(data, now), null, 2)}\n`, { name: 'metadata.json' });
  archive.append(exportErn(data, deps.config, { messageId: randomUUID(), createdAt: now }), {
    name: 'ern.xml',
  });
  void archive.finalize();
  return output;
}
