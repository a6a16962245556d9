/**
 * A DDEX ERN 4.3 NewReleaseMessage for one release, in the element order of the official schema
 * (release-notification.xsd, AVS 3): MessageHeader, PartyList (one Party per person, with the artist's
 * Spotify and Apple Music ids), ResourceList (one SoundRecording per track and the front cover, each
 * pointing at its file only when the file is in this package), ReleaseList (the main release), DealList
 * (a deal per distinct offer of the chosen stores, in the release's territories from its release date or
 * moment; deals.ts, records 198 and 319).
 */
import type { ArtistCredit } from '../../db/schema';
import { artistPartyIds, type ProfileStoreIds, profilePartyIds } from './artist-ids';
import { type ErnReleaseStart, type ErnTerritories, storeDealList } from './deals';
import { aiContributors, aiDisplayCredits, type ErnAiDisclosure } from './ern-ai';
import {
  type ErnContentId,
  youtubeDealList,
  youtubeExtraRecipients,
  youtubeTrackReleases,
} from './ern-youtube';
import { el, renderXml } from './xml';

export type ErnPerson = { firstName: string; middleName: string | null; lastName: string };

export type ErnTrack = {
  id: string;
  position: number;
  title: string;
  isrc: string | null;
  explicit: boolean;
  durationMs: number | null;
  /** The file's name inside the delivery (the ZIP entry). */
  fileName: string;
  fileSizeBytes: number;
  /** MD5 of the file as delivered (lowercase hex); sent as HashSum when known. */
  md5?: string | null;
  /**
   * Whether the file is in this package (the default). An update that resends no audio leaves it out:
   * the message then describes the file but names no File, with IsProvidedInDelivery false (record 320).
   */
  isProvided?: boolean;
  sampleRate: number | null;
  bitDepth: number | null;
  channels: number | null;
  primaryArtists: ArtistCredit[];
  featuredArtists: ArtistCredit[];
  songwriters: (ErnPerson & { role: string })[];
  producers: ErnPerson[];
  /** YouTube profile only: the track's Content ID choice (null: never opted in). */
  contentId?: ErnContentId | null;
  /** How AI was used (record 295); null or left out for a track submitted before it was asked. */
  aiDisclosure?: ErnAiDisclosure | null;
};

export type ErnRelease = {
  id: string;
  title: string;
  upc: string | null;
  labelName: string | null;
  genre: string;
  releaseDate: string;
  originalReleaseDate: string | null;
  copyrightHolder: string;
  copyrightYear: number;
  publishingHolder: string;
  publishingYear: number;
  distributionStores: string[];
  primaryArtists: ArtistCredit[];
  featuredArtists: ArtistCredit[];
  cover: {
    fileName: string;
    codec: 'JPEG' | 'PNG';
    md5?: string | null;
    sizeBytes?: number | null;
    /** As ErnTrack's: false when the image is not in this package. */
    isProvided?: boolean;
  } | null;
  tracks: ErnTrack[];
  /**
   * Which deals the message carries: release deals per store (the default), or YouTube's feed (a
   * TrackRelease per track with the Art Track and Content ID deals, ern-youtube.ts, record 192).
   */
  dealProfile?: 'stores' | 'youtube';
  /** Where the deals apply (record 199's columns): worldwide when left out. */
  territories?: ErnTerritories;
  /** When the deals start: the release date at local midnight when left out, else one moment worldwide. */
  releaseStart?: ErnReleaseStart;
  /** The artist profile's store ids and Spotify artist key (record 297), on the party of its name. */
  artistProfile?: ({ name: string } & ProfileStoreIds) | null;
};

export type ErnParties = {
  senderPartyId: string;
  senderName: string;
  recipientPartyId: string;
  recipientName: string;
};

// ------------------------------------------------------------------ values

/** Milliseconds as an ISO 8601 duration: 223583 → PT3M43.583S, 1000 → PT1S. */
export function isoDuration(ms: number | null): string {
  if (!ms || ms <= 0) return 'PT0S';
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1000;
  const secondsText = Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(3).replace(/0+$/, '');
  return `PT${hours ? `${hours}H` : ''}${hours || minutes ? `${minutes}M` : ''}${secondsText}S`;
}

const personName = (person: ErnPerson) =>
  [person.firstName, person.middleName, person.lastName].filter((part) => part?.trim()).join(' ');

const SONGWRITER_ROLES: Record<string, string> = {
  music: 'Composer',
  lyrics: 'Lyricist',
  music_and_lyrics: 'ComposerLyricist',
};

