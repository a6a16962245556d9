/**
 * Messages stores accept (issue 26 findings 6 and 7, records 198 and 319-321): one deal per offer of the chosen stores,
 * so a download deal never names a stream-only store; one Party per person, carrying the artist's Spotify
 * and Apple Music ids; files named only when they are in the package; territories and the release moment
 * in every deal. Every message here validates against the vendored ERN 4.3 schema.
 */
import { PLATFORM_IDS, type PlatformId } from '@tunedrop/shared';
import { PLATFORM_DEALS } from '@tunedrop/shared/platform-deals';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateErn43 } from '../../test-support/ddex';
import { ernRelease, ernTrack } from '../../test-support/ern-fixtures';
import { ARTIST_ID_NAMESPACES, parseAppleMusicArtistId } from './artist-ids';
import { buildErnMessage, type ErnRelease, type ErnTrack } from './ern';

// biome-ignore lint/suspicious/noExplicitAny: a parsed XML tree, read by the element names the schema gives
type Xml = any;

const LUNA = {
  name: 'Luna',
  spotifyLink: 'https://open.spotify.com/artist/4q3ewBCX7sLwd24euuV69X?si=abc',
  appleMusicLink: 'https://music.apple.com/us/artist/luna/1234567890',
};

const track = (position: number, overrides: Partial<ErnTrack> = {}): ErnTrack =>
  ernTrack(position, {
    md5: 'd41d8cd98f00b204e9800998ecf8427e',
    // Luna writes her own songs, with a co-writer; the producer is Luna too.
    songwriters: [
      { firstName: 'Luna', middleName: null, lastName: '', role: 'music_and_lyrics' },
      { firstName: 'Ann', middleName: null, lastName: 'Writer', role: 'lyrics' },
    ],
    producers: [{ firstName: 'luna', middleName: null, lastName: '' }],
    ...overrides,
  });

const release = (overrides: Partial<ErnRelease> = {}): ErnRelease =>
  ernRelease({
    publishingHolder: 'Moonlight Records',
    distributionStores: [...PLATFORM_IDS],
    primaryArtists: [LUNA],
    featuredArtists: [
      { name: 'Ann Writer', spotifyLink: 'https://open.spotify.com/artist/0TnOYISbd1XYRBk9myaseg' },
    ],
    // Track 2 credits Luna again, without her links: still the same person.
    tracks: [track(1), track(2, { primaryArtists: [{ name: 'LUNA ' }] })],
    ...overrides,
  });

const parties = {
  senderPartyId: 'PADPIDA2013042401U',
  senderName: 'Tunedrop',
  recipientPartyId: 'PADPIDA2009101501Y',
  recipientName: 'Aggregator',
};

const ARRAYS = new Set([
  'Party',
  'PartyId',
  'SoundRecording',
  'Deal',
  'DistributionChannel',
  'CommercialModelType',
  'UseType',
  'TerritoryCode',
  'ExcludedTerritoryCode',
  'Contributor',
  'DisplayArtist',
  'ArtistProfilePage',
  'ReleaseDeal',
]);
const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ARRAYS.has(name),
});

function build(value: ErnRelease) {
  const xml = buildErnMessage(value, parties, {
    messageId: 'TD1',
    createdAt: new Date('2026-11-25T00:00:00Z'),
  });
  const validation = validateErn43(xml);
  expect(validation.status, validation.report).toBe(0);
  return { xml, doc: parser.parse(xml).NewReleaseMessage as Xml };
}

const storeIdsOf = (deal: Xml) =>
  deal.DealTerms.DistributionChannel.map((channel: Xml) =>
    String(channel.PartyId[0]?.ProprietaryId['#text']),
  );
const textOf = (nodes: Xml[] | undefined) => (nodes ?? []).map((node) => String(node));

