/** The submission and the draft through the API: plan rules, file checks, atomicity, idempotency. */
import fs from 'node:fs';
import path from 'node:path';
import {
  BUILDER_MESSAGES,
  type BuilderDraft,
  type ReleaseSubmissionInput,
} from '@tunedrop/shared/schemas/builder';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { producers, releaseDrafts, releases, songwriters, tracks, uploads } from '../../db/schema';
import {
  basicSubmission,
  shortWav,
  tusUpload,
  uploadReleaseFiles,
} from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { makeWav } from '../../test-support/media';
import { releaseIdFor } from './service';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

const submit = (cookie: string, body: unknown) =>
  system.request('/api/builder/releases', { method: 'POST', cookie, json: body });
const count = async (table: typeof releases | typeof tracks | typeof songwriters | typeof producers) =>
  (await system.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n ?? 0;

async function basicUser(options: Parameters<TestSystem['signedInUser']>[0] = {}) {
  const user = await system.signedInUser({ plan: 'basic', artistName: 'Luna Park', ...options });
  const files = await uploadReleaseFiles(system, user.cookie, 2);
  return { ...user, files, body: basicSubmission(files, { artistName: 'Luna Park' }) };
}

function withRelease(body: ReleaseSubmissionInput, release: Partial<ReleaseSubmissionInput['release']>) {
  return { ...body, release: { ...body.release, ...release } };
}

describe('POST /api/builder/releases', () => {
  it('creates the release, its tracks and credits as pending, and moves the audio under {userId}/{releaseId}/{name}', async () => {
    const { cookie, userId, files, body } = await basicUser();
    const response = await submit(cookie, body);
    expect(response.status).toBe(201);
    const { release, isRepeat } = await readJson(response);
    expect(isRepeat).toBe(false);
    expect(release).toMatchObject({ title: 'Night Drive', status: 'pending' });
    expect(release.id).toBe(releaseIdFor(userId, body.idempotencyKey));

    const [row] = await system.db.select().from(releases).where(eq(releases.id, release.id));
    const cover = (await system.db.select().from(uploads).where(eq(uploads.id, files.coverId)))[0];
    expect(row).toMatchObject({
      userId,
      genre: 'Electronic',
      primaryArtists: ['Luna Park'],
      primaryArtistsData: [{ name: 'Luna Park' }],
      featuredArtists: [],
      distributionStores: ['spotify', 'apple_music'],
      copyrightHolder: 'Luna Park',
      upc: null,
      labelName: null,
      status: 'pending',
      coverArtKey: cover?.storageKey,
      coverThumbSmallKey: cover?.thumbSmallKey,
      coverThumbMediumKey: cover?.thumbMediumKey,
      idempotencyKey: body.idempotencyKey,
    });
    const trackRows = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, release.id))
      .orderBy(tracks.position);
    expect(trackRows.map((track) => [track.position, track.title, track.explicit, track.fileKey])).toEqual([
      [1, 'Song 1', true, `${userId}/${release.id}/Track_1.wav`],
      [2, 'Song 2', false, `${userId}/${release.id}/Track_2.wav`],
    ]);
    expect(trackRows[0]).toMatchObject({
      originalFileName: 'Track 1.wav',
      durationMs: 500,
      sampleRate: 44_100,
      bitDepth: 16,
      channels: 2,
      fileSizeBytes: shortWav().length,
    });
    const stored = path.join(system.dataDir, 'storage', trackRows[0]?.fileKey as string);
    expect(fs.readFileSync(stored).equals(shortWav())).toBe(true);
    expect(fs.existsSync(path.join(system.dataDir, 'uploads-staging', files.audioIds[0] as string))).toBe(
      false,
    );

    const writers = await system.db
      .select()
      .from(songwriters)
      .where(eq(songwriters.trackId, trackRows[0]?.id as string));
    expect(writers).toMatchObject([
      { firstName: 'Sam', middleName: null, lastName: 'Writer', role: 'music_and_lyrics' },
    ]);
    const producerRows = await system.db
      .select()
      .from(producers)
      .where(eq(producers.trackId, trackRows[1]?.id as string));
    expect(producerRows).toMatchObject([{ firstName: 'Pat', middleName: 'Q', lastName: 'Producer' }]);
    const statuses = await system.db
      .select({ status: uploads.status, releaseId: uploads.releaseId })
      .from(uploads)
      .where(eq(uploads.userId, userId));
    expect(statuses.every((upload) => upload.status === 'consumed' && upload.releaseId === release.id)).toBe(
      true,
    );
  });

  it('makes one release from a retry and from a double click with the same key', async () => {
    const { cookie, userId, body } = await basicUser();
    const [first, second] = await Promise.all([submit(cookie, body), submit(cookie, body)]);
    // One creates it; the other waits for it and answers the same release.
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    const ids = await Promise.all(
      [first, second].map(async (response) => (await readJson(response)).release.id),
    );
    expect(ids[0]).toBe(ids[1]);
    const retry = await submit(cookie, body);
    expect(retry.status).toBe(200);
    const { release, isRepeat } = await readJson(retry);
    expect(isRepeat).toBe(true);
    const mine = await system.db.select().from(releases).where(eq(releases.userId, userId));
    expect(mine.map((row) => row.id)).toEqual([release.id]);
    expect(await system.db.select().from(tracks).where(eq(tracks.releaseId, release.id))).toHaveLength(2);
  });

  it('refuses a banned user with 403 and the ban reason, creating nothing', async () => {
    const { cookie, body } = await basicUser();
    const before = await count(releases);
    await system.db
      .update((await import('../../db/schema')).profiles)
      .set({ banned: true, banReason: 'Fraud', bannedAt: new Date() });
    const response = await submit(cookie, body);
    expect(response.status).toBe(403);
    expect((await readJson(response)).error.message).toBe(
      'Your account has been banned from uploading music. Reason: Fraud',
    );
    expect(await count(releases)).toBe(before);
    await system.db
      .update((await import('../../db/schema')).profiles)
      .set({ banned: false, banReason: null, bannedAt: null });
  });

  it('refuses a user whose subscription lapsed with 402', async () => {
    const user = await system.signedInUser({
      subscription: 'canceled',
      subscriptionEnd: new Date(Date.now() - 1000),
    });
    const response = await submit(
      user.cookie,
      basicSubmission({ coverId: 'a'.repeat(32), audioIds: ['b'.repeat(32)] }),
    );
    expect(response.status).toBe(402);
  });
});

