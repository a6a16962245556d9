/**
 * Reads an ERN 4.3 NewReleaseMessage into a SourceRelease (record 200): the main Release, its sound
 * recordings in ResourceGroup order, the front cover, codes, ℗/© lines, label, dates, credits and
 * whether its deals say it is live. Parsed like acknowledgements (modules/ddex/acks.ts, fast-xml-parser),
 * and a DOCTYPE is refused before parsing, so no entity is ever declared, expanded or fetched.
 */
import type { SongwriterRole } from '@tunedrop/shared';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { readDeals } from './ern-deals-reader';
import {
  holderFromLine,
  normaliseIcpn,
  type SourceArtistLinks,
  type SourceFile,
  type SourcePerson,
  type SourceRelease,
  type SourceTrack,
  splitPersonName,
} from './source';

export class ErnReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErnReadError';
  }
}

const LISTS = new Set([
  'Party',
  'PartyName',
  'SoundRecording',
  'Image',
  'Release',
  'TrackRelease',
  'DisplayTitle',
  'DisplayArtistName',
  'DisplayArtist',
  'Contributor',
  'ResourceGroup',
  'ResourceGroupContentItem',
  'ReleaseDeal',
  'Deal',
  'DealReleaseReference',
  'ReleaseLabelReference',
  'Genre',
  'PLine',
  'CLine',
  'DeliveryFile',
  'File',
  'ReleaseType',
  'ResourceId',
  'ReleaseId',
  'ISRC',
  'ICPN',
  'Role',
  'SoundRecordingEdition',
  'TechnicalDetails',
  'ValidityPeriod',
  'LinkedReleaseResourceReference',
  'ReleaseDate',
  'OriginalReleaseDate',
  'ParentalWarningType',
]);

/** Limits on what is parsed (record 232): ERN 4.3 nests about 10 deep; the size is checked before reading. */
export const ERN_LIMITS = { depth: 64 } as const;

const parser = new XMLParser({
  maxNestedTags: ERN_LIMITS.depth,
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => LISTS.has(name),
  parseTagValue: false,
  parseAttributeValue: false,
});

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const node = (value: unknown): Node => (isNode(value) ? value : {});
const text = (value: unknown): string | null => {
  if (Array.isArray(value)) return text(value[0]);
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const trimmed = String(value).trim();
    return trimmed === '' ? null : trimmed;
  }
  if (isNode(value) && '#text' in value) return text(value['#text']);
  return null;
};
/** An element's occurrences as given (text-only ones stay strings, so their text can be read). */
const raw = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
const list = (value: unknown): Node[] => raw(value).map(node);
const texts = (value: unknown): string[] => raw(value).flatMap((item) => text(item) ?? []);
const attr = (value: unknown, name: string): string | null =>
  isNode(value) ? text(value[`@${name}`]) : null;

/** The element meant for everyone: IsDefault, else one without a language, else the first. */
function preferred<T>(items: T[]): T | undefined {
  return (
    items.find((item) => attr(item, 'IsDefault') === 'true') ??
    items.find((item) => !attr(item, 'LanguageAndScriptCode')) ??
    items[0]
  );
}

function titleOf(item: Node): string | null {
  const display = preferred(list(item.DisplayTitle));
  if (display) {
    const title = text(display.TitleText);
    const sub = text(display.SubTitle);
    if (title) return sub ? `${title} (${sub})` : title;
  }
  return text(item.DisplayTitleText);
}

type PartyRead = { fullName: string; person: SourcePerson; links: SourceArtistLinks };

/** Spotify's DPID (the namespace of its artist URIs, modules/ddex/ern.ts) and Apple Music's documented namespace. */
const SPOTIFY_NAMESPACE = 'PADPIDA2011072101T';
const APPLE_NAMESPACE = 'music.apple.com';

