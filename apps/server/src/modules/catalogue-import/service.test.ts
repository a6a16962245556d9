/**
 * Catalogue import end to end on a real database (record 200): ERN exports made from the official
 * samples and a catalogue CSV, checked with the builder's rules, codes kept and never duplicated,
 * refused releases leave nothing behind, approved imports are delivered with their own codes; the admin
 * routes and the CLI command. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { deliveries, producers, releaseStatusEvents, releases, songwriters, tracks } from '../../db/schema';
import {
  albumExport,
  completedSingle,
  coverJpeg,
  randomIsrc,
  randomUpc,
  singleExportAsShipped,
  tinyWav,
} from '../../test-support/catalogue-export';
import {
  type DeliveryBed,
  expectCompletePackages,
  startDeliveryBed,
} from '../../test-support/delivery-fixtures';
import type { TestSystem } from '../../test-support/harness';
import { runDeliveryOnce } from '../delivery';
import { importCatalogue } from './service';

let bed: DeliveryBed;
let system: TestSystem;
let label: Awaited<ReturnType<TestSystem['signedInUser']>>;
let work: string;

beforeAll(async () => {
  bed = await startDeliveryBed();
  ({ system } = bed);
  label = await system.signedInUser({ plan: 'pro', artistName: 'Label Artist' });
  work = bed.tempDir(path.join(os.tmpdir(), 'catalogue-import-'));
}, 60_000);
afterAll(async () => bed?.close());

const actor = { userId: null, label: 'cli:test' };
let folderCount = 0;
const folder = () => {
  folderCount += 1;
  const dir = path.join(work, `export-${folderCount}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};
const run = (dir: string, options: { skipReview?: boolean; ownerEmail?: string } = {}) =>
  importCatalogue(system, {
    dir,
    ownerEmail: options.ownerEmail ?? label.email,
    skipReview: options.skipReview ?? false,
    actor,
  });

/** Every file under the local storage directory (imports write there and nowhere else). */
function storedFiles(): string[] {
  const root = path.join(system.dataDir, 'storage');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((name) =>
    fs.statSync(path.join(root, name)).isFile(),
  );
}