describe('deals per store capability', () => {
  const { doc } = build(release());
  const deals = doc.DealList.ReleaseDeal[0].Deal as Xml[];

  it('a PermanentDownload deal names only stores that sell downloads, never Spotify or another stream-only store', () => {
    const downloads = deals.filter((deal) => textOf(deal.DealTerms.UseType).includes('PermanentDownload'));
    expect(downloads).toHaveLength(1);
    const stores = storeIdsOf(downloads[0] as Xml);
    expect(stores.sort()).toEqual(['amazon', 'itunes', 'medianet', 'qobuz']);
    expect(stores).not.toContain('spotify');
    expect(textOf((downloads[0] as Xml).DealTerms.CommercialModelType)).toEqual(['PayAsYouGoModel']);
  });

  it("every store appears in exactly its own offers' deals, with those offers' models and use types", () => {
    for (const id of PLATFORM_IDS) {
      const mine = deals.filter((deal) => storeIdsOf(deal).includes(id));
      const offers = mine.map((deal) => ({
        models: textOf(deal.DealTerms.CommercialModelType),
        uses: textOf(deal.DealTerms.UseType),
      }));
      expect(offers, id).toEqual(
        PLATFORM_DEALS[id as PlatformId].map((o) => ({ models: [...o.models], uses: [...o.uses] })),
      );
    }
  });

  it('a stream-only selection gets no download deal; iTunes alone gets only the download deal', () => {
    const streaming = build(release({ distributionStores: ['spotify', 'deezer', 'tidal'] })).xml;
    expect(streaming).not.toContain('PermanentDownload');
    expect(streaming).not.toContain('PayAsYouGoModel');
    const itunes = build(release({ distributionStores: ['itunes'] })).doc;
    const only = itunes.DealList.ReleaseDeal[0].Deal as Xml[];
    expect(only).toHaveLength(1);
    expect(textOf((only[0] as Xml).DealTerms.UseType)).toEqual(['PermanentDownload']);
  });

  it('no stores, no DealList (a takedown)', () => {
    expect(build(release({ distributionStores: [] })).doc.DealList).toBeUndefined();
  });
});

describe('one Party per person, with the artist ids', () => {
  const { doc } = build(release());
  const partyList = doc.PartyList.Party as Xml[];
  const byRef = new Map(partyList.map((party) => [String(party.PartyReference), party]));
  const named = (name: string) =>
    partyList.filter((party) => String(party.PartyName.FullName).toLowerCase() === name);

  it('Luna, artist on both tracks, songwriter and producer, is one Party referenced everywhere', () => {
    expect(named('luna')).toHaveLength(1);
    const luna = named('luna')[0] as Xml;
    const recordings = doc.ResourceList.SoundRecording as Xml[];
    for (const recording of recordings) {
      expect(String(recording.DisplayArtist[0]?.ArtistPartyReference)).toBe(String(luna.PartyReference));
      const contributors = recording.Contributor.map((c: Xml) => String(c.ContributorPartyReference));
      expect(contributors.filter((ref: string) => ref === String(luna.PartyReference))).toHaveLength(2);
    }
    // The featured artist who co-writes is one Party too.
    expect(named('ann writer')).toHaveLength(1);
    // Every reference resolves; every party is distinct by name here.
    expect(new Set(partyList.map((p) => String(p.PartyName.FullName).toLowerCase())).size).toBe(
      partyList.length,
    );
    for (const recording of recordings)
      for (const c of recording.Contributor)
        expect(byRef.has(String(c.ContributorPartyReference))).toBe(true);
  });

  it("carries Luna's Spotify and Apple Music ids as proprietary PartyIds, and her links", () => {
    const luna = named('luna')[0] as Xml;
    expect(
      luna.PartyId.map((id: Xml) => ({
        namespace: id.ProprietaryId['@Namespace'],
        value: id.ProprietaryId['#text'],
      })),
    ).toEqual([
      { namespace: ARTIST_ID_NAMESPACES.spotify, value: 'spotify:artist:4q3ewBCX7sLwd24euuV69X' },
      { namespace: ARTIST_ID_NAMESPACES.appleMusic, value: '1234567890' },
    ]);
    expect(textOf(luna.ArtistProfilePage)).toEqual([LUNA.spotifyLink, LUNA.appleMusicLink]);
    const ann = named('ann writer')[0] as Xml;
    expect(ann.PartyId.map((id: Xml) => String(id.ProprietaryId['#text']))).toEqual([
      'spotify:artist:0TnOYISbd1XYRBk9myaseg',
    ]);
  });

  it('two artists who share a name but not a Spotify id stay two Parties', () => {
    const other = { name: 'Luna', spotifyLink: 'https://open.spotify.com/artist/7dGJo4pcD2V6oG8kP0tJRR' };
    const { doc: twoLunas } = build(release({ featuredArtists: [other] }));
    const lunas = (twoLunas.PartyList.Party as Xml[]).filter((p) => String(p.PartyName.FullName) === 'Luna');
    expect(lunas).toHaveLength(2);
  });

  it('reads the Apple Music artist id from the link forms Apple uses', () => {
    expect(parseAppleMusicArtistId('https://music.apple.com/us/artist/luna/1234567890')).toBe('1234567890');
    expect(parseAppleMusicArtistId('https://music.apple.com/artist/1234567890')).toBe('1234567890');
    expect(parseAppleMusicArtistId('https://music.apple.com/gb/artist/luna/id42?l=en')).toBe('42');
    expect(parseAppleMusicArtistId('https://music.apple.com/us/album/moonrise/987')).toBeNull();
  });
});