describe('plan rules on the basic plan', () => {
  const cases: [string, (body: ReleaseSubmissionInput) => ReleaseSubmissionInput, string, string][] = [
    ['a UPC', (b) => withRelease(b, { upc: '036000291452' }), 'release.upc', BUILDER_MESSAGES.proFeature],
    [
      'a label',
      (b) => withRelease(b, { labelName: 'Big Label' }),
      'release.labelName',
      BUILDER_MESSAGES.proFeature,
    ],
    [
      'an original release date',
      (b) => withRelease(b, { originalReleaseDate: '2001-01-01' }),
      'release.originalReleaseDate',
      BUILDER_MESSAGES.proFeature,
    ],
    [
      'an ISRC',
      (b) => ({ ...b, tracks: b.tracks.map((t, i) => (i === 0 ? { ...t, isrc: 'US-AB1-24-00001' } : t)) }),
      'tracks.0.isrc',
      BUILDER_MESSAGES.proFeature,
    ],
    [
      'another copyright holder',
      (b) => withRelease(b, { copyrightHolder: 'Someone Else' }),
      'release.copyrightHolder',
      BUILDER_MESSAGES.basicHolderIsArtist,
    ],
    [
      'another publishing holder',
      (b) => withRelease(b, { publishingHolder: 'Someone Else' }),
      'release.publishingHolder',
      BUILDER_MESSAGES.basicHolderIsArtist,
    ],
    [
      'an earlier copyright year',
      (b) => withRelease(b, { copyrightYear: 2001 }),
      'release.copyrightYear',
      BUILDER_MESSAGES.basicYearIsCurrent,
    ],
    [
      'an earlier publishing year',
      (b) => withRelease(b, { publishingYear: 2001 }),
      'release.publishingYear',
      BUILDER_MESSAGES.basicYearIsCurrent,
    ],
    [
      'a second primary artist on another track',
      (b) => ({
        ...b,
        tracks: b.tracks.map((t, i) => (i === 1 ? { ...t, primaryArtists: [{ name: 'Other Act' }] } : t)),
      }),
      'tracks',
      BUILDER_MESSAGES.basicOnePrimaryArtist,
    ],
    [
      'two primary artists on one track',
      (b) => ({
        ...b,
        tracks: b.tracks.map((t, i) =>
          i === 0 ? { ...t, primaryArtists: [{ name: 'Luna Park' }, { name: 'Other' }] } : t,
        ),
      }),
      'tracks.0.primaryArtists',
      BUILDER_MESSAGES.basicOnePrimaryArtist,
    ],
  ];

  it.each(cases)('refuses %s with 422 and creates nothing', async (_name, change, field, message) => {
    const { cookie, body } = await basicUser();
    const before = await count(releases);
    const response = await submit(cookie, change(body));
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields[field]).toBe(message);
    expect(await count(releases)).toBe(before);
  });

  it('allows the same artist on every track and featured artists', async () => {
    const { cookie, body } = await basicUser();
    const changed = {
      ...body,
      tracks: body.tracks.map((t) => ({
        ...t,
        featuredArtists: [{ name: 'Guest One' }, { name: 'Guest Two' }],
      })),
    };
    const response = await submit(cookie, changed);
    expect(response.status).toBe(201);
    const [row] = await system.db
      .select()
      .from(releases)
      .where(eq(releases.id, (await readJson(response)).release.id));
    expect(row?.featuredArtists).toEqual(['Guest One', 'Guest Two']);
  });
});

