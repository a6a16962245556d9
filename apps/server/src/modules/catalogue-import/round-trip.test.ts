/**
 * Issue 44 findings 2 and 4, issue 43 finding 12 (records 232, 233): a release exported by Tunedrop imports
 * back with every field (territories, release moment, stores, credits with StudioProducer, artist links)
 * under the artist profile named like its artist; a folder with unreadable messages (nested too deep,
 * too large, not XML) imports the others and reports each bad one; a large message is read in a worker
 * thread; the profile is chosen per folder or by name, never silently the first; a run resumed after a
 * crash finds what it already stored. PGlite, and PostgreSQL with DATABASE_URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { ARTIST_PROFILE_MESSAGES } from '@tunedrop/shared/schemas/artist-profile-rules';
import { zonedInstant } from '@tunedrop/shared/schemas/release-availability';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artistProfiles, catalogueImports, producers, releases, songwriters, tracks } from '../../db/schema';
import { coverJpeg, randomIsrc, randomUpc, tinyWav } from '../../test-support/catalogue-export';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { tunedropExportFolder } from '../../test-support/tunedrop-export';
import { releaseForDelivery } from '../catalogue';
import { exportErn } from '../ddex';
import { ERN_READ_LIMITS } from './ern-parse';
import { runCatalogueImportJob } from './job-handlers';
import {
  catalogueImportRoot,
  createCatalogueImport,
  importCatalogue,
  readCatalogueImport,
  runCatalogueImport,
} from './service';

let system: TestSystem;
let work: string;
const actor = { userId: null, label: 'cli:test' };

beforeAll(async () => {
  system = await createTestSystem();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'catimport-roundtrip-'));
}, 60_000);
afterAll(async () => {
  await system?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

let count = 0;
const folder = () => {
  count += 1;
  const dir = path.join(work, `folder-${count}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

async function addProfile(userId: string, name: string, position: number): Promise<string> {
  const [row] = await system.db
    .insert(artistProfiles)
    .values({ userId, name, position })
    .returning({ id: artistProfiles.id });
  return row?.id ?? '';
}

async function storedRelease(id: string) {
  const [release] = await system.db.select().from(releases).where(eq(releases.id, id));
  const trackRows = await system.db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, id))
    .orderBy(asc(tracks.position));
  const ids = trackRows.map((t) => t.id);
  const writers = ids.length
    ? await system.db.select().from(songwriters).where(inArray(songwriters.trackId, ids))
    : [];
  const makers = ids.length
    ? await system.db.select().from(producers).where(inArray(producers.trackId, ids))
    : [];
  return { release, trackRows, writers, makers };
}

describe('round trip of a Tunedrop export', () => {
  it('imports every field back, under the artist profile named like its artist', async () => {
    const owner = await createTestUser(system, { plan: 'pro', artistName: 'Label Artist' });
    const profileId = await addProfile(owner.userId, 'Mira Vale', 2);
    const releaseId = crypto.randomUUID();
    const prefix = `${owner.userId}/${releaseId}/`;
    await system.storage.putBuffer(`${prefix}cover-front.jpg`, await coverJpeg(), 'image/jpeg');
    await system.storage.putBuffer(`${prefix}01-one.wav`, tinyWav(), 'audio/wav');
    await system.storage.putBuffer(`${prefix}02-two.wav`, tinyWav(), 'audio/wav');
    const spotify = 'https://open.spotify.com/artist/4Z8W4fKeB5YxbusRsdQVPb';
    const apple = 'https://music.apple.com/artist/123456789';
    await system.db.insert(releases).values({
      id: releaseId,
      userId: owner.userId,
      artistProfileId: profileId,
      title: 'Lanterns',
      primaryArtists: ['Mira Vale'],
      featuredArtists: ['Guest Star'],
      primaryArtistsData: [{ name: 'Mira Vale', spotifyLink: spotify }],
      featuredArtistsData: [{ name: 'Guest Star', appleMusicLink: apple }],
      genre: 'Pop',
      releaseDate: '2027-03-05',
      originalReleaseDate: '2019-06-01',
      // 00:30 in Berlin: the ERN carries the instant (23:30 UTC the day before).
      releaseTimeMode: 'worldwide_moment',
      releaseTime: '00:30',
      releaseTimeZone: 'Europe/Berlin',
      releaseAt: zonedInstant('2027-03-05', '00:30', 'Europe/Berlin'),
      territoryMode: 'exclude',
      territories: ['CA', 'US'],
      labelName: 'Northern Label',
      upc: randomUpc(),
      copyrightHolder: 'Northern Label Ltd',
      publishingHolder: 'Mira Vale Recordings',
      copyrightYear: 2026,
      publishingYear: 2025,
      distributionStores: ['spotify', 'apple_music', 'deezer'],
      status: 'approved',
      coverArtKey: `${prefix}cover-front.jpg`,
    });
    const trackValues = [
      { title: 'Lanterns', isrc: randomIsrc(), explicit: true, key: '01-one.wav', name: 'one.wav' },
      { title: 'Harbour Lights', isrc: randomIsrc(), explicit: false, key: '02-two.wav', name: 'two.wav' },
    ];
    const inserted = await system.db
      .insert(tracks)
      .values(
        trackValues.map((track, index) => ({
          releaseId,
          position: index + 1,
          title: track.title,
          isrc: track.isrc,
          explicit: track.explicit,
          durationMs: 250,
          fileKey: `${prefix}${track.key}`,
          originalFileName: track.name,
          fileSizeBytes: tinyWav().length,
          sampleRate: 44_100,
          bitDepth: 16,
          channels: 2,
          primaryArtistsData: [{ name: 'Mira Vale', spotifyLink: spotify }],
          featuredArtistsData: index === 1 ? [{ name: 'Guest Star', appleMusicLink: apple }] : [],
        })),
      )
      .returning({ id: tracks.id, position: tracks.position });
    const [first, second] = inserted.sort((a, b) => a.position - b.position);
    await system.db.insert(songwriters).values([
      { trackId: first?.id ?? '', firstName: 'Jane', middleName: 'Quinn', lastName: 'Writer', role: 'music' },
      { trackId: first?.id ?? '', firstName: 'Ann', middleName: null, lastName: 'Lyric', role: 'lyrics' },
      {
        trackId: second?.id ?? '',
        firstName: 'Jane',
        middleName: 'Quinn',
        lastName: 'Writer',
        role: 'music_and_lyrics',
      },
    ]);
    await system.db.insert(producers).values([
      { trackId: first?.id ?? '', firstName: 'Sam', middleName: null, lastName: 'Producer' },
      { trackId: second?.id ?? '', firstName: 'Kim', middleName: null, lastName: 'Engineer' },
    ]);
    const before = await storedRelease(releaseId);

    // The export as the review's ZIP holds it: ern.xml, the cover and the tracks under their entry names.
    const data = await releaseForDelivery(system.db, releaseId);
    const dir = folder();
    fs.writeFileSync(
      path.join(dir, 'ern.xml'),
      exportErn(data, system.config, { messageId: crypto.randomUUID(), createdAt: new Date() }),
    );
    const files = [
      { key: data.release.coverArtKey ?? '', name: data.coverEntryName ?? '' },
      ...data.tracks.map((track) => ({ key: track.fileKey, name: track.entryName })),
    ];
    for (const file of files)
      fs.writeFileSync(path.join(dir, file.name), await buffer((await system.storage.get(file.key)).body));
    // The original goes, so its codes are free again.
    await system.db.delete(producers).where(inArray(producers.trackId, [first?.id ?? '', second?.id ?? '']));
    await system.db
      .delete(songwriters)
      .where(inArray(songwriters.trackId, [first?.id ?? '', second?.id ?? '']));
    await system.db.delete(tracks).where(eq(tracks.releaseId, releaseId));
    await system.db.delete(releases).where(eq(releases.id, releaseId));

    const report = await importCatalogue(system, { dir, ownerEmail: owner.email, skipReview: false, actor });
    expect(report.releases[0]?.reasons).toEqual([]);
    expect(report).toMatchObject({
      status: 'done',
      importedCount: 1,
      refusedCount: 0,
      processed: 1,
      total: 1,
    });
    const after = await storedRelease(report.releases[0]?.releaseId ?? '');

    const releaseFields = ({
      id: _id,
      status: _status,
      coverArtKey: _cover,
      coverThumbSmallKey: _small,
      coverThumbMediumKey: _medium,
      createdAt: _created,
      updatedAt: _updated,
      idempotencyKey: _key,
      releaseTimeZone: _zone,
      releaseTime: _time,
      distributionStores,
      ...rest
    }: NonNullable<typeof before.release>) => ({
      ...rest,
      // The deals group stores by offer: the same stores, in another order.
      distributionStores: [...distributionStores].sort(),
    });
    expect(after.release && releaseFields(after.release)).toEqual(
      before.release && releaseFields(before.release),
    );
    expect(after.release?.artistProfileId).toBe(profileId);
    expect(after.release?.territories).toEqual(['CA', 'US']);
    // ERN has no zone name: the same instant, as the wall-clock time on the release date in a fixed zone.
    expect(after.release).toMatchObject({ releaseTime: '00:30', releaseTimeZone: 'Etc/GMT-1' });
    expect(after.release?.releaseAt?.toISOString()).toBe('2027-03-04T23:30:00.000Z');

    const trackFields = ({
      id: _id,
      releaseId: _r,
      fileKey: _f,
      createdAt: _c,
      ...rest
    }: (typeof before.trackRows)[number]) => rest;
    expect(after.trackRows.map(trackFields)).toEqual(before.trackRows.map(trackFields));
    const position = (rows: typeof before.trackRows, trackId: string) =>
      rows.find((t) => t.id === trackId)?.position;
    const people = <T extends { id?: unknown; trackId: string; createdAt?: unknown }>(
      list: T[],
      rows: typeof before.trackRows,
    ) =>
      list
        .map(({ id: _id, trackId, createdAt: _c, ...rest }) => ({
          position: position(rows, trackId),
          ...rest,
        }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(people(after.writers, after.trackRows)).toEqual(people(before.writers, before.trackRows));
    expect(people(after.makers, after.trackRows)).toEqual(people(before.makers, before.trackRows));
  });
});

describe('a folder with messages that cannot be read', () => {
  it('refuses each bad message with its reason and imports the others, a large one through a worker', async () => {
    const owner = await createTestUser(system, { plan: 'pro', artistName: 'North Choir' });
    const dir = folder();
    await tunedropExportFolder(path.join(dir, 'a-good'), {
      title: 'Good One',
      artist: 'North Choir',
      upc: randomUpc(),
      isrc: randomIsrc(),
      territories: { mode: 'exclude', codes: ['US', 'CA'] },
    });
    await tunedropExportFolder(path.join(dir, 'b-large'), {
      title: 'Large One',
      artist: 'North Choir',
      upc: randomUpc(),
      isrc: randomIsrc(),
    });
    // Past the worker threshold with a comment: parsed off the event loop, imported all the same.
    const large = path.join(dir, 'b-large', 'ern.xml');
    const xml = fs.readFileSync(large, 'utf8');
    fs.writeFileSync(
      large,
      xml.replace('<MessageHeader>', `<!-- ${'x'.repeat(ERN_READ_LIMITS.workerMinBytes)} --><MessageHeader>`),
    );
    fs.mkdirSync(path.join(dir, 'c-bad'));
    fs.writeFileSync(
      path.join(dir, 'c-bad', 'nested.xml'),
      `<ern:NewReleaseMessage xmlns:ern="http://ddex.net/xml/ern/43">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</ern:NewReleaseMessage>`,
    );
    fs.writeFileSync(path.join(dir, 'c-bad', 'huge.xml'), Buffer.alloc(ERN_READ_LIMITS.messageBytes + 1, 32));
    fs.writeFileSync(path.join(dir, 'c-bad', 'broken.xml'), '<ern:NewReleaseMessage><unclosed>');

    const report = await importCatalogue(system, { dir, ownerEmail: owner.email, skipReview: false, actor });
    expect(report).toMatchObject({
      status: 'done',
      processed: 5,
      total: 5,
      importedCount: 2,
      refusedCount: 3,
    });
    const bySource = new Map(report.releases.map((entry) => [entry.source, entry]));
    expect(bySource.get(path.join('a-good', 'ern.xml'))?.outcome).toBe('imported');
    expect(bySource.get(path.join('b-large', 'ern.xml'))?.outcome).toBe('imported');
    expect(bySource.get(path.join('c-bad', 'nested.xml'))?.reasons).toEqual([
      'The message nests elements more than 64 deep; it is refused.',
    ]);
    expect(bySource.get(path.join('c-bad', 'huge.xml'))?.reasons).toEqual([
      'The message is larger than 10 MB.',
    ]);
    expect(bySource.get(path.join('c-bad', 'broken.xml'))?.reasons[0]).toMatch(/^Not well-formed XML/);
    const [good] = await system.db
      .select()
      .from(releases)
      .where(eq(releases.id, bySource.get(path.join('a-good', 'ern.xml'))?.releaseId ?? ''));
    expect(good).toMatchObject({
      territoryMode: 'exclude',
      territories: ['CA', 'US'],
      distributionStores: ['spotify', 'apple_music'],
    });
  });
});

describe('artist profiles', () => {
  it('never puts a release silently under the first profile: by name, by choice, or refused with the names', async () => {
    const owner = await createTestUser(system, { plan: 'pro', artistName: 'First Name' });
    const secondId = await addProfile(owner.userId, 'Second Name', 2);
    const dir = folder();
    const codes = { upc: randomUpc(), isrc: randomIsrc() };
    await tunedropExportFolder(dir, { title: 'Unmatched', artist: 'Somebody Else', ...codes });

    const unmatched = await importCatalogue(system, {
      dir,
      ownerEmail: owner.email,
      skipReview: false,
      actor,
    });
    expect(unmatched.releases[0]?.reasons).toEqual([
      "No artist profile of the account is named like the release's artist (Somebody Else); choose one of its profiles for the folder: First Name, Second Name.",
    ]);
    await expect(
      importCatalogue(system, {
        dir,
        ownerEmail: owner.email,
        skipReview: false,
        actor,
        artistProfile: 'Nobody',
      }),
    ).rejects.toMatchObject({
      status: 422,
      message: `${owner.email} has no artist profile named Nobody (its profiles: First Name, Second Name)`,
    });

    const chosen = await importCatalogue(system, {
      dir,
      ownerEmail: owner.email,
      skipReview: false,
      actor,
      artistProfile: 'second name',
    });
    expect(chosen).toMatchObject({ importedCount: 1, artistProfile: 'Second Name' });
    const [row] = await system.db
      .select()
      .from(releases)
      .where(eq(releases.id, chosen.releases[0]?.releaseId ?? ''));
    expect(row?.artistProfileId).toBe(secondId);

    // A Basic account keeps releasing only under its first profile.
    const basic = await createTestUser(system, { plan: 'basic', artistName: 'Basic First' });
    await addProfile(basic.userId, 'Basic Second', 2);
    const basicDir = folder();
    await tunedropExportFolder(basicDir, {
      title: 'Kept Out',
      artist: 'Basic Second',
      upc: randomUpc(),
      isrc: randomIsrc(),
    });
    const refused = await importCatalogue(system, {
      dir: basicDir,
      ownerEmail: basic.email,
      skipReview: false,
      actor,
    });
    expect(refused.releases[0]?.reasons).toContain(
      `Artist profile Basic Second: ${ARTIST_PROFILE_MESSAGES.readOnly('Basic First')}`,
    );
  });
});

describe('a run resumed after a crash', () => {
  it('finds the releases it stored before its progress was written and goes on, with no duplicate', async () => {
    const owner = await createTestUser(system, { plan: 'pro', artistName: 'Resume Artist' });
    const dir = folder();
    const upcs = [randomUpc(), randomUpc()];
    await tunedropExportFolder(path.join(dir, 'one'), {
      title: 'One',
      artist: 'Resume Artist',
      upc: upcs[0] ?? '',
      isrc: randomIsrc(),
    });
    await tunedropExportFolder(path.join(dir, 'two'), {
      title: 'Two',
      artist: 'Resume Artist',
      upc: upcs[1] ?? '',
      isrc: randomIsrc(),
    });
    const done = await importCatalogue(system, { dir, ownerEmail: owner.email, skipReview: false, actor });
    expect(done.importedCount).toBe(2);
    // As if the worker died after storing both releases and writing the progress of none.
    await system.db
      .update(catalogueImports)
      .set({
        status: 'running',
        processed: 0,
        importedCount: 0,
        refusedCount: 0,
        report: { ...done, releases: [] },
      })
      .where(eq(catalogueImports.id, done.id));
    const resumed = await runCatalogueImport(system, done.id, dir);
    expect(resumed).toMatchObject({ status: 'done', processed: 2, importedCount: 2, refusedCount: 0 });
    expect(resumed.releases.map((entry) => entry.releaseId)).toEqual(
      done.releases.map((entry) => entry.releaseId),
    );
    const stored = await system.db
      .select({ id: releases.id })
      .from(releases)
      .where(inArray(releases.upc, upcs));
    expect(stored).toHaveLength(2);
  });
});

describe('the catalogue.import job', () => {
  it('leaves a failing run to its retries, and after the last one marks the import failed with the reason', async () => {
    const owner = await createTestUser(system, { plan: 'pro', artistName: 'Failing Artist' });
    const name = `failing-${crypto.randomUUID().slice(0, 8)}`;
    await tunedropExportFolder(path.join(catalogueImportRoot(system.config), name), {
      title: 'Never Stored',
      artist: 'Failing Artist',
      upc: randomUpc(),
      isrc: randomIsrc(),
    });
    const created = await createCatalogueImport(system.db, {
      sourceLabel: name,
      ownerEmail: owner.email,
      skipReview: false,
      actor,
    });
    const broken = {
      ...system,
      storage: {
        ...system.storage,
        copyFile: async () => {
          throw new Error('storage unavailable');
        },
      },
    };
    const attempt = (retryCount: number) =>
      runCatalogueImportJob.run(
        { importId: created.id },
        { deps: broken, jobId: 'test', retryCount, logger: system.logger },
      );
    await expect(attempt(0)).rejects.toThrow('storage unavailable');
    expect((await readCatalogueImport(system.db, created.id))?.status).toBe('running');
    await expect(attempt(3)).rejects.toThrow('storage unavailable');
    expect(await readCatalogueImport(system.db, created.id)).toMatchObject({
      status: 'failed',
      problems: ['The import stopped: storage unavailable'],
      processed: 0,
    });
  });
});
