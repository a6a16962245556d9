/**
 * A folder as Tunedrop's own export writes it (ern.xml by the DDEX builder, cover.jpg, the WAVs under
 * their names), for the catalogue import's tests and journeys (records 232, 233): a release with
 * territories, a release moment, stores and credits (StudioProducer among them) that must all come back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildErnMessage, type ErnRelease } from '../modules/ddex';
import { coverJpeg, tinyWav } from './catalogue-export';

export type TunedropExportOptions = {
  title: string;
  artist: string;
  upc: string;
  isrc: string;
  territories?: ErnRelease['territories'];
  releaseStart?: ErnRelease['releaseStart'];
  distributionStores?: string[];
  releaseDate?: string;
};

export async function tunedropExportFolder(
  dir: string,
  options: TunedropExportOptions,
  fileName = 'ern.xml',
): Promise<void> {
  const release: ErnRelease = {
    id: crypto.randomUUID(),
    title: options.title,
    upc: options.upc,
    labelName: 'Northern Label',
    genre: 'Pop',
    releaseDate: options.releaseDate ?? '2027-03-05',
    originalReleaseDate: null,
    copyrightHolder: 'Northern Label Ltd',
    copyrightYear: 2026,
    publishingHolder: 'Northern Label Ltd',
    publishingYear: 2026,
    distributionStores: options.distributionStores ?? ['spotify', 'apple_music'],
    primaryArtists: [{ name: options.artist }],
    featuredArtists: [],
    cover: { fileName: 'cover.jpg', codec: 'JPEG' },
    territories: options.territories ?? { mode: 'worldwide' },
    releaseStart: options.releaseStart ?? { mode: 'local_midnight' },
    tracks: [
      {
        id: crypto.randomUUID(),
        position: 1,
        title: `${options.title} (Original Mix)`,
        isrc: options.isrc,
        explicit: false,
        durationMs: 250,
        fileName: 'track-1.wav',
        fileSizeBytes: tinyWav().length,
        sampleRate: 44_100,
        bitDepth: 16,
        channels: 2,
        primaryArtists: [{ name: options.artist }],
        featuredArtists: [],
        songwriters: [{ firstName: 'Jane', middleName: null, lastName: 'Writer', role: 'music_and_lyrics' }],
        producers: [{ firstName: 'Sam', middleName: null, lastName: 'Producer' }],
      },
    ],
  };
  const xml = buildErnMessage(
    release,
    {
      senderPartyId: 'PADPIDA0000000000T',
      senderName: 'Tunedrop',
      recipientPartyId: 'PADPIDA0000000001T',
      recipientName: 'Store',
    },
    { messageId: crypto.randomUUID(), createdAt: new Date() },
  );
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, fileName), xml);
  fs.writeFileSync(path.join(dir, 'cover.jpg'), await coverJpeg());
  fs.writeFileSync(path.join(dir, 'track-1.wav'), tinyWav());
}
