/**
 * A DDEX ERN 4.3 NewReleaseMessage for one release, in the element order of the official schema
 * (release-notification.xsd, AVS 3): MessageHeader, PartyList, ResourceList (one SoundRecording per
 * track and the front cover), ReleaseList (the main release), DealList (a release deal per selected
 * platform from the release date).
 */
import { PLATFORMS } from '@tunedrop/shared';
import type { ArtistCredit } from '../../db/schema';
import {
  type ErnContentId,
  youtubeDealList,
  youtubeExtraRecipients,
  youtubeTrackReleases,
} from './ern-youtube';
import { el, renderXml, type XmlElement } from './xml';

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
  sampleRate: number | null;
  bitDepth: number | null;
  channels: number | null;
  primaryArtists: ArtistCredit[];
  featuredArtists: ArtistCredit[];
  songwriters: (ErnPerson & { role: string })[];
  producers: ErnPerson[];
  /** YouTube profile only: the track's Content ID choice (null: never opted in). */
  contentId?: ErnContentId | null;
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
  cover: { fileName: string; codec: 'JPEG' | 'PNG'; md5?: string | null; sizeBytes?: number | null } | null;
  tracks: ErnTrack[];
  /**
   * Which deals the message carries: release deals per store (the default), or YouTube's feed (a
   * TrackRelease per track with the Art Track and Content ID deals, ern-youtube.ts, record 192).
   */
  dealProfile?: 'stores' | 'youtube';
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

/** `File`: URI, then the MD5 HashSum when known, then FileSize, which ERN 4.3 counts in kilobytes. */
const ernFile = (uri: string, md5: string | null, bytes: number | null) =>
  el(
    'File',
    el('URI', uri),
    md5 ? el('HashSum', el('Algorithm', 'MD5'), el('DataType', 'HexBinary'), el('HashSumValue', md5)) : null,
    bytes !== null ? el('FileSize', Number((bytes / 1024).toFixed(3))) : null,
  );

// ------------------------------------------------------------------ the message

export function buildErnMessage(
  release: ErnRelease,
  parties: ErnParties,
  options: { messageId: string; createdAt: Date; threadId?: string },
): string {
  // Parties: every artist, songwriter, producer and the label, each once, referenced as P1, P2, ...
  const partyNodes: XmlElement[] = [];
  const partyRefs = new Map<string, string>();
  const party = (kind: 'artist' | 'person' | 'label', name: string, links: string[] = []): string => {
    const key = `${kind}:${name.trim().toLowerCase()}`;
    const existing = partyRefs.get(key);
    if (existing) return existing;
    const reference = `P${partyRefs.size + 1}`;
    partyRefs.set(key, reference);
    partyNodes.push(
      el(
        'Party',
        el('PartyReference', reference),
        el('PartyName', el('FullName', name.trim())),
        ...[...new Set(links.filter(Boolean))].map((link) => el('ArtistProfilePage', link)),
      ),
    );
    return reference;
  };
  const artistRef = (artist: ArtistCredit) =>
    party('artist', artist.name, [artist.spotifyLink ?? '', artist.appleMusicLink ?? '']);
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
        ref: party('person', personName(writer)),
        role: SONGWRITER_ROLES[writer.role] ?? 'Composer',
      })),
      ...track.producers.map((producer) => ({
        ref: party('person', personName(producer)),
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
            ernFile(track.fileName, track.md5 ?? null, track.fileSizeBytes),
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
      el('Duration', isoDuration(track.durationMs)),
      el('ParentalWarningType', track.explicit ? 'Explicit' : 'NotExplicit'),
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
            ernFile(release.cover.fileName, release.cover.md5 ?? null, release.cover.sizeBytes ?? null),
          ),
        )
      : null;

  const labelRef = party('label', release.labelName?.trim() || 'Independent');
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

  const platformNames = new Map<string, string>(PLATFORMS.map((platform) => [platform.id, platform.name]));
  const channels = release.distributionStores.map((store) =>
    el(
      'DistributionChannel',
      el('PartyName', el('FullName', platformNames.get(store) ?? store)),
      el('PartyId', el('ProprietaryId', { Namespace: sender }, store)),
    ),
  );
  const deal = (models: string[], uses: string[]) =>
    el(
      'Deal',
      el(
        'DealTerms',
        el('TerritoryCode', 'Worldwide'),
        el('ValidityPeriod', el('StartDate', release.releaseDate)),
        ...models.map((model) => el('CommercialModelType', model)),
        ...uses.map((use) => el('UseType', use)),
        ...channels,
      ),
    );
  const isYoutube = release.dealProfile === 'youtube';
  const dealList = isYoutube
    ? youtubeDealList(release)
    : channels.length > 0
      ? el(
          'DealList',
          el(
            'ReleaseDeal',
            el('DealReleaseReference', 'R0'),
            deal(
              ['SubscriptionModel', 'AdvertisementSupportedModel'],
              ['OnDemandStream', 'NonInteractiveStream'],
            ),
            deal(['PayAsYouGoModel'], ['PermanentDownload']),
          ),
        )
      : null;

  const messagingParty = (id: string, name: string) => [
    el('PartyId', id),
    el('PartyName', el('FullName', name)),
  ];
  const partyList = el('PartyList');
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
    partyList,
    el('ResourceList', ...soundRecordings, image),
    el('ReleaseList', mainRelease, ...(isYoutube ? youtubeTrackReleases(release, { sender, labelRef }) : [])),
    dealList,
  );
  partyList.children = partyNodes;
  return renderXml(root);
}