/** 1-3 tracks a Single, 4-6 an EP, 7 or more an Album (the stores' usual rule). */
export function releaseType(trackCount: number): 'Single' | 'EP' | 'Album' {
  if (trackCount <= 3) return 'Single';
  if (trackCount <= 6) return 'EP';
  return 'Album';
}

const displayArtistName = (primary: ArtistCredit[], featured: ArtistCredit[]) => {
  const main = primary.map((artist) => artist.name).join(', ');
  return featured.length > 0 ? `${main} feat. ${featured.map((artist) => artist.name).join(', ')}` : main;
};

/**
 * `File` (URI, the MD5 HashSum when known, FileSize in kilobytes as ERN 4.3 counts it) and
 * `IsProvidedInDelivery`, for a file in this package; only `IsProvidedInDelivery` false for one that is
 * not, so a metadata-only update never names a file missing from its folder (stores answer
 * ResourceMissing). In both DeliveryFile (audio) and TechnicalDetails (image) the flag follows File.
 */
const ernFile = (file: { uri: string; md5: string | null; bytes: number | null; isProvided: boolean }) =>
  file.isProvided
    ? [
        el(
          'File',
          el('URI', file.uri),
          file.md5
            ? el('HashSum', el('Algorithm', 'MD5'), el('DataType', 'HexBinary'), el('HashSumValue', file.md5))
            : null,
          file.bytes !== null ? el('FileSize', Number((file.bytes / 1024).toFixed(3))) : null,
        ),
        el('IsProvidedInDelivery', 'true'),
      ]
    : [el('IsProvidedInDelivery', 'false')];

/** Names compared as one person: Unicode-normalised, spaces collapsed, case ignored. */
const nameKey = (name: string) => name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

type PartyRecord = {
  reference: string;
  name: string;
  /** Namespace → id: a second credit with another id under the same namespace is another person. */
  ids: Map<string, string>;
  links: string[];
};

/**
 * The message's parties: one per person or company, by name. Every credit of the same name (artist,
 * featured artist, songwriter, producer, label) is the same Party, and its ids and links are gathered on
 * it, unless two credits carry different ids of the same system: two people who share a name.
 */
function partyRegistry() {
  const parties: PartyRecord[] = [];
  const byName = new Map<string, PartyRecord[]>();
  const refer = (name: string, ids: { namespace: string; value: string }[] = [], links: string[] = []) => {
    const key = nameKey(name);
    const candidates = byName.get(key) ?? [];
    const fits = (party: PartyRecord) =>
      ids.every(({ namespace, value }) => (party.ids.get(namespace) ?? value) === value);
    let party = candidates.find(fits);
    if (!party) {
      party = { reference: `P${parties.length + 1}`, name: name.trim(), ids: new Map(), links: [] };
      parties.push(party);
      byName.set(key, [...candidates, party]);
    }
    for (const { namespace, value } of ids) party.ids.set(namespace, value);
    for (const link of links) if (link && !party.links.includes(link)) party.links.push(link);
    return party.reference;
  };
  const render = () =>
    parties.map((party) =>
      el(
        'Party',
        el('PartyReference', party.reference),
        el('PartyName', el('FullName', party.name)),
        ...[...party.ids].map(([namespace, value]) =>
          el('PartyId', el('ProprietaryId', { Namespace: namespace }, value)),
        ),
        ...party.links.map((link) => el('ArtistProfilePage', link)),
      ),
    );
  return { refer, render };
}

// ------------------------------------------------------------------ the message

