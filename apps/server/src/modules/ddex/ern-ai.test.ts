/** A track's AI disclosure in the ERN (issue 41, record 295), validated against the vendored ERN 4.3 XSD. */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateErn43 } from '../../test-support/ddex';
import { buildErnMessage, type ErnRelease, type ErnTrack } from './ern';
import { aiUserDefinedValues } from './ern-ai';

const SENDER = 'PADPIDA2024TUNEDROP';

const track = (position: number, aiDisclosure: ErnTrack['aiDisclosure']): ErnTrack => ({
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
  primaryArtists: [{ name: 'Luna' }],
  featuredArtists: [],
  songwriters: [{ firstName: 'Ann', middleName: null, lastName: 'Writer', role: 'music_and_lyrics' }],
  producers: [],
  aiDisclosure,
});

const release: ErnRelease = {
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
  distributionStores: ['spotify'],
  primaryArtists: [{ name: 'Luna' }],
  featuredArtists: [],
  cover: { fileName: 'resources/cover.jpg', codec: 'JPEG', md5: null, sizeBytes: 2048 },
  tracks: [
    track(1, { usage: 'assisted', areas: ['lyrics', 'vocals'] }),
    track(2, { usage: 'generated', areas: [] }),
    track(3, { usage: 'none', areas: [] }),
    track(4, null),
  ],
};

const xml = buildErnMessage(
  release,
  {
    senderPartyId: SENDER,
    senderName: 'Tunedrop',
    recipientPartyId: 'PADPIDA2024PARTNER1',
    recipientName: 'P',
  },
  { messageId: 'TD1', createdAt: new Date('2026-11-25T00:00:00Z') },
);
type Role = { '#text': string; '@_Namespace': string; '@_UserDefinedValue': string } | string;
type Recording = {
  Contributor?:
    | { ContributorPartyReference: string; Role: Role }
    | { ContributorPartyReference: string; Role: Role }[];
  DisplayCredits?: { DisplayCreditText: string };
};
const doc = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: false }).parse(
  xml,
).NewReleaseMessage;
const recordings = doc.ResourceList.SoundRecording as Recording[];
const aiRoles = (recording: Recording | undefined) =>
  [recording?.Contributor ?? []]
    .flat()
    .map((contributor) => contributor.Role)
    .filter((role): role is Exclude<Role, string> => typeof role === 'object');

describe('AI disclosure in the ERN', () => {
  it('validates against the vendored ERN 4.3 schema', () => {
    const result = validateErn43(xml);
    expect(result.report).toContain('validates');
    expect(result.status).toBe(0);
  });

  it('an assisted track carries a UserDefined role per part, in the sender namespace, and a credit line', () => {
    const roles = aiRoles(recordings[0]);
    expect(roles.map((role) => role['@_UserDefinedValue'])).toEqual(['AI:Lyricist', 'AI:Vocalist']);
    for (const role of roles) {
      expect(role['#text']).toBe('UserDefined');
      expect(role['@_Namespace']).toBe(SENDER);
    }
    expect(recordings[0]?.DisplayCredits?.DisplayCreditText).toBe('AI-assisted: Lyrics, Vocals');
  });

  it('a fully generated track says so once; no AI and not answered carry nothing', () => {
    expect(aiRoles(recordings[1]).map((role) => role['@_UserDefinedValue'])).toEqual([
      'AI:GeneratedRecording',
    ]);
    expect(recordings[1]?.DisplayCredits?.DisplayCreditText).toBe('Fully AI-generated');
    expect(aiRoles(recordings[2])).toEqual([]);
    expect(recordings[2]?.DisplayCredits).toBeUndefined();
    expect(aiRoles(recordings[3])).toEqual([]);
  });

  it('the AI contributor is the track main artist party', () => {
    const luna = (doc.PartyList.Party as { PartyReference: string; PartyName: { FullName: string } }[]).find(
      (party) => party.PartyName.FullName === 'Luna',
    );
    const contributors = [recordings[0]?.Contributor ?? []].flat();
    const ai = contributors.filter((contributor) => typeof contributor.Role === 'object');
    expect(ai.every((contributor) => contributor.ContributorPartyReference === luna?.PartyReference)).toBe(
      true,
    );
  });

  it('areas are ordered and only kept for an assisted track', () => {
    expect(aiUserDefinedValues({ usage: 'assisted', areas: ['mastering', 'composition'] })).toEqual([
      'AI:Composer',
      'AI:MasteringEngineer',
    ]);
    expect(aiUserDefinedValues({ usage: 'none', areas: ['lyrics'] })).toEqual([]);
  });
});

describe('the artist profile in the ERN (record 297)', () => {
  const withProfile = buildErnMessage(
    {
      ...release,
      artistProfile: {
        name: 'Luna',
        spotifyArtistId: '0OdUWJ0sBjDrqHygGUXeCF',
        appleArtistId: null,
        deezerArtistId: '27',
        amazonArtistId: 'B000QJPXPQ',
        youtubeChannelId: 'UCabcdefghijklmnopqrstuv',
        spotifyArtistKey: 'app-key_0123456789',
      },
    },
    {
      senderPartyId: SENDER,
      senderName: 'Tunedrop',
      recipientPartyId: 'PADPIDA2024PARTNER1',
      recipientName: 'P',
    },
    { messageId: 'TD2', createdAt: new Date('2026-11-25T00:00:00Z') },
  );

  it('carries every store id and the Spotify artist key as PartyIds of the profile party, valid against the XSD', () => {
    const result = validateErn43(withProfile);
    expect(result.status, result.report).toBe(0);
    const party =
      /<Party>\s*<PartyReference>P\d+<\/PartyReference>\s*<PartyName>\s*<FullName>Luna<\/FullName>[\s\S]*?<\/Party>/.exec(
        withProfile,
      )?.[0];
    for (const id of [
      '<ProprietaryId Namespace="PADPIDA2011072101T">spotify:artist:0OdUWJ0sBjDrqHygGUXeCF</ProprietaryId>',
      '<ProprietaryId Namespace="deezer.com">27</ProprietaryId>',
      '<ProprietaryId Namespace="music.amazon.com">B000QJPXPQ</ProprietaryId>',
      '<ProprietaryId Namespace="youtube.com">UCabcdefghijklmnopqrstuv</ProprietaryId>',
      '<ProprietaryId Namespace="SpotifyArtistKey">app-key_0123456789</ProprietaryId>',
    ])
      expect(party).toContain(id);
  });
});
