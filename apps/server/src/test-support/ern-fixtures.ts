/**
 * ERN message fixtures for the ddex tests (records 192, 198): Luna's "Moonrise" and its tracks, each test
 * overriding what it is about.
 */
import type { ErnRelease, ErnTrack } from '../modules/ddex';

/** Track `position` of "Moonrise": a 3-minute 16-bit WAV written by Ann Writer and produced by Bo Producer. */
export const ernTrack = (position: number, overrides: Partial<ErnTrack> = {}): ErnTrack => ({
  id: `00000000-0000-4000-8000-00000000000${position}`,
  position,
  title: `Song ${position}`,
  isrc: `USABC240000${position}`,
  explicit: false,
  durationMs: 180_000,
  fileName: `resources/${position}.wav`,
  fileSizeBytes: 4096,
  sampleRate: 44100,
  bitDepth: 16,
  channels: 2,
  primaryArtists: [],
  featuredArtists: [],
  songwriters: [{ firstName: 'Ann', middleName: null, lastName: 'Writer', role: 'music_and_lyrics' }],
  producers: [{ firstName: 'Bo', middleName: null, lastName: 'Producer' }],
  ...overrides,
});

/** Luna's "Moonrise" on Moonlight Records (2026-12-12), with one track and its cover. */
export const ernRelease = (overrides: Partial<ErnRelease> = {}): ErnRelease => ({
  id: '3f0c2a8e-5d7b-4c1a-9e2f-1a2b3c4d5e6f',
  title: 'Moonrise',
  upc: '012345678905',
  labelName: 'Moonlight Records',
  genre: 'Pop',
  releaseDate: '2026-12-12',
  originalReleaseDate: null,
  copyrightHolder: 'Luna',
  copyrightYear: 2026,
  publishingHolder: 'Luna',
  publishingYear: 2026,
  distributionStores: [],
  primaryArtists: [{ name: 'Luna' }],
  featuredArtists: [],
  cover: { fileName: 'resources/cover.jpg', codec: 'JPEG', md5: null, sizeBytes: 2048 },
  tracks: [ernTrack(1)],
  ...overrides,
});