export function buildErnMessage(
  release: ErnRelease,
  parties: ErnParties,
  options: { messageId: string; createdAt: Date; threadId?: string },
): string {
  // Parties: every artist, songwriter, producer and the label, one Party per person, referenced as P1, P2, ...
  const partyList = partyRegistry();
  const profile = release.artistProfile;
  const profileIds = (name: string) =>
    profile && nameKey(profile.name) === nameKey(name) ? profilePartyIds(profile) : [];
  const artistRef = (artist: ArtistCredit) => {
    const own = artistPartyIds(artist);
    // A link typed on the release wins over the profile's id of the same system.
    const fromProfile = profileIds(artist.name).filter(
      (id) => !own.some((o) => o.namespace === id.namespace),
    );
    return partyList.refer(
      artist.name,
      [...own, ...fromProfile],
      [artist.spotifyLink ?? '', artist.appleMusicLink ?? ''],
    );
  };
  const displayArtists = (primary: ArtistCredit[], featured: ArtistCredit[]) => [
    ...primary.map((artist, index) =>
      el(
        'DisplayArtist',
        { SequenceNumber: index + 1 },
        el('ArtistPartyReference', artistRef(artist)),
        el('DisplayArtistRole', 'MainArtist'),
      ),
    ),
    ...featured.map((artist, index) =>
      el(
        'DisplayArtist',
        { SequenceNumber: primary.length + index + 1 },
        el('ArtistPartyReference', artistRef(artist)),
        el('DisplayArtistRole', 'FeaturedArtist'),
      ),
    ),
  ];

  const sender = parties.senderPartyId;
  // ℗ names the owner of the sound recording: the builder's "Publishing Holder" and "Publishing Year",
  // typed under help that says so (record 181). © (CLine, on the release) is the "Copyright Holder".
  const pLine = (year: number, holder: string) =>
    el('PLine', el('Year', year), el('PLineText', `(P) ${year} ${holder}`));
  const releasePrimary = release.primaryArtists.length > 0 ? release.primaryArtists : [{ name: 'Unknown' }];

  const soundRecordings = release.tracks.map((track, index) => {
    const primary = track.primaryArtists.length > 0 ? track.primaryArtists : releasePrimary;
    const contributors = [
      ...track.songwriters.map((writer) => ({
        ref: partyList.refer(personName(writer)),
        role: SONGWRITER_ROLES[writer.role] ?? 'Composer',
      })),
      ...track.producers.map((producer) => ({
        ref: partyList.refer(personName(producer)),
        role: 'StudioProducer',
      })),
    ];
    return el(
      'SoundRecording',
      el('ResourceReference', `A${index + 1}`),
      el('Type', 'MusicalWorkSoundRecording'),
      el(
        'SoundRecordingEdition',
        el(
          'ResourceId',
          track.isrc ? el('ISRC', track.isrc) : null,
          el('ProprietaryId', { Namespace: sender }, track.id),
        ),
        pLine(release.publishingYear, release.publishingHolder),
        el(
          'TechnicalDetails',
          el('TechnicalResourceDetailsReference', `T${index + 1}`),
          el(
            'DeliveryFile',
            el('Type', 'AudioFile'),
            el('ContainerFormat', 'WAV'),
            el('AudioCodecType', 'PCM'),
            track.channels ? el('NumberOfChannels', track.channels) : null,
            track.sampleRate ? el('SamplingRate', { UnitOfMeasure: 'Hz' }, track.sampleRate) : null,
            track.bitDepth ? el('BitsPerSample', track.bitDepth) : null,
            el('Duration', isoDuration(track.durationMs)),
            ...ernFile({
              uri: track.fileName,
              md5: track.md5 ?? null,
              bytes: track.fileSizeBytes,
              isProvided: track.isProvided !== false,
            }),
          ),
        ),
      ),
      el('DisplayTitleText', track.title),
      el(
        'DisplayTitle',
        { ApplicableTerritoryCode: 'Worldwide', IsDefault: true },
        el('TitleText', track.title),
      ),
      el(
        'DisplayArtistName',
        { ApplicableTerritoryCode: 'Worldwide', IsDefault: true },
        displayArtistName(primary, track.featuredArtists),
      ),
      ...displayArtists(primary, track.featuredArtists),
      ...contributors.map((contributor, position) =>
        el(
          'Contributor',
          { SequenceNumber: position + 1 },
          el('ContributorPartyReference', contributor.ref),
          el('Role', contributor.role),
        ),
      ),
      ...aiContributors(track.aiDisclosure, {
        partyReference: artistRef(primary[0] ?? { name: 'Unknown' }),
        namespace: sender,
        firstSequence: contributors.length + 1,
      }),
      el('Duration', isoDuration(track.durationMs)),
      el('ParentalWarningType', track.explicit ? 'Explicit' : 'NotExplicit'),
      aiDisplayCredits(track.aiDisclosure),
    );
  });

  const coverRef = release.cover ? `A${release.tracks.length + 1}` : null;
  const image =
    release.cover && coverRef
      ? el(
          'Image',
          el('ResourceReference', coverRef),
          el('Type', 'FrontCoverImage'),
          el('ResourceId', el('ProprietaryId', { Namespace: sender }, `${release.id}:cover`)),
          el(
            'TechnicalDetails',
            el('TechnicalResourceDetailsReference', `T${release.tracks.length + 1}`),
            el('ImageCodecType', release.cover.codec),
            ...ernFile({
              uri: release.cover.fileName,
              md5: release.cover.md5 ?? null,
              bytes: release.cover.sizeBytes ?? null,
              isProvided: release.cover.isProvided !== false,
            }),
          ),
        )
      : null;

  const labelRef = partyList.refer(release.labelName?.trim() || 'Independent');
  const totalMs = release.tracks.reduce((sum, track) => sum + (track.durationMs ?? 0), 0);
  const isExplicit = release.tracks.some((track) => track.explicit);
  const mainRelease = el(
    'Release',
    el('ReleaseReference', 'R0'),
    el('ReleaseType', releaseType(release.tracks.length)),
    el(
      'ReleaseId',
      release.upc ? el('ICPN', release.upc) : null,
      el('ProprietaryId', { Namespace: sender }, release.id),
    ),
    el('DisplayTitleText', release.title),
    el(
      'DisplayTitle',
      { ApplicableTerritoryCode: 'Worldwide', IsDefault: true },
      el('TitleText', release.title),
    ),
    el(
      'DisplayArtistName',
      { ApplicableTerritoryCode: 'Worldwide', IsDefault: true },
      displayArtistName(releasePrimary, release.featuredArtists),
    ),
    ...displayArtists(releasePrimary, release.featuredArtists),
    el('ReleaseLabelReference', { ApplicableTerritoryCode: 'Worldwide', IsDefault: true }, labelRef),
    pLine(release.publishingYear, release.publishingHolder),
    el(
      'CLine',
      el('Year', release.copyrightYear),
      el('CLineText', `(C) ${release.copyrightYear} ${release.copyrightHolder}`),
    ),
    el('Duration', isoDuration(totalMs)),
    el('Genre', { ApplicableTerritoryCode: 'Worldwide' }, el('GenreText', release.genre)),
    el('ReleaseDate', { ApplicableTerritoryCode: 'Worldwide', IsDefault: true }, release.releaseDate),
    release.originalReleaseDate
      ? el(
          'OriginalReleaseDate',
          { ApplicableTerritoryCode: 'Worldwide', IsDefault: true },
          release.originalReleaseDate,
        )
      : null,
    el('ParentalWarningType', isExplicit ? 'Explicit' : 'NotExplicit'),
    el(
      'ResourceGroup',
      el('SequenceNumber', 1),
      ...release.tracks.map((_track, index) =>
        el(
          'ResourceGroupContentItem',
          el('SequenceNumber', index + 1),
          el('ReleaseResourceReference', `A${index + 1}`),
        ),
      ),
      coverRef ? el('LinkedReleaseResourceReference', coverRef) : null,
    ),
  );

  const isYoutube = release.dealProfile === 'youtube';
  const dealList = isYoutube
    ? youtubeDealList(release)
    : storeDealList(release, { sender, releaseReference: 'R0' });

  const messagingParty = (id: string, name: string) => [
    el('PartyId', id),
    el('PartyName', el('FullName', name)),
  ];
  const partyListElement = el('PartyList');
  const root = el(
    'ern:NewReleaseMessage',
    {
      'xmlns:ern': 'http://ddex.net/xml/ern/43',
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': 'http://ddex.net/xml/ern/43 http://ddex.net/xml/ern/43/release-notification.xsd',
      ReleaseProfileVersionId: 'Audio',
      LanguageAndScriptCode: 'en',
      AvsVersionId: '3',
    },
    el(
      'MessageHeader',
      el('MessageThreadId', options.threadId ?? options.messageId),
      el('MessageId', options.messageId),
      el('MessageSender', ...messagingParty(parties.senderPartyId, parties.senderName)),
      el('MessageRecipient', ...messagingParty(parties.recipientPartyId, parties.recipientName)),
      ...(isYoutube ? youtubeExtraRecipients(release, parties.recipientPartyId) : []).map((recipient) =>
        el('MessageRecipient', ...messagingParty(recipient.partyId, recipient.name)),
      ),
      el('MessageCreatedDateTime', options.createdAt.toISOString()),
      el('MessageControlType', 'LiveMessage'),
    ),
    // The PartyList sits here but is filled last: its parties are collected while building the rest.
    partyListElement,
    el('ResourceList', ...soundRecordings, image),
    el('ReleaseList', mainRelease, ...(isYoutube ? youtubeTrackReleases(release, { sender, labelRef }) : [])),
    dealList,
  );
  partyListElement.children = partyList.render();
  return renderXml(root);
}