describe('plan rules on Pro', () => {
  async function proUser(options: Parameters<TestSystem['signedInUser']>[0] = { plan: 'pro' }) {
    const user = await system.signedInUser({ artistName: 'Luna Park', ...options });
    const files = await uploadReleaseFiles(system, user.cookie, 2);
    return { ...user, body: basicSubmission(files, { artistName: 'Luna Park' }) };
  }

  it('stores UPC, label, original date, editable holders and ISRCs upper-case without hyphens', async () => {
    const { cookie, body } = await proUser();
    const changed: ReleaseSubmissionInput = {
      ...withRelease(body, {
        upc: '036000291452',
        labelName: 'Night Shift Records',
        originalReleaseDate: '1999-05-01',
        copyrightHolder: 'Night Shift Records',
        publishingHolder: 'Luna Publishing',
        copyrightYear: 2020,
        publishingYear: 2021,
      }),
      tracks: body.tracks.map((track, index) => ({
        ...track,
        isrc: index === 0 ? 'us-ab1-24-00001' : 'USAB12400002',
        primaryArtists:
          index === 0
            ? [
                { name: 'Luna Park' },
                { name: 'Moon Unit', spotifyLink: 'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF' },
              ]
            : [{ name: 'luna park' }],
      })),
    };
    const response = await submit(cookie, changed);
    expect(response.status).toBe(201);
    const id = (await readJson(response)).release.id;
    const [row] = await system.db.select().from(releases).where(eq(releases.id, id));
    expect(row).toMatchObject({
      upc: '036000291452',
      labelName: 'Night Shift Records',
      originalReleaseDate: '1999-05-01',
      copyrightYear: 2020,
      primaryArtists: ['Luna Park', 'Moon Unit'],
      primaryArtistsData: [
        { name: 'Luna Park' },
        { name: 'Moon Unit', spotifyLink: 'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF' },
      ],
    });
    const isrcs = (
      await system.db.select().from(tracks).where(eq(tracks.releaseId, id)).orderBy(tracks.position)
    ).map((t) => t.isrc);
    expect(isrcs).toEqual(['USAB12400001', 'USAB12400002']);
  });

  it('refuses an ISRC already in the catalogue with 409, in any spelling', async () => {
    const { cookie, body } = await proUser();
    const changed = {
      ...body,
      tracks: body.tracks.map((t, i) => (i === 0 ? { ...t, isrc: 'US-AB1-24-00001' } : t)),
    };
    const response = await submit(cookie, changed);
    expect(response.status).toBe(409);
    expect((await readJson(response)).error.fields['tracks.0.isrc']).toBe(BUILDER_MESSAGES.isrcTaken);
  });

  it("refuses five primary artists on a track with 'Maximum 4 primary artists per track (Spotify limit).'", async () => {
    const { cookie, body } = await proUser();
    const five = ['A', 'B', 'C', 'D', 'E'].map((name) => ({ name }));
    const response = await submit(cookie, {
      ...body,
      tracks: body.tracks.map((t) => ({ ...t, primaryArtists: five })),
    });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields['tracks.0.primaryArtists']).toBe(
      'Maximum 4 primary artists per track (Spotify limit).',
    );
  });

  it('refuses a UPC another release already carries with 409', async () => {
    const { cookie, body } = await proUser();
    const response = await submit(cookie, withRelease(body, { upc: '036000291452' }));
    expect(response.status).toBe(409);
    expect((await readJson(response)).error.fields['release.upc']).toBe(BUILDER_MESSAGES.upcTaken);
    // A retry of a submission carrying its own new UPC is the idempotent repeat, not a clash with itself.
    const own = withRelease(body, { upc: '5012345678900' });
    expect((await submit(cookie, own)).status).toBe(201);
    const retry = await submit(cookie, own);
    expect(retry.status).toBe(200);
    expect((await readJson(retry)).isRepeat).toBe(true);
  });

  it('refuses a UPC with a wrong check digit', async () => {
    const { cookie, body } = await proUser();
    const response = await submit(cookie, withRelease(body, { upc: '036000291453' }));
    expect((await readJson(response)).error.fields['release.upc']).toBe(BUILDER_MESSAGES.upcInvalid);
  });

  it('gives a basic-plan user with free access the Pro rules', async () => {
    const { cookie, body } = await proUser({ plan: 'basic', roles: ['free_access'] });
    const response = await submit(
      cookie,
      withRelease(body, { upc: '4006381333931', labelName: 'Free Label' }),
    );
    expect(response.status).toBe(201);
  });
});