describe('ERN import', () => {
  it('imports the single with review skipped: approved with its codes, credits kept, delivered with them', async () => {
    const target = bed.tempDir(path.join(os.tmpdir(), 'catalogue-store-'));
    await bed.onlyTarget({ name: 'Import store', url: `file://${target}` });
    const dir = folder();
    await completedSingle(dir);
    const report = await run(dir, { skipReview: true });
    expect(report).toMatchObject({ format: 'ern', importedCount: 1, refusedCount: 0, problems: [] });
    const [entry] = report.releases;
    expect(entry).toMatchObject({
      outcome: 'imported',
      status: 'approved',
      title: 'I Love You',
      upc: '190295810726',
      storeState: 'live',
      reasons: [],
    });
    expect(entry?.notes).toContain('Approved with its codes; queued for delivery to 1 target.');

    const [release] = await system.db
      .select()
      .from(releases)
      .where(eq(releases.id, entry?.releaseId ?? ''));
    expect(release).toMatchObject({
      userId: label.userId,
      title: 'I Love You',
      upc: '190295810726',
      labelName: 'Warner Classics',
      releaseDate: '2017-04-25',
      genre: 'Classical',
      copyrightHolder: 'Parlophone Records Limited, a Warner Music Group Company',
      copyrightYear: 2017,
      publishingYear: 2015,
      primaryArtists: ['RIOPY'],
      status: 'approved',
    });
    const [track] = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, release?.id ?? ''));
    expect(track).toMatchObject({ isrc: 'GBAYC1700598', sampleRate: 44_100, bitDepth: 16, channels: 2 });
    expect(
      await system.db
        .select()
        .from(songwriters)
        .where(eq(songwriters.trackId, track?.id ?? '')),
    ).toEqual([expect.objectContaining({ firstName: 'Jane', lastName: 'Writer', role: 'music_and_lyrics' })]);
    expect(
      await system.db
        .select()
        .from(producers)
        .where(eq(producers.trackId, track?.id ?? '')),
    ).toEqual([expect.objectContaining({ firstName: 'Sam', lastName: 'Producer' })]);
    const events = await system.db
      .select()
      .from(releaseStatusEvents)
      .where(eq(releaseStatusEvents.releaseId, release?.id ?? ''));
    expect(events.map((e) => e.status)).toEqual(['approved']);
    expect(events[0]?.note).toContain('Review skipped; codes kept.');

    // Delivered by the ordinary worker: the message carries the source's UPC and ISRC, files with their MD5s.
    const [queued] = await system.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.releaseId, release?.id ?? ''));
    expect(queued?.state).toBe('queued');
    await runDeliveryOnce(system, { retryBaseMs: 0 });
    const [sent] = expectCompletePackages(target);
    expect(sent?.xml).toContain('<ICPN>190295810726</ICPN>');
    expect(sent?.xml).toContain('<ISRC>GBAYC1700598</ISRC>');
  });

  it('refuses what breaks a rule, with every reason, and leaves nothing in storage or the database', async () => {
    const dir = folder();
    await albumExport(path.join(dir, 'album'));
    singleExportAsShipped(path.join(dir, 'single'));
    const before = storedFiles();
    const releasesBefore = (await system.db.select({ id: releases.id }).from(releases)).length;
    const report = await run(dir, { skipReview: true });
    expect(report).toMatchObject({ importedCount: 0, refusedCount: 2 });
    const album = report.releases.find((r) => r.source === path.join('album', 'audio-album.xml'));
    expect(album?.reasons).toEqual(
      expect.arrayContaining([
        `Tracks: ${BUILDER_MESSAGES.tooManyTracks}`,
        `Release © holder: ${BUILDER_MESSAGES.copyrightHolderRequired}`,
        `Release genre: ${BUILDER_MESSAGES.genreRequired}`,
      ]),
    );
    const single = report.releases.find((r) => r.source === path.join('single', 'audio-single.xml'));
    expect(single?.reasons).toEqual(
      expect.arrayContaining([
        `Release cover: ${BUILDER_MESSAGES.coverArtRequired}`,
        `Track 1 "I Love You", songwriters: ${BUILDER_MESSAGES.songwriterRequired}`,
        expect.stringMatching(/190295810726_00001_LL\.flac is FLAC: Tunedrop stores and delivers WAV only/),
      ]),
    );
    expect(storedFiles()).toEqual(before);
    expect((await system.db.select({ id: releases.id }).from(releases)).length).toBe(releasesBefore);
  });

  it('refuses codes already in use, naming the release that has them', async () => {
    const dir = folder();
    await completedSingle(dir);
    const report = await run(dir);
    expect(report.releases[0]?.outcome).toBe('refused');
    expect(report.releases[0]?.reasons).toEqual([
      expect.stringMatching(/^UPC 190295810726 is already used by the release "I Love You" \(/),
      'ISRC GBAYC1700598 is already used by the track "I Love You" of "I Love You".',
    ]);
  });

  it('goes to Pending unless review is skipped, and stays there without codes to keep', async () => {
    const pendingDir = folder();
    await completedSingle(pendingDir, { upc: randomUpc(), isrc: randomIsrc() });
    const pending = await run(pendingDir);
    expect(pending.releases[0]).toMatchObject({ outcome: 'imported', status: 'pending' });

    const noUpc = folder();
    const { xml } = await completedSingle(noUpc, { upc: randomUpc(), isrc: randomIsrc() });
    fs.writeFileSync(path.join(noUpc, 'audio-single.xml'), xml.replace(/<ICPN>\d+<\/ICPN>\s*/, ''));
    const kept = await run(noUpc, { skipReview: true });
    expect(kept.releases[0]).toMatchObject({ outcome: 'imported', status: 'pending' });
    expect(kept.releases[0]?.notes.join(' ')).toContain('the source has no UPC');
  });

  it('keeps a release the source took down as taken down, with nothing queued', async () => {
    const dir = folder();
    const { xml } = await completedSingle(dir, { upc: randomUpc(), isrc: randomIsrc() });
    // Every deal ended (ERN-CHOREOGRAPHY §5: a takedown by end-dated deals).
    const ended = xml.replaceAll(
      '<StartDate>2017-04-25</StartDate>',
      '<StartDate>2017-04-25</StartDate><EndDate>2020-01-01</EndDate>',
    );
    fs.writeFileSync(path.join(dir, 'audio-single.xml'), ended);
    const report = await run(dir, { skipReview: true });
    expect(report.releases[0]).toMatchObject({
      outcome: 'imported',
      status: 'taken_down',
      storeState: 'taken_down',
    });
    const queued = await system.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.releaseId, report.releases[0]?.releaseId ?? ''));
    expect(queued).toEqual([]);
  });

  it('refuses files outside the folder (.. and symlinks), a hash mismatch, and a Basic owner’s codes', async () => {
    const dir = folder();
    const { xml } = await completedSingle(dir, { upc: randomUpc(), isrc: randomIsrc() });
    fs.writeFileSync(path.join(work, 'outside.wav'), tinyWav());
    fs.writeFileSync(
      path.join(dir, 'audio-single.xml'),
      xml.replace('resources/190295810726_00001_LL.wav', '../outside.wav'),
    );
    const escaped = await run(dir);
    expect(escaped.releases[0]?.reasons).toContain(
      'Track 1 "I Love You": The file ../outside.wav is outside the import folder; it is refused.',
    );

    fs.writeFileSync(path.join(dir, 'audio-single.xml'), xml);
    fs.rmSync(path.join(dir, 'resources/190295810726.jpg'));
    fs.symlinkSync(path.join(work, 'outside.wav'), path.join(dir, 'resources/190295810726.jpg'));
    const linked = await run(dir);
    expect(linked.releases[0]?.reasons.join('\n')).toContain('190295810726.jpg is outside the import folder');

    fs.rmSync(path.join(dir, 'resources/190295810726.jpg'));
    fs.writeFileSync(path.join(dir, 'resources/190295810726.jpg'), await coverJpeg());
    fs.appendFileSync(path.join(dir, 'resources/190295810726_00001_LL.wav'), Buffer.alloc(4));
    const damaged = await run(dir);
    expect(damaged.releases[0]?.reasons.join('\n')).toContain(
      'does not match the MD5 the message gives for it',
    );

    const basic = await system.signedInUser({ plan: 'basic', artistName: 'RIOPY' });
    const other = folder();
    await completedSingle(other, { upc: randomUpc(), isrc: randomIsrc() });
    const refused = await run(other, { ownerEmail: basic.email });
    expect(refused.releases[0]?.reasons).toEqual(
      expect.arrayContaining([
        `Release UPC: ${BUILDER_MESSAGES.proFeature}`,
        `Track 1 "I Love You", ISRC: ${BUILDER_MESSAGES.proFeature}`,
      ]),
    );
  });
});