describe('files named only when they are in the package', () => {
  it('a metadata-only update names no File: IsProvidedInDelivery false for every resource', () => {
    const { xml, doc } = build(
      release({
        tracks: [track(1, { isProvided: false }), track(2, { isProvided: false })],
        cover: {
          fileName: 'resources/cover.jpg',
          codec: 'JPEG',
          md5: null,
          sizeBytes: 2048,
          isProvided: false,
        },
      }),
    );
    expect(xml).not.toContain('<URI>');
    expect(xml).not.toContain('<HashSum>');
    for (const recording of doc.ResourceList.SoundRecording as Xml[]) {
      const file = recording.SoundRecordingEdition.TechnicalDetails.DeliveryFile;
      expect(file.File).toBeUndefined();
      expect(String(file.IsProvidedInDelivery)).toBe('false');
      // Still described: the store keeps the file it has.
      expect(String(file.AudioCodecType)).toBe('PCM');
    }
    expect(String(doc.ResourceList.Image.TechnicalDetails.IsProvidedInDelivery)).toBe('false');
  });

  it('an update resending one file names that file alone, with its MD5', () => {
    const { doc } = build(release({ tracks: [track(1, { isProvided: false }), track(2)] }));
    const [first, second] = (doc.ResourceList.SoundRecording as Xml[]).map(
      (recording) => recording.SoundRecordingEdition.TechnicalDetails.DeliveryFile,
    );
    expect(first?.File).toBeUndefined();
    expect(String(second?.File.URI)).toBe('resources/2.wav');
    expect(String(second?.File.HashSum.HashSumValue)).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(String(second?.IsProvidedInDelivery)).toBe('true');
  });
});

describe('territories and the release moment in the deals', () => {
  const termsOf = (value: ErnRelease) =>
    (build(value).doc.DealList.ReleaseDeal as Xml[]).flatMap((rd) =>
      (rd.Deal as Xml[]).map((deal) => deal.DealTerms),
    );

  it('worldwide from the release date by default', () => {
    for (const terms of termsOf(release())) {
      expect(textOf(terms.TerritoryCode)).toEqual(['Worldwide']);
      expect(String(terms.ValidityPeriod.StartDate)).toBe('2026-12-12');
      expect(terms.ValidityPeriod.StartDateTime).toBeUndefined();
    }
  });

  it('an include list is the TerritoryCodes, an exclude list the ExcludedTerritoryCodes', () => {
    for (const terms of termsOf(release({ territories: { mode: 'include', codes: ['US', 'DE', 'GB'] } }))) {
      expect(textOf(terms.TerritoryCode)).toEqual(['DE', 'GB', 'US']);
      expect(terms.ExcludedTerritoryCode).toBeUndefined();
    }
    for (const terms of termsOf(release({ territories: { mode: 'exclude', codes: ['CN', 'RU'] } }))) {
      expect(terms.TerritoryCode).toBeUndefined();
      expect(textOf(terms.ExcludedTerritoryCode)).toEqual(['CN', 'RU']);
    }
  });

  it('one moment worldwide is a StartDateTime in UTC, in the store deals and in YouTube’s', () => {
    const at = new Date('2026-12-11T23:00:00.000Z');
    const moment = { mode: 'worldwide_moment' as const, at };
    for (const terms of termsOf(release({ releaseStart: moment }))) {
      expect(String(terms.ValidityPeriod.StartDateTime)).toBe('2026-12-11T23:00:00Z');
      expect(terms.ValidityPeriod.StartDate).toBeUndefined();
    }
    const youtube = release({
      dealProfile: 'youtube',
      distributionStores: ['youtube_music'],
      releaseStart: moment,
      territories: { mode: 'exclude', codes: ['FR'] },
      tracks: [
        track(1, { contentId: { isOptedIn: true, optedOutOn: null } }),
        track(2, { contentId: { isOptedIn: false, optedOutOn: '2027-01-05' } }),
      ],
    });
    const terms = termsOf(youtube);
    expect(terms.length).toBe(4);
    for (const each of terms) {
      expect(String(each.ValidityPeriod.StartDateTime)).toBe('2026-12-11T23:00:00Z');
      expect(textOf(each.ExcludedTerritoryCode)).toEqual(['FR']);
    }
    expect(
      terms
        .map((each) => each.ValidityPeriod.EndDateTime)
        .filter(Boolean)
        .map(String),
    ).toEqual(['2027-01-05T00:00:00Z']);
  });
});
