import { eq } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { auditLog, releases, tracks } from '../../db/schema';
import { validateErn43 } from '../../test-support/ddex';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { addTestCover } from '../../test-support/releases-fixtures';
import { isoDuration } from './ern';

type Signed = Awaited<ReturnType<TestSystem['signedInUser']>>;
let system: TestSystem;
let moderator: Signed;
let artist: Signed;
let releaseId: string;
let trackKeys: string[];

const SENDER = 'PADPIDA2024TUNEDROP';
const RECIPIENT = 'PADPIDA2024PARTNER1';

beforeAll(async () => {
  system = await createTestSystem({
    DDEX_SENDER_PARTY_ID: SENDER,
    DDEX_SENDER_NAME: 'Tunedrop Test',
    DDEX_RECIPIENT_PARTY_ID: RECIPIENT,
    DDEX_RECIPIENT_NAME: 'Partner & Co',
  });
  moderator = await system.signedInUser({ roles: ['moderator'] });
  artist = await system.signedInUser();
  const uploader = await createTestUser(system, {
    email: 'export-owner@example.com',
    artistName: 'Nova <Band>',
  });
  const created = await createTestRelease(system, uploader.userId, {
    title: 'Night & Day',
    status: 'approved',
    trackCount: 3,
    isrcs: ['USABC2400001', null, 'USABC2400003'],
    upc: '012345678905',
  });
  releaseId = created.releaseId;
  await addTestCover(system, uploader.userId, releaseId);
  await system.db
    .update(releases)
    .set({
      labelName: 'Moon Label',
      primaryArtistsData: [{ name: 'Nova <Band>', spotifyLink: 'https://open.spotify.com/artist/abc' }],
      primaryArtists: ['Nova <Band>'],
      featuredArtists: ['Guest Star'],
      featuredArtistsData: [{ name: 'Guest Star' }],
      copyrightHolder: 'Nova Holdings',
      copyrightYear: 2023,
      publishingHolder: 'Nova Records',
      publishingYear: 2024,
      distributionStores: ['spotify', 'tidal', 'qobuz'],
    })
    .where(eq(releases.id, releaseId));
  const rows = await system.db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(tracks.position);
  trackKeys = rows.map((row) => row.fileKey);
  // Two tracks share an original file name and one is explicit with a longer duration.
  await system.db
    .update(tracks)
    .set({ originalFileName: 'mix.wav', explicit: true, durationMs: 223_583 })
    .where(eq(tracks.id, rows[0]?.id ?? ''));
  await system.db
    .update(tracks)
    .set({ originalFileName: 'mix.wav' })
    .where(eq(tracks.id, rows[1]?.id ?? ''));
});
afterAll(async () => system?.close());

function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the parsed ERN document is checked field by field
type Xml = any;