/** An artist's store links: the profile pages as written, else links made from the proprietary ids. */
function linksOf(party: Node): SourceArtistLinks {
  const links: SourceArtistLinks = {};
  for (const page of texts(party.ArtistProfilePage)) {
    if (/^https:\/\/open\.spotify\.com\//i.test(page)) links.spotifyLink ??= page;
    else if (/^https:\/\/music\.apple\.com\//i.test(page)) links.appleMusicLink ??= page;
  }
  for (const id of list(party.PartyId).flatMap((partyId) => raw(partyId.ProprietaryId))) {
    const namespace = attr(id, 'Namespace');
    const value = text(id);
    if (!value) continue;
    const spotify = /^spotify:artist:([A-Za-z0-9]{22})$/.exec(value)?.[1];
    if (namespace === SPOTIFY_NAMESPACE && spotify)
      links.spotifyLink ??= `https://open.spotify.com/artist/${spotify}`;
    else if (namespace === APPLE_NAMESPACE && /^\d{1,15}$/.test(value))
      links.appleMusicLink ??= `https://music.apple.com/artist/${value}`;
  }
  return links;
}

function partyNames(doc: Node): Map<string, PartyRead> {
  const parties = new Map<string, PartyRead>();
  for (const party of list(node(doc.PartyList).Party)) {
    const ref = text(party.PartyReference);
    const name = preferred(list(party.PartyName));
    if (!ref || !name) continue;
    const keyName = text(name.KeyName);
    const before = text(name.NamesBeforeKeyName);
    const fullName = text(name.FullName) ?? [before, keyName].filter(Boolean).join(' ');
    const person =
      keyName && before ? { ...splitPersonName(before), lastName: keyName } : splitPersonName(fullName);
    if (keyName && before) {
      // NamesBeforeKeyName is every given name: the first is the first name, the rest middle names.
      const [first = '', ...middle] = before.split(/\s+/);
      person.firstName = first;
      if (middle.length > 0) person.middleName = middle.join(' ');
      else delete person.middleName;
    }
    parties.set(ref, { fullName, person, links: linksOf(party) });
  }
  return parties;
}

function lineOf(items: Node[], kind: 'P' | 'C'): { holder: string; year: number | null } | null {
  const line = preferred(items);
  if (!line) return null;
  const yearText = text(line.Year);
  const year = yearText && /^\d{4}$/.test(yearText) ? Number(yearText) : null;
  const lineText = text(line[`${kind}LineText`]);
  if (!lineText) return null;
  return { holder: holderFromLine(lineText, year), year };
}

function hashOf(file: Node): SourceFile['hash'] {
  const hash = node(file.HashSum);
  const algorithm = text(hash.Algorithm)?.toLowerCase().replace('-', '');
  const value = text(hash.HashSumValue)?.toLowerCase();
  if (!algorithm || !value) return undefined;
  if (algorithm === 'md5' || algorithm === 'sha1' || algorithm === 'sha256') return { algorithm, value };
  return undefined;
}

/** The first File of a TechnicalDetails (through DeliveryFile for sound recordings, directly for images). */
function fileOf(details: Node[]): SourceFile | null {
  for (const detail of details) {
    for (const delivery of [detail, ...list(detail.DeliveryFile)]) {
      const file = list(delivery.File)[0];
      const uri = file ? text(file.URI) : null;
      if (file && uri) {
        const codec = text(delivery.AudioCodecType) ?? undefined;
        const hash = hashOf(file);
        return { path: uri, ...(hash ? { hash } : {}), ...(codec ? { codec } : {}) };
      }
    }
  }
  return null;
}

const SONGWRITER_ROLES: Record<string, SongwriterRole> = {
  Composer: 'music',
  Lyricist: 'lyrics',
  ComposerLyricist: 'music_and_lyrics',
  Songwriter: 'music_and_lyrics',
  Writer: 'music_and_lyrics',
};

function readTrack(
  recording: Node,
  parties: ReturnType<typeof partyNames>,
  notes: Set<string>,
): SourceTrack & { reference: string | null } {
  const editions = list(recording.SoundRecordingEdition);
  const edition = editions[0] ?? {};
  const ids = [...list(edition.ResourceId), ...list(recording.ResourceId)];
  const isrc = ids.map((id) => text(id.ISRC)).find(Boolean) ?? null;
  const details = [...list(edition.TechnicalDetails), ...list(recording.TechnicalDetails)];
  const primaryArtists: string[] = [];
  const featuredArtists: string[] = [];
  const artists = list(recording.DisplayArtist).sort(
    (a, b) => Number(attr(a, 'SequenceNumber') ?? 0) - Number(attr(b, 'SequenceNumber') ?? 0),
  );
  for (const artist of artists) {
    const name = parties.get(text(artist.ArtistPartyReference) ?? '')?.fullName;
    if (!name) continue;
    const role = text(artist.DisplayArtistRole) ?? 'MainArtist';
    if (role === 'FeaturedArtist') featuredArtists.push(name);
    else if (role === 'MainArtist' || role === 'Artist') primaryArtists.push(name);
  }
  if (primaryArtists.length === 0) {
    const display = text(preferred(raw(recording.DisplayArtistName)));
    if (display) primaryArtists.push(display);
  }
  const writers = new Map<string, SourcePerson & { role: SongwriterRole }>();
  const producers: SourcePerson[] = [];
  for (const contributor of list(recording.Contributor)) {
    const party = parties.get(text(contributor.ContributorPartyReference) ?? '');
    if (!party) continue;
    for (const role of texts(contributor.Role)) {
      const writerRole = SONGWRITER_ROLES[role];
      if (writerRole) {
        const earlier = writers.get(party.fullName);
        writers.set(party.fullName, {
          ...party.person,
          role: earlier && earlier.role !== writerRole ? 'music_and_lyrics' : writerRole,
        });
      } else if (role === 'Producer' || role === 'StudioProducer') {
        // StudioProducer is what ERN 4.3's role list (and Tunedrop's own export) calls a producer.
        if (
          !producers.some(
            (p) => p.lastName === party.person.lastName && p.firstName === party.person.firstName,
          )
        )
          producers.push(party.person);
      } else if (role !== 'Artist' && role !== 'MainArtist' && role !== 'FeaturedArtist') {
        notes.add(`Credit not kept (no matching field): ${role} ${party.fullName}`);
      }
    }
  }
  const warnings = [...texts(recording.ParentalWarningType), ...texts(edition.ParentalWarningType)];
  return {
    reference: text(recording.ResourceReference),
    title: titleOf(recording) ?? '',
    isrc,
    isExplicit: warnings.includes('Explicit'),
    audio: fileOf(details),
    primaryArtists,
    featuredArtists,
    songwriters: [...writers.values()],
    producers,
  };
}

/** Resource references of a release in play order: groups by SequenceNumber, items by theirs, nested groups in place. */
function orderedReferences(groups: Node[]): { tracks: string[]; linked: string[] } {
  const tracks: string[] = [];
  const linked: string[] = [];
  const bySequence = (a: Node, b: Node) =>
    Number(text(a.SequenceNumber) ?? 0) - Number(text(b.SequenceNumber) ?? 0);
  const walk = (group: Node) => {
    linked.push(...texts(group.LinkedReleaseResourceReference));
    const entries = [
      ...list(group.ResourceGroupContentItem).map((item) => ({ item, isGroup: false })),
      ...list(group.ResourceGroup).map((item) => ({ item, isGroup: true })),
    ].sort((a, b) => bySequence(a.item, b.item));
    for (const { item, isGroup } of entries) {
      if (isGroup) walk(item);
      else {
        const ref = text(item.ReleaseResourceReference);
        if (ref) tracks.push(ref);
        linked.push(...texts(item.LinkedReleaseResourceReference));
      }
    }
  };
  for (const group of [...groups].sort(bySequence)) walk(group);
  return { tracks, linked };
}

function dateOnly(value: string | null): string | null {
  const match = value ? /^(\d{4}-\d{2}-\d{2})/.exec(value) : null;
  return match?.[1] ?? null;
}

/** Parses one message; throws ErnReadError when it is not a readable ERN 4.3 NewReleaseMessage. */
export function readErnMessage(xml: string, source: string, now: Date = new Date()): SourceRelease {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    throw new ErnReadError(
      'The message declares a DOCTYPE or entities; these are refused (no entity is ever expanded).',
    );
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new ErnReadError(`Not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const ernNamespace = /xmlns(?::[\w-]+)?="(http:\/\/ddex\.net\/xml\/ern\/[^"]+)"/.exec(xml)?.[1];
  if (ernNamespace && ernNamespace !== 'http://ddex.net/xml/ern/43')
    throw new ErnReadError(`Only ERN 4.3 messages are read (this one is ${ernNamespace}).`);
  let parsed: unknown;
  try {
    parsed = parser.parse(xml);
  } catch (error) {
    // The parser's own limits (nesting) and anything else it refuses: this message only, with the reason.
    const message = error instanceof Error ? error.message : String(error);
    throw new ErnReadError(
      /nested/i.test(message)
        ? `The message nests elements more than ${ERN_LIMITS.depth} deep; it is refused.`
        : `The message could not be read: ${message}`,
    );
  }
  const root = node(parsed);
  if (!('NewReleaseMessage' in root)) throw new ErnReadError('Not an ERN NewReleaseMessage.');
  const doc = node(root.NewReleaseMessage);

  const parties = partyNames(doc);
  const resources = node(doc.ResourceList);
  const releaseList = node(doc.ReleaseList);
  const releasesFound = list(releaseList.Release);
  const release = releasesFound[0];
  if (!release) throw new ErnReadError('The message has no Release.');
  if (releasesFound.length > 1) throw new ErnReadError('The message has more than one main Release.');
  const notes = new Set<string>();
  const problems: string[] = [];

  const recordings = new Map<string, ReturnType<typeof readTrack>>();
  for (const recording of list(resources.SoundRecording)) {
    const track = readTrack(recording, parties, notes);
    if (track.reference) recordings.set(track.reference, track);
  }
  const images = new Map(list(resources.Image).map((image) => [text(image.ResourceReference) ?? '', image]));

  const order = orderedReferences(list(release.ResourceGroup));
  const tracks: SourceTrack[] = [];
  for (const reference of order.tracks) {
    const track = recordings.get(reference);
    if (!track) {
      if (!images.has(reference))
        problems.push(`The release refers to ${reference}, which the message does not describe.`);
      continue;
    }
    const { reference: _reference, ...rest } = track;
    tracks.push(rest);
  }
  const coverImage =
    order.linked
      .map((ref) => images.get(ref))
      .find((image) => image && text(image.Type) === 'FrontCoverImage') ??
    [...images.values()].find((image) => text(image.Type) === 'FrontCoverImage');
  const cover = coverImage ? fileOf(list(coverImage.TechnicalDetails)) : null;
  if (coverImage && !cover) notes.add('The front cover image names no file.');

  const ids = list(release.ReleaseId);
  const icpn = ids.map((id) => text(id.ICPN)).find(Boolean);
  const labelRef = text(preferred(raw(release.ReleaseLabelReference)));
  const labelName = labelRef ? (parties.get(labelRef)?.fullName ?? null) : null;
  const firstEdition = list(
    list(resources.SoundRecording).find((r) => text(r.ResourceReference) === order.tracks[0])
      ?.SoundRecordingEdition,
  )[0];
  const pLine = lineOf(list(release.PLine), 'P') ?? lineOf(list(firstEdition?.PLine), 'P');
  const cLine = lineOf(list(release.CLine), 'C');
  const genre = text(preferred(list(release.Genre))?.GenreText) ?? '';
  const today = now.toISOString().slice(0, 10);
  const statedDate = dateOnly(text(preferred(raw(release.ReleaseDate))));
  const deals = readDeals(
    node(doc.DealList),
    { reference: text(release.ReleaseReference) ?? 'R0', releaseDate: statedDate },
    today,
  );
  for (const note of deals.notes) notes.add(note);
  const releaseDate = statedDate ?? deals.firstStart;
  const displayArtists = list(release.DisplayArtist)
    .filter((artist) => (text(artist.DisplayArtistRole) ?? 'MainArtist') !== 'FeaturedArtist')
    .sort((a, b) => Number(attr(a, 'SequenceNumber') ?? 0) - Number(attr(b, 'SequenceNumber') ?? 0))
    .flatMap((artist) => parties.get(text(artist.ArtistPartyReference) ?? '')?.fullName ?? []);
  const display = text(preferred(raw(release.DisplayArtistName)));
  const artistLinks: Record<string, SourceArtistLinks> = {};
  for (const party of parties.values())
    if (party.links.spotifyLink || party.links.appleMusicLink)
      artistLinks[party.fullName.trim().toLowerCase()] = party.links;
  const originalReleaseDate = dateOnly(text(preferred(raw(release.OriginalReleaseDate))));

  return {
    source,
    title: titleOf(release) ?? '',
    genre,
    releaseDate,
    originalReleaseDate,
    labelName,
    upc: icpn ? normaliseIcpn(icpn) : null,
    copyrightHolder: cLine?.holder ?? '',
    copyrightYear: cLine?.year ?? null,
    publishingHolder: pLine?.holder ?? '',
    publishingYear: pLine?.year ?? null,
    cover,
    stores: deals.stores,
    storeState: deals.state,
    availability: deals.availability,
    displayArtists: displayArtists.length > 0 ? displayArtists : display ? [display] : [],
    artistLinks,
    tracks,
    problems,
    notes: [...notes],
  };
}
