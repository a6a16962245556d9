/**
 * Export of one release as a single ZIP streamed straight from storage (archiver): the cover, the tracks
 * under their original names, metadata.json and ern.xml (DDEX ERN 4.3). Nothing is buffered whole.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { ExportManifest } from '@tunedrop/shared/schemas/admin-releases';
import { ZipArchive } from 'archiver';
import type { Config } from '../../config';
import type { Storage } from '../../infra/storage/storage';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { buildErnMessage } from './ern';
import { ernReleaseFrom, type ReleaseData } from './release-data';

/** Checks every file is in storage before a byte is sent, so a broken export fails as a clean error. */
export async function exportManifest(
  storage: Storage,
  data: ReleaseData,
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

export function exportMetadata(data: ReleaseData, exportedAt: Date) {
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

export function exportErn(
  data: ReleaseData,
  config: Config,
  options: { messageId: string; createdAt: Date },
) {
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
  data: ReleaseData,
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
        .catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
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