/** Milliseconds of an ISO 8601 duration such as PT3M43.583S. */
function durationMs(text: string): number {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(text);
  if (!match) throw new Error(`not an ISO duration: ${text}`);
  return Math.round(
    (Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * 1000,
  );
}

async function storedBytes(key: string): Promise<Buffer> {
  const file = await system.storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('export ZIP', () => {
  let entries: Map<string, Buffer>;
  let ern: string;

  beforeAll(async () => {
    const response = await system.request(`/api/admin/releases/${releaseId}/export`, {
      cookie: moderator.cookie,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Night-Day-[0-9a-f]{8}\.zip"; filename\*=UTF-8''Night-Day-[0-9a-f]{8}\.zip$/,
    );
    entries = await unzip(Buffer.from(await response.arrayBuffer()));
    ern = entries.get('ern.xml')?.toString('utf8') ?? '';
  });

  it('holds the cover, the tracks under their original names, metadata.json and ern.xml', async () => {
    expect([...entries.keys()].sort()).toEqual([
      'cover.png',
      'ern.xml',
      'metadata.json',
      'mix (2).wav',
      'mix.wav',
      'track-3.wav',
    ]);
    expect(entries.get('mix.wav')?.equals(await storedBytes(trackKeys[0] ?? ''))).toBe(true);
    expect(entries.get('mix (2).wav')?.equals(await storedBytes(trackKeys[1] ?? ''))).toBe(true);
    expect(entries.get('cover.png')?.subarray(1, 4).toString()).toBe('PNG');

    const metadata = JSON.parse(entries.get('metadata.json')?.toString('utf8') ?? '{}');
    expect(metadata.uploader).toEqual({ email: 'export-owner@example.com', artistName: 'Nova <Band>' });
    expect(metadata.release).toMatchObject({
      id: releaseId,
      title: 'Night & Day',
      labelName: 'Moon Label',
      upc: '012345678905',
    });
    expect(metadata.tracks).toHaveLength(3);
    expect(metadata.tracks[0]).toMatchObject({
      fileName: 'mix.wav',
      isrc: 'USABC2400001',
      songwriters: [{ firstName: 'Sam', lastName: 'Writer', role: 'music_and_lyrics' }],
      producers: [{ firstName: 'Pat', lastName: 'Producer' }],
    });
  });

  it('ern.xml is a NewReleaseMessage whose references resolve and whose tracks match the database', async () => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      parseTagValue: false,
      isArray: (name) =>
        [
          'Party',
          'SoundRecording',
          'DisplayArtist',
          'Contributor',
          'ResourceGroupContentItem',
          'Deal',
          'DistributionChannel',
          'ArtistProfilePage',
          'CommercialModelType',
          'UseType',
          'DealReleaseReference',
        ].includes(name),
    });
    const doc = parser.parse(ern)['ern:NewReleaseMessage'];
    expect(doc['@AvsVersionId']).toBe('3');
    const header = doc.MessageHeader;
    expect(header.MessageSender.PartyId).toBe(SENDER);
    expect(header.MessageRecipient).toMatchObject({
      PartyId: RECIPIENT,
      PartyName: { FullName: 'Partner & Co' },
    });
    expect(header.MessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(header.MessageCreatedDateTime))).toBe(false);

    const parties = new Map<string, { PartyName: { FullName: string }; ArtistProfilePage?: string[] }>(
      doc.PartyList.Party.map((party: { PartyReference: string }) => [party.PartyReference, party]),
    );
    const dbTracks = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, releaseId))
      .orderBy(tracks.position);
    const recordings = doc.ResourceList.SoundRecording;
    expect(recordings).toHaveLength(dbTracks.length);
    const resourceRefs = new Set<string>([
      ...recordings.map((recording: { ResourceReference: string }) => recording.ResourceReference),
      doc.ResourceList.Image.ResourceReference,
    ]);
    recordings.forEach((recording: Xml, index: number) => {
      const track = dbTracks[index];
      expect(recording.DisplayTitleText).toBe(track?.title);
      expect(recording.SoundRecordingEdition.ResourceId.ISRC).toBe(track?.isrc ?? undefined);
      expect(durationMs(recording.Duration)).toBe(track?.durationMs);
      expect(recording.ParentalWarningType).toBe(track?.explicit ? 'Explicit' : 'NotExplicit');
      for (const artist of recording.DisplayArtist)
        expect(parties.has(artist.ArtistPartyReference)).toBe(true);
      const roles = recording.Contributor.map((contributor: Record<string, string>) => {
        expect(parties.has(contributor.ContributorPartyReference ?? '')).toBe(true);
        return `${parties.get(contributor.ContributorPartyReference ?? '')?.PartyName.FullName}:${contributor.Role}`;
      });
      expect(roles).toEqual(['Sam Writer:ComposerLyricist', 'Pat Producer:StudioProducer']);
    });
    expect(recordings[0].SoundRecordingEdition.TechnicalDetails.DeliveryFile.File.URI).toBe('mix.wav');
    expect(recordings[1].SoundRecordingEdition.TechnicalDetails.DeliveryFile.File.URI).toBe('mix (2).wav');
    expect(recordings[0].Duration).toBe('PT3M43.583S');

    const release = doc.ReleaseList.Release;
    expect(release.ReleaseId.ICPN).toBe('012345678905');
    expect(release.DisplayTitleText).toBe('Night & Day');
    expect(release.ReleaseType).toBe('Single');
    expect(release.Genre.GenreText).toBe('Pop');
    expect(release.PLine).toEqual({ Year: '2024', PLineText: '(P) 2024 Nova Records' });
    expect(release.CLine).toEqual({ Year: '2023', CLineText: '(C) 2023 Nova Holdings' });
    expect(release.DisplayArtistName['#text']).toBe('Nova <Band> feat. Guest Star');
    expect(release.DisplayArtist.map((artist: Record<string, string>) => artist.DisplayArtistRole)).toEqual([
      'MainArtist',
      'FeaturedArtist',
    ]);
    const mainArtist = parties.get(release.DisplayArtist[0].ArtistPartyReference);
    expect(mainArtist?.ArtistProfilePage).toEqual(['https://open.spotify.com/artist/abc']);
    expect(parties.get(release.ReleaseLabelReference['#text'])?.PartyName.FullName).toBe('Moon Label');
    const items = release.ResourceGroup.ResourceGroupContentItem;
    expect(items.map((item: Record<string, string>) => item.ReleaseResourceReference)).toEqual(
      recordings.map((recording: Record<string, string>) => recording.ResourceReference),
    );
    for (const item of items) expect(resourceRefs.has(item.ReleaseResourceReference)).toBe(true);
    expect(resourceRefs.has(release.ResourceGroup.LinkedReleaseResourceReference)).toBe(true);
    expect(durationMs(release.Duration)).toBe(
      dbTracks.reduce((sum, track) => sum + (track.durationMs ?? 0), 0),
    );

    const deal = doc.DealList.ReleaseDeal;
    expect(deal.DealReleaseReference).toEqual([release.ReleaseReference]);
    for (const each of deal.Deal) {
      expect(each.DealTerms.ValidityPeriod.StartDate).toBe(`${new Date().getFullYear()}-12-01`);
    }
    // One deal per offer of the chosen stores (record 198): the download deal names Qobuz alone.
    const terms = deal.Deal.map((each: Xml) => ({
      models: each.DealTerms.CommercialModelType,
      uses: each.DealTerms.UseType,
      stores: each.DealTerms.DistributionChannel.map((channel: Xml) => channel.PartyName.FullName),
    }));
    expect(terms).toEqual([
      {
        models: ['SubscriptionModel', 'AdvertisementSupportedModel'],
        uses: ['OnDemandStream', 'NonInteractiveStream'],
        stores: ['Spotify'],
      },
      {
        models: ['SubscriptionModel'],
        uses: ['OnDemandStream', 'NonInteractiveStream'],
        stores: ['TIDAL', 'Qobuz'],
      },
      { models: ['PayAsYouGoModel'], uses: ['PermanentDownload'], stores: ['Qobuz'] },
    ]);
  });

  it('ern.xml validates against the official DDEX ERN 4.3 schema (xmllint)', () => {
    const result = validateErn43(ern);
    expect(result.report).toContain('validates');
    expect(result.status, result.report).toBe(0);
  });

  it('the vendored schema really checks: a message missing its MessageHeader fails', () => {
    const broken = ern.replace(/<MessageHeader>[\s\S]*?<\/MessageHeader>/, '');
    expect(broken).not.toBe(ern);
    const result = validateErn43(broken);
    expect(result.status).not.toBe(0);
    expect(result.report).toContain('fails to validate');
  });

  it('the message also validates for a release with no cover, no UPC, no ISRC and no platforms', async () => {
    const uploader = await createTestUser(system);
    const bare = await createTestRelease(system, uploader.userId, { trackCount: 7 });
    await system.db.update(releases).set({ distributionStores: [] }).where(eq(releases.id, bare.releaseId));
    const response = await system.request(`/api/admin/releases/${bare.releaseId}/export`, {
      cookie: moderator.cookie,
    });
    const zip = await unzip(Buffer.from(await response.arrayBuffer()));
    const xml = zip.get('ern.xml')?.toString('utf8') ?? '';
    expect(xml).toContain('<ReleaseType>Album</ReleaseType>');
    expect(xml).not.toContain('<DealList>');
    const result = validateErn43(xml);
    expect(result.status, result.report).toBe(0);
  });

  it('writes an audit row for the export', async () => {
    const rows = await system.db.select().from(auditLog).where(eq(auditLog.releaseId, releaseId));
    expect(rows.map((row) => row.action)).toContain('release.export');
  });
});