describe('CSV import', () => {
  it('imports a release from its rows and refuses one that breaks a rule', async () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'cover.jpg'), await coverJpeg());
    fs.writeFileSync(path.join(dir, 'one.wav'), tinyWav());
    fs.writeFileSync(path.join(dir, 'two.wav'), tinyWav());
    const upc = randomUpc();
    const [isrc1, isrc2] = [randomIsrc(), randomIsrc()];
    const header =
      'release_key,release_title,genre,release_date,original_release_date,label,upc,c_line_holder,c_line_year,p_line_holder,p_line_year,cover_file,stores,store_state,track_number,track_title,isrc,explicit,audio_file,artists,featured_artists,songwriters,producers';
    const rows = [
      `A,Night Drive,Electronic,2019-05-01,2018-11-20,Moon Label,${upc},Moon Label,2019,Moon Label,2019,cover.jpg,spotify;deezer,live,2,Second,${isrc2},no,two.wav,Label Artist,,Jane Writer (lyrics),Sam Producer`,
      `A,Night Drive,Electronic,2019-05-01,2018-11-20,Moon Label,${upc},Moon Label,2019,Moon Label,2019,cover.jpg,spotify;deezer,live,1,First,${isrc1},yes,one.wav,Label Artist,Guest,Jane Writer,Sam Producer`,
      'B,Broken,Electronic,2019-05-01,,,,Moon Label,2019,Moon Label,2019,cover.jpg,,,1,Only,NOT-AN-ISRC,no,one.wav,Label Artist,,Jane Writer,Sam Producer',
    ];
    fs.writeFileSync(path.join(dir, 'catalogue.csv'), `${header}\n${rows.join('\n')}\n`);
    const report = await run(dir);
    expect(report).toMatchObject({ format: 'csv', importedCount: 1, refusedCount: 1 });
    const imported = report.releases.find((r) => r.title === 'Night Drive');
    expect(imported).toMatchObject({ outcome: 'imported', status: 'pending', upc });
    const [release] = await system.db
      .select()
      .from(releases)
      .where(eq(releases.id, imported?.releaseId ?? ''));
    expect(release).toMatchObject({
      originalReleaseDate: '2018-11-20',
      labelName: 'Moon Label',
      distributionStores: ['spotify', 'deezer'],
      featuredArtists: ['Guest'],
    });
    const rowsOut = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, imported?.releaseId ?? ''));
    expect(rowsOut.sort((a, b) => a.position - b.position).map((t) => [t.title, t.isrc, t.explicit])).toEqual(
      [
        ['First', isrc1, true],
        ['Second', isrc2, false],
      ],
    );
    expect(report.releases.find((r) => r.title === 'Broken')?.reasons).toEqual([
      `Track 1 "Only", ISRC: ${BUILDER_MESSAGES.isrcInvalid}`,
    ]);
  });

  it('says what is missing from a CSV without the required columns', async () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'catalogue.csv'), 'release_title,track_title\nA,B\n');
    const report = await run(dir);
    expect(report.problems[0]).toMatch(/^catalogue\.csv: missing column\(s\) genre, release_date/);
    expect(report.releases).toEqual([]);
  });
});

describe('CLI', () => {
  it('catalogue:import prints the report, and fails (exit 1) with the reasons when a release is refused', async () => {
    const command = cliCommands['catalogue:import'];
    if (!command) throw new Error('catalogue:import is not registered');
    const dir = folder();
    await completedSingle(dir, { upc: randomUpc(), isrc: randomIsrc() });
    const printed = await command.run(system, [dir], { owner: label.email, 'skip-review': true });
    expect(printed).toMatch(
      /1 imported, 0 refused\.\nIMPORTED "I Love You" UPC \d{12} \[audio-single\.xml\]: approved/,
    );

    const again = command.run(system, [dir], { owner: label.email });
    await expect(again).rejects.toThrow(
      /0 imported, 1 refused\.\nREFUSED {2}"I Love You"[^\n]*\n {2}- UPC \d{12} is already used/,
    );
    await expect(command.run(system, [dir], {})).rejects.toThrow('--owner EMAIL is required');
    await expect(command.run(system, [dir], { owner: 'nobody@example.com' })).rejects.toThrow(
      'No account with the email nobody@example.com',
    );
  });
});