describe('what the submission checks again', () => {
  it('refuses 21 tracks, duplicate titles, unknown platforms and no platform', async () => {
    const { cookie, body } = await basicUser();
    const many = {
      ...body,
      tracks: Array.from({ length: 21 }, (_, i) => ({ ...body.tracks[0], title: `T${i}` })),
    };
    expect((await readJson(await submit(cookie, many))).error.fields.tracks).toBe(
      BUILDER_MESSAGES.tooManyTracks,
    );
    const same = { ...body, tracks: body.tracks.map((t) => ({ ...t, title: 'Same Song' })) };
    expect((await readJson(await submit(cookie, same))).error.fields['tracks.1.title']).toBe(
      'Track titles must be unique',
    );
    const unknown = { ...body, platforms: ['spotify', 'myspace'] };
    expect((await readJson(await submit(cookie, unknown))).error.fields['platforms.1']).toBe(
      'Unknown platform',
    );
    const none = { ...body, platforms: [] };
    expect((await readJson(await submit(cookie, none))).error.fields.platforms).toBe(
      'Please select at least one platform to continue',
    );
  });

  it("refuses someone else's files, unchecked files and a cover given as audio", async () => {
    const { cookie, body } = await basicUser();
    const other = await system.signedInUser();
    const theirs = await uploadReleaseFiles(system, other.cookie, 1);
    const stolen = {
      ...body,
      tracks: body.tracks.map((t, i) =>
        i === 0 ? { ...t, audioUploadId: theirs.audioIds[0] as string } : t,
      ),
    };
    const response = await submit(cookie, stolen);
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields['tracks.0.audioUploadId']).toBe(
      BUILDER_MESSAGES.audioNotUsable,
    );

    const partial = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'half.wav',
      body: shortWav(),
      stopAfterBytes: 100,
    });
    const unfinished = {
      ...body,
      tracks: body.tracks.map((t, i) => (i === 1 ? { ...t, audioUploadId: partial.id as string } : t)),
    };
    expect((await readJson(await submit(cookie, unfinished))).error.fields['tracks.1.audioUploadId']).toBe(
      BUILDER_MESSAGES.audioNotUsable,
    );

    const swapped = {
      ...body,
      tracks: body.tracks.map((t, i) => (i === 0 ? { ...t, audioUploadId: body.release.coverUploadId } : t)),
    };
    expect((await readJson(await submit(cookie, swapped))).error.fields['tracks.0.audioUploadId']).toBe(
      BUILDER_MESSAGES.audioNotUsable,
    );

    const refused = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'low.wav',
      body: makeWav({ seconds: 0.2, sampleRate: 44_100, bitDepth: 8, channels: 1 }),
    });
    const bad = {
      ...body,
      tracks: body.tracks.map((t, i) => (i === 0 ? { ...t, audioUploadId: refused.id as string } : t)),
    };
    expect((await readJson(await submit(cookie, bad))).error.fields['tracks.0.audioUploadId']).toBe(
      BUILDER_MESSAGES.audioNotUsable,
    );
  });

  it('refuses files already used by another release', async () => {
    const { cookie, body } = await basicUser();
    expect((await submit(cookie, body)).status).toBe(201);
    const again = {
      ...body,
      idempotencyKey: crypto.randomUUID(),
      release: { ...body.release, title: 'Again' },
    };
    const response = await submit(cookie, again);
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields['release.coverUploadId']).toBe(
      BUILDER_MESSAGES.coverArtNotUsable,
    );
  });

  it('leaves nothing half-made when the last insert fails, keeps the draft, and a retry then succeeds', async () => {
    const { cookie, userId, body } = await basicUser();
    const draft: BuilderDraft = {
      version: 1,
      step: 4,
      idempotencyKey: body.idempotencyKey,
      release: {
        title: 'Night Drive',
        genre: 'Electronic',
        releaseDate: '',
        coverArt: null,
        copyrightHolder: '',
        copyrightYear: '',
        publishingHolder: '',
        publishingYear: '',
        upc: '',
        labelName: '',
        originalReleaseDate: '',
      },
      tracks: [
        {
          id: 't1',
          title: 'Song 1',
          file: null,
          explicit: false,
          isrc: '',
          primaryArtists: [],
          featuredArtists: [],
          songwriters: [],
          producers: [],
          aiDisclosure: { usage: null, areas: [] },
        },
      ],
      activeTrackId: 't1',
      platforms: ['spotify'],
    };
    expect((await system.request('/api/builder/draft', { method: 'PUT', cookie, json: draft })).status).toBe(
      200,
    );
    const counts = async () =>
      Promise.all([count(releases), count(tracks), count(songwriters), count(producers)]);
    const before = await counts();
    await system.db.execute(
      sql`create or replace function builder_test_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
    );
    await system.db.execute(
      sql`create trigger builder_test_fail before insert on producers for each statement execute function builder_test_fail()`,
    );
    try {
      const failed = await submit(cookie, body);
      expect(failed.status).toBe(500);
      expect(await counts()).toEqual(before);
      expect(await system.db.select().from(releases).where(eq(releases.userId, userId))).toEqual([]);
      const files = await system.db.select().from(uploads).where(eq(uploads.userId, userId));
      expect(files.every((file) => file.status === 'checked')).toBe(true);
      expect(
        (await system.db.select().from(releaseDrafts).where(eq(releaseDrafts.userId, userId))).length,
      ).toBe(1);
    } finally {
      await system.db.execute(sql`drop trigger builder_test_fail on producers`);
    }
    const retried = await submit(cookie, body);
    expect(retried.status).toBe(201);
    const id = (await readJson(retried)).release.id;
    const trackRows = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, id))
      .orderBy(tracks.position);
    // The audio moved by the failed attempt is reused under the same keys.
    expect(trackRows.map((t) => t.fileKey)).toEqual([
      `${userId}/${id}/Track_1.wav`,
      `${userId}/${id}/Track_2.wav`,
    ]);
    expect(fs.existsSync(path.join(system.dataDir, 'storage', trackRows[1]?.fileKey as string))).toBe(true);
    expect(
      (await system.db.select().from(releaseDrafts).where(eq(releaseDrafts.userId, userId))).length,
    ).toBe(0);
  });
});

describe('the draft', () => {
  it('saves and restores the wizard with the state of its uploaded files', async () => {
    const user = await system.signedInUser();
    expect(await readJson(await system.request('/api/builder/draft', { cookie: user.cookie }))).toMatchObject(
      { draft: null, uploads: {} },
    );
    const files = await uploadReleaseFiles(system, user.cookie, 1);
    const partial = await tusUpload(system, user.cookie, {
      kind: 'audio',
      name: 'b.wav',
      body: shortWav(),
      stopAfterBytes: 1000,
    });
    const draft: BuilderDraft = {
      version: 1,
      step: 2,
      idempotencyKey: crypto.randomUUID(),
      release: {
        title: 'Draft Title',
        genre: 'Pop',
        releaseDate: '2030-01-01',
        coverArt: { uploadId: files.coverId, name: 'Cover Art.png', sizeBytes: 1 },
        copyrightHolder: 'Me',
        copyrightYear: '2024',
        publishingHolder: 'Me',
        publishingYear: '2024',
        upc: '',
        labelName: '',
        originalReleaseDate: '',
      },
      tracks: [
        {
          id: 't1',
          title: 'One',
          file: { uploadId: files.audioIds[0] as string, name: 'Track 1.wav', sizeBytes: 2 },
          explicit: true,
          isrc: '',
          primaryArtists: [{ name: 'Me', spotifyLink: '', appleMusicLink: '' }],
          featuredArtists: [],
          songwriters: [{ id: 's1', firstName: 'A', middleName: '', lastName: 'B', role: 'lyrics' }],
          producers: [],
          aiDisclosure: { usage: null, areas: [] },
        },
        {
          id: 't2',
          title: 'Two',
          file: { uploadId: partial.id as string, name: 'b.wav', sizeBytes: 3 },
          explicit: false,
          isrc: '',
          primaryArtists: [],
          featuredArtists: [],
          songwriters: [],
          producers: [],
          aiDisclosure: { usage: null, areas: [] },
        },
      ],
      activeTrackId: 't2',
      platforms: ['spotify', 'tidal'],
    };
    const saved = await system.request('/api/builder/draft', {
      method: 'PUT',
      cookie: user.cookie,
      json: draft,
    });
    expect(saved.status).toBe(200);
    const loaded = await readJson(await system.request('/api/builder/draft', { cookie: user.cookie }));
    expect(loaded.draft).toEqual(draft);
    expect(loaded.uploads[files.coverId].status).toBe('checked');
    expect(loaded.uploads[files.audioIds[0] as string]).toMatchObject({
      status: 'checked',
      details: { durationMs: 500 },
    });
    expect(loaded.uploads[partial.id as string]).toMatchObject({ status: 'uploading', receivedBytes: 1000 });
    expect(loaded.limits.maxWavBytes).toBe(2 * 1024 ** 3);

    const deleted = await system.request('/api/builder/draft', { method: 'DELETE', cookie: user.cookie });
    expect(deleted.status).toBe(200);
    expect(
      (await readJson(await system.request('/api/builder/draft', { cookie: user.cookie }))).draft,
    ).toBeNull();
  });

  it('does not bring back the draft of a release already submitted (a save racing the submission)', async () => {
    const { cookie, userId, body } = await basicUser();
    expect((await submit(cookie, body)).status).toBe(201);
    const late: BuilderDraft = {
      version: 1,
      step: 4,
      idempotencyKey: body.idempotencyKey,
      release: {
        title: 'Late',
        genre: '',
        releaseDate: '',
        coverArt: null,
        copyrightHolder: '',
        copyrightYear: '',
        publishingHolder: '',
        publishingYear: '',
        upc: '',
        labelName: '',
        originalReleaseDate: '',
      },
      tracks: [
        {
          id: 't1',
          title: '',
          file: null,
          explicit: false,
          isrc: '',
          primaryArtists: [],
          featuredArtists: [],
          songwriters: [],
          producers: [],
          aiDisclosure: { usage: null, areas: [] },
        },
      ],
      activeTrackId: null,
      platforms: [],
    };
    const response = await system.request('/api/builder/draft', { method: 'PUT', cookie, json: late });
    expect(response.status).toBe(409);
    expect(await system.db.select().from(releaseDrafts).where(eq(releaseDrafts.userId, userId))).toEqual([]);
  });

  it('refuses a malformed draft with 422', async () => {
    const user = await system.signedInUser();
    const response = await system.request('/api/builder/draft', {
      method: 'PUT',
      cookie: user.cookie,
      json: { version: 2 },
    });
    expect(response.status).toBe(422);
  });
});