describe('export failures and access', () => {
  it('manifest lists the entries for staff; artists are refused', async () => {
    const response = await system.request(`/api/admin/releases/${releaseId}/export/manifest`, {
      cookie: moderator.cookie,
    });
    const manifest = await readJson(response);
    expect(manifest.downloadUrl).toBe(`/api/admin/releases/${releaseId}/export`);
    expect(manifest.entries.map((entry: { name: string }) => entry.name)).toEqual([
      'cover.png',
      'mix.wav',
      'mix (2).wav',
      'track-3.wav',
      'metadata.json',
      'ern.xml',
    ]);
    expect(
      (await system.request(`/api/admin/releases/${releaseId}/export`, { cookie: artist.cookie })).status,
    ).toBe(403);
  });

  it('fails cleanly before streaming when a stored file is missing', async () => {
    const uploader = await createTestUser(system);
    const broken = await createTestRelease(system, uploader.userId, { trackCount: 2 });
    const [first] = await system.db.select().from(tracks).where(eq(tracks.releaseId, broken.releaseId));
    await system.storage.delete(first?.fileKey ?? '');
    for (const suffix of ['export/manifest', 'export']) {
      const response = await system.request(`/api/admin/releases/${broken.releaseId}/${suffix}`, {
        cookie: moderator.cookie,
      });
      expect(response.status).toBe(409);
      expect((await readJson(response)).error.message).toContain('Failed to export release files');
    }
  });
});

describe('isoDuration', () => {
  it('formats milliseconds as ISO 8601 durations', () => {
    expect(isoDuration(1000)).toBe('PT1S');
    expect(isoDuration(223_583)).toBe('PT3M43.583S');
    expect(isoDuration(3_723_500)).toBe('PT1H2M3.5S');
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(60_000)).toBe('PT1M0S');
  });
});
