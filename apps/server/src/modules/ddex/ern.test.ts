/** The ℗ and © lines of the ERN message (issue 26, record 181): one meaning from the builder to the store. */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateErn43 } from '../../test-support/ddex';
import { buildErnMessage, type ErnRelease, type ErnTrack } from './ern';

const track = (position: number): ErnTrack => ({
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
});

const release: ErnRelease = {
  id: '3f0c2a8e-5d7b-4c1a-9e2f-1a2b3c4d5e6f',
  title: 'Moonrise',
  upc: '012345678905',
  labelName: 'Moonlight Records',
  genre: 'Pop',
  releaseDate: '2026-12-12',
  originalReleaseDate: '2019-05-01',
  // Different holders and years, so a line taken from the wrong field shows.
  copyrightHolder: 'Moonlight Artwork Ltd',
  copyrightYear: 2026,
  publishingHolder: 'Moonlight Records',
  publishingYear: 2019,
  distributionStores: ['spotify', 'apple_music'],
  primaryArtists: [{ name: 'Luna' }],
  featuredArtists: [],
  cover: { fileName: 'resources/cover.jpg', codec: 'JPEG', md5: null, sizeBytes: 2048 },
  tracks: [track(1), track(2)],
};

const parties = {
  senderPartyId: 'PADPIDA2024TUNEDROP',
  senderName: 'Tunedrop',
  recipientPartyId: 'PADPIDA2024PARTNER1',
  recipientName: 'Partner',
};

const xml = buildErnMessage(release, parties, {
  messageId: 'TD1',
  createdAt: new Date('2026-11-25T00:00:00Z'),
});
const doc = new XMLParser({ removeNSPrefix: true, parseTagValue: false }).parse(xml).NewReleaseMessage;

describe('℗ and © in the ERN', () => {
  it('every sound recording carries the ℗ line of the recording owner (Publishing Holder and Year)', () => {
    const recordings = doc.ResourceList.SoundRecording as { SoundRecordingEdition: { PLine: unknown } }[];
    expect(recordings).toHaveLength(2);
    for (const recording of recordings) {
      expect(recording.SoundRecordingEdition.PLine).toEqual({
        Year: '2019',
        PLineText: '(P) 2019 Moonlight Records',
      });
    }
  });

  it('the release carries the same ℗ line and the © line of the Copyright Holder and Year', () => {
    expect(doc.ReleaseList.Release.PLine).toEqual({ Year: '2019', PLineText: '(P) 2019 Moonlight Records' });
    expect(doc.ReleaseList.Release.CLine).toEqual({
      Year: '2026',
      CLineText: '(C) 2026 Moonlight Artwork Ltd',
    });
    expect(xml).not.toContain('(P) 2026');
    expect(xml).not.toContain('(C) 2019');
  });

  it('validates against the vendored ERN 4.3 schema', () => {
    const result = validateErn43(xml);
    expect(result.status, result.report).toBe(0);
  });
});
