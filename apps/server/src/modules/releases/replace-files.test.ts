/**
 * Replacing a release's files after submission (issue 18, record 121): real tus uploads through the app,
 * the builder's checks, the storage copy, and the old file removed only after the commit.
 */
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { RELEASE_MESSAGES } from '@tunedrop/shared/schemas/releases';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, profiles, releases, tracks, uploads } from '../../db/schema';
import { basicSubmission, tusUpload, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { makeImage, makeWav } from '../../test-support/media';
import { WAV_MESSAGES } from '../catalogue';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

type Artist = Awaited<ReturnType<TestSystem['signedInUser']>>;

/** A release made by the real builder, then put in `status` as a moderator's decision would. */
async function submittedRelease(artist: Artist, status: 'pending' | 'rejected' | 'approved' = 'rejected') {
  const files = await uploadReleaseFiles(system, artist.cookie, 2);
  const submitted = await system.request('/api/builder/releases', {
    method: 'POST',
    cookie: artist.cookie,
    json: basicSubmission(files, { artistName: 'Replacer' }),
  });
  expect(submitted.status, await submitted.clone().text()).toBeLessThan(300);
  const releaseId = (await readJson(submitted)).release.id as string;
  if (status !== 'pending') {
    await system.db
      .update(releases)
      .set({ status, rejectionReason: status === 'rejected' ? 'Wrong cover' : null })
      .where(eq(releases.id, releaseId));
  }
  const trackRows = await system.db
    .select()
    .from(tracks)
    .where(eq(tracks.releaseId, releaseId))
    .orderBy(asc(tracks.position));
  return { releaseId, tracks: trackRows };
}

async function releaseRow(releaseId: string) {
  const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
  if (!row) throw new Error('release missing');
  return row;
}

async function upload(artist: Artist, kind: 'cover' | 'audio', name: string, body: Buffer) {
  const result = await tusUpload(system, artist.cookie, { kind, name, body });
  if (!result.id) throw new Error(`upload not created: ${await result.created.text()}`);
  return result;
}

const putCover = (artist: Artist, releaseId: string, uploadId: string) =>
  system.request(`/api/releases/${releaseId}/cover`, {
    method: 'PUT',
    cookie: artist.cookie,
    json: { uploadId },
  });

const putAudio = (artist: Artist, releaseId: string, trackId: string, uploadId: string) =>
  system.request(`/api/releases/${releaseId}/tracks/${trackId}/audio`, {
    method: 'PUT',
    cookie: artist.cookie,
    json: { uploadId },
  });

async function expectRefused(response: Response, status: number, message: string) {
  expect(response.status).toBe(status);
  expect((await readJson(response)).error.message).toBe(message);
}

const newCover = () => makeImage({ width: 3000, height: 3000, format: 'jpeg' });

describe('PUT /api/releases/:id/cover', () => {
  it('takes a checked cover: new original and thumbnails, old files gone after the commit, audited', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const { releaseId } = await submittedRelease(artist);
    const before = await releaseRow(releaseId);
    const oldKeys = [before.coverArtKey, before.coverThumbSmallKey, before.coverThumbMediumKey] as string[];
    for (const key of oldKeys) expect(await system.storage.exists(key)).toBe(true);
    const detailBefore = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: artist.cookie }),
    );
    const listCover = async () =>
      (await readJson(await system.request('/api/releases', { cookie: artist.cookie }))).items.find(
        (item: { id: string }) => item.id === releaseId,
      )?.coverUrl;
    const listCoverBefore = await listCover();

    const cover = await upload(artist, 'cover', 'New Cover.jpg', await newCover());
    expect(cover.finished?.status).toBe(204);
    const replaced = await putCover(artist, releaseId, cover.id as string);
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect((await readJson(replaced)).cover.originalName).toBe('New Cover.jpg');

    const after = await releaseRow(releaseId);
    expect(after.status).toBe('rejected');
    expect(after.coverArtKey).not.toBe(before.coverArtKey);
    expect(after.coverArtKey).toMatch(/\.jpg$/);
    for (const key of [after.coverArtKey, after.coverThumbSmallKey, after.coverThumbMediumKey]) {
      expect(await system.storage.exists(key as string)).toBe(true);
    }
    for (const key of oldKeys) expect(await system.storage.exists(key)).toBe(false);
    const [consumed] = await system.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, cover.id as string));
    expect(consumed).toMatchObject({ status: 'consumed', releaseId });
    // The replaced cover's upload record left with its files; only the new one names the release's cover.
    const coverRows = await system.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.releaseId, releaseId), eq(uploads.kind, 'cover')));
    expect(coverRows.map((row) => row.id)).toEqual([cover.id]);

    // The thumbnail served is the new one (a JPEG made from the new image), under a new URL.
    const detail = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: artist.cookie }),
    );
    expect(detail.coverUrl).not.toBe(detailBefore.coverUrl);
    // My Songs' thumbnail gets a new URL too, so the browser's cached old cover is not shown there.
    expect(await listCover()).not.toBe(listCoverBefore);
    const thumb = await system.request(detail.coverUrl, { cookie: artist.cookie });
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 600, height: 600 });

    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.releaseId, releaseId), eq(auditLog.action, 'release.replace_cover')));
    expect(audit?.before).toMatchObject({ coverArtKey: before.coverArtKey });
    expect(audit?.after).toMatchObject({ coverArtKey: after.coverArtKey, originalName: 'New Cover.jpg' });
  }, 120_000);

  it('refuses an undersized cover with the builder’s message and changes nothing', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const { releaseId } = await submittedRelease(artist);
    const before = await releaseRow(releaseId);
    const small = await upload(
      artist,
      'cover',
      'small.png',
      await makeImage({ width: 1000, height: 1000, format: 'png' }),
    );
    // The upload itself says why, as in the builder; the release route says the same.
    expect(small.finished?.status).toBe(422);
    await expectRefused(
      await putCover(artist, releaseId, small.id as string),
      422,
      BUILDER_MESSAGES.coverArtDimensions,
    );
    const after = await releaseRow(releaseId);
    expect(after.coverArtKey).toBe(before.coverArtKey);
    expect(await system.storage.exists(before.coverArtKey as string)).toBe(true);
  }, 120_000);

  it('refuses another user’s upload and an audio upload, as the builder does', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const other = await system.signedInUser({ artistName: 'Someone Else' });
    const { releaseId } = await submittedRelease(artist);
    const before = await releaseRow(releaseId);
    const theirs = await upload(other, 'cover', 'theirs.jpg', await newCover());
    expect(theirs.finished?.status).toBe(204);
    await expectRefused(
      await putCover(artist, releaseId, theirs.id as string),
      422,
      BUILDER_MESSAGES.coverArtNotUsable,
    );
    const wav = await upload(
      artist,
      'audio',
      'song.wav',
      makeWav({ seconds: 0.2, sampleRate: 44_100, bitDepth: 16, channels: 2 }),
    );
    await expectRefused(
      await putCover(artist, releaseId, wav.id as string),
      422,
      BUILDER_MESSAGES.coverArtNotUsable,
    );
    expect((await releaseRow(releaseId)).coverArtKey).toBe(before.coverArtKey);
    const [theirRow] = await system.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, theirs.id as string));
    expect(theirRow?.status).toBe('checked');
  }, 120_000);

  it('is 404 for another artist’s release and 409 for an approved one', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const other = await system.signedInUser({ artistName: 'Someone Else' });
    const { releaseId } = await submittedRelease(artist);
    const mine = await upload(other, 'cover', 'mine.jpg', await newCover());
    await expectRefused(await putCover(other, releaseId, mine.id as string), 404, RELEASE_MESSAGES.notFound);

    const approved = await submittedRelease(artist, 'approved');
    const before = await releaseRow(approved.releaseId);
    const cover = await upload(artist, 'cover', 'late.jpg', await newCover());
    await expectRefused(
      await putCover(artist, approved.releaseId, cover.id as string),
      409,
      RELEASE_MESSAGES.cannotEdit,
    );
    expect((await releaseRow(approved.releaseId)).coverArtKey).toBe(before.coverArtKey);
    const [row] = await system.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, cover.id as string));
    expect(row?.status).toBe('checked');
  }, 120_000);
});

describe('PUT /api/releases/:id/tracks/:trackId/audio', () => {
  it('takes a checked WAV: stored under the release, duration and format updated, old WAV gone, audited', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const { releaseId, tracks: before } = await submittedRelease(artist, 'pending');
    const target = before[1] as (typeof before)[number];
    expect(target.durationMs).toBe(500);
    // The same name as the file it replaces: the new one must still get its own key.
    const wav = makeWav({ seconds: 1.5, sampleRate: 48_000, bitDepth: 24, channels: 1 });
    const replacement = await upload(artist, 'audio', target.originalFileName, wav);
    expect(replacement.finished?.status).toBe(204);

    const response = await putAudio(artist, releaseId, target.id, replacement.id as string);
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await readJson(response)).audio).toEqual({
      trackId: target.id,
      originalFileName: target.originalFileName,
      durationMs: 1500,
      fileSizeBytes: wav.length,
    });

    const [after] = await system.db.select().from(tracks).where(eq(tracks.id, target.id));
    expect(after).toMatchObject({
      durationMs: 1500,
      sampleRate: 48_000,
      bitDepth: 24,
      channels: 1,
      fileSizeBytes: wav.length,
      title: target.title,
      position: target.position,
    });
    expect(after?.fileKey).not.toBe(target.fileKey);
    expect(after?.fileKey.startsWith(`${artist.userId}/${releaseId}/`)).toBe(true);
    expect(await system.storage.sizeOf(after?.fileKey as string)).toBe(wav.length);
    expect(await system.storage.exists(target.fileKey)).toBe(false);
    // The other track is untouched.
    const [untouched] = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.id, (before[0] as (typeof before)[number]).id));
    expect(untouched?.fileKey).toBe(before[0]?.fileKey);
    expect(await system.storage.exists(untouched?.fileKey as string)).toBe(true);

    // The owner's player streams the new file.
    const played = await system.request(`/api/releases/${releaseId}/tracks/${target.id}/audio`, {
      cookie: artist.cookie,
    });
    expect(played.status).toBe(200);
    expect(Buffer.from(await played.arrayBuffer()).equals(wav)).toBe(true);

    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.releaseId, releaseId), eq(auditLog.action, 'release.replace_audio')));
    expect(audit?.before).toMatchObject({ trackId: target.id, fileKey: target.fileKey, durationMs: 500 });
    expect(audit?.after).toMatchObject({ trackId: target.id, fileKey: after?.fileKey, durationMs: 1500 });
    expect((await releaseRow(releaseId)).status).toBe('pending');
  }, 120_000);

  it('refuses a bad WAV with the builder’s message and changes nothing', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const { releaseId, tracks: before } = await submittedRelease(artist);
    const target = before[0] as (typeof before)[number];
    const bad = await upload(
      artist,
      'audio',
      'lofi.wav',
      makeWav({ seconds: 0.5, sampleRate: 22_050, bitDepth: 16, channels: 2 }),
    );
    expect(bad.finished?.status).toBe(422);
    await expectRefused(
      await putAudio(artist, releaseId, target.id, bad.id as string),
      422,
      WAV_MESSAGES.sampleRate(22_050),
    );
    const [after] = await system.db.select().from(tracks).where(eq(tracks.id, target.id));
    expect(after).toMatchObject({ fileKey: target.fileKey, durationMs: target.durationMs });
    expect(await system.storage.exists(target.fileKey)).toBe(true);
  }, 120_000);

  it('refuses another user’s upload, someone else’s release (404), a foreign track (404) and an approved release (409)', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const other = await system.signedInUser({ artistName: 'Someone Else' });
    const { releaseId, tracks: before } = await submittedRelease(artist);
    const target = before[0] as (typeof before)[number];
    const body = makeWav({ seconds: 0.3, sampleRate: 44_100, bitDepth: 16, channels: 2 });

    const theirs = await upload(other, 'audio', 'theirs.wav', body);
    await expectRefused(
      await putAudio(artist, releaseId, target.id, theirs.id as string),
      422,
      BUILDER_MESSAGES.audioNotUsable,
    );
    await expectRefused(
      await putAudio(other, releaseId, target.id, theirs.id as string),
      404,
      RELEASE_MESSAGES.notFound,
    );

    const second = await submittedRelease(artist);
    const mine = await upload(artist, 'audio', 'mine.wav', body);
    await expectRefused(
      await putAudio(artist, releaseId, (second.tracks[0] as (typeof before)[number]).id, mine.id as string),
      404,
      'Track not found.',
    );

    const approved = await submittedRelease(artist, 'approved');
    const approvedTrack = approved.tracks[0] as (typeof before)[number];
    await expectRefused(
      await putAudio(artist, approved.releaseId, approvedTrack.id, mine.id as string),
      409,
      RELEASE_MESSAGES.cannotEdit,
    );
    const [unchanged] = await system.db.select().from(tracks).where(eq(tracks.id, approvedTrack.id));
    expect(unchanged?.fileKey).toBe(approvedTrack.fileKey);
    expect(await system.storage.exists(target.fileKey)).toBe(true);
    const [mineRow] = await system.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, mine.id as string));
    expect(mineRow?.status).toBe('checked');
  }, 120_000);

  it('refuses a banned owner with the ban message', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const { releaseId, tracks: before } = await submittedRelease(artist);
    const cover = await upload(artist, 'cover', 'c.jpg', await newCover());
    await system.db
      .update(profiles)
      .set({ banned: true, banReason: 'Spam uploads', bannedAt: new Date() })
      .where(eq(profiles.id, artist.userId));
    const refused = await putCover(artist, releaseId, cover.id as string);
    expect(refused.status).toBe(403);
    expect((await readJson(refused)).error.code).toBe('banned');
    const audio = await putAudio(
      artist,
      releaseId,
      (before[0] as (typeof before)[number]).id,
      cover.id as string,
    );
    expect(audio.status).toBe(403);
  }, 120_000);
});

describe('POST /api/releases/:id/tracks and DELETE /api/releases/:id/tracks/:trackId', () => {
  const newTrack = (uploadId: string, overrides: Record<string, unknown> = {}) => ({
    title: 'Bonus Song',
    audioUploadId: uploadId,
    explicit: true,
    primaryArtists: [{ name: 'Replacer' }],
    featuredArtists: [{ name: 'Guest Voice' }],
    songwriters: [{ firstName: 'Ada', lastName: 'Writer', role: 'lyrics' }],
    producers: [{ firstName: 'Bo', lastName: 'Maker' }],
    aiDisclosure: { usage: 'none' },
    ...overrides,
  });
  const post = (artist: Artist, releaseId: string, body: unknown) =>
    system.request(`/api/releases/${releaseId}/tracks`, {
      method: 'POST',
      cookie: artist.cookie,
      json: body,
    });
  const remove = (artist: Artist, releaseId: string, trackId: string) =>
    system.request(`/api/releases/${releaseId}/tracks/${trackId}`, {
      method: 'DELETE',
      cookie: artist.cookie,
    });
  const wav = (seconds = 2) => makeWav({ seconds, sampleRate: 44_100, bitDepth: 16, channels: 2 });

  it('adds a track at the end with its WAV, credits and the release’s artists, then removes one and renumbers', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const { releaseId, tracks: before } = await submittedRelease(artist);
    const audio = await upload(artist, 'audio', 'Bonus.wav', wav(2));
    const added = await post(artist, releaseId, newTrack(audio.id as string));
    expect(added.status, await added.clone().text()).toBe(201);
    const { track } = await readJson(added);
    expect(track).toMatchObject({
      title: 'Bonus Song',
      explicit: true,
      fileName: 'Bonus.wav',
      durationMs: 2000,
    });

    const rows = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, releaseId))
      .orderBy(asc(tracks.position));
    expect(rows.map((row) => [row.position, row.title])).toEqual([
      [1, 'Song 1'],
      [2, 'Song 2'],
      [3, 'Bonus Song'],
    ]);
    const third = rows[2] as (typeof rows)[number];
    expect(third.fileKey.startsWith(`${artist.userId}/${releaseId}/`)).toBe(true);
    expect(await system.storage.sizeOf(third.fileKey)).toBe(wav(2).length);
    expect((await releaseRow(releaseId)).featuredArtists).toEqual(['Guest Voice']);
    const edit = await readJson(
      await system.request(`/api/releases/${releaseId}`, { cookie: artist.cookie }),
    );
    expect(edit.release.tracks[2]).toMatchObject({
      title: 'Bonus Song',
      songwriters: [{ firstName: 'Ada', lastName: 'Writer', role: 'lyrics' }],
      producers: [{ firstName: 'Bo', lastName: 'Maker' }],
    });

    const first = before[0] as (typeof before)[number];
    const removed = await remove(artist, releaseId, first.id);
    expect(removed.status, await removed.clone().text()).toBe(200);
    const left = await system.db
      .select()
      .from(tracks)
      .where(eq(tracks.releaseId, releaseId))
      .orderBy(asc(tracks.position));
    expect(left.map((row) => [row.position, row.title])).toEqual([
      [1, 'Song 2'],
      [2, 'Bonus Song'],
    ]);
    expect(await system.storage.exists(first.fileKey)).toBe(false);
    const actions = (await system.db.select().from(auditLog).where(eq(auditLog.releaseId, releaseId))).map(
      (row) => row.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['release.add_track', 'release.remove_track']));
  }, 120_000);

  it('refuses a duplicate title, a bad WAV, a second primary artist on Basic, the last track and 21 tracks', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const { releaseId, tracks: before } = await submittedRelease(artist);
    const good = await upload(artist, 'audio', 'ok.wav', wav(1));
    await expectRefused(
      await post(artist, releaseId, newTrack(good.id as string, { title: ' song 1 ' })),
      422,
      BUILDER_MESSAGES.trackTitlesUnique,
    );
    await expectRefused(
      await post(
        artist,
        releaseId,
        newTrack(good.id as string, { primaryArtists: [{ name: 'Other Star' }] }),
      ),
      422,
      RELEASE_MESSAGES.basicOnePrimaryArtist,
    );
    await expectRefused(
      await post(artist, releaseId, newTrack(good.id as string, { songwriters: [] })),
      422,
      BUILDER_MESSAGES.songwriterRequired,
    );
    const bad = await upload(
      artist,
      'audio',
      'bad.wav',
      makeWav({ seconds: 0.5, sampleRate: 44_100, bitDepth: 8, channels: 2 }),
    );
    await expectRefused(
      await post(artist, releaseId, newTrack(bad.id as string)),
      422,
      WAV_MESSAGES.bitDepth(8),
    );
    expect(await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId))).toHaveLength(2);

    await expect((await remove(artist, releaseId, (before[0] as (typeof before)[number]).id)).status).toBe(
      200,
    );
    await expectRefused(
      await remove(artist, releaseId, (before[1] as (typeof before)[number]).id),
      422,
      BUILDER_MESSAGES.tooManyTracks,
    );

    // Up to 20: the 20th is taken, the 21st refused.
    for (let index = 2; index <= 20; index += 1) {
      const file = await upload(artist, 'audio', `t${index}.wav`, wav(0.1));
      const response = await post(
        artist,
        releaseId,
        newTrack(file.id as string, { title: `Extra ${index}` }),
      );
      expect(response.status, await response.clone().text()).toBe(201);
    }
    const last = await upload(artist, 'audio', 't21.wav', wav(0.1));
    await expectRefused(
      await post(artist, releaseId, newTrack(last.id as string, { title: 'One Too Many' })),
      422,
      BUILDER_MESSAGES.tooManyTracks,
    );
    expect(await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId))).toHaveLength(20);
  }, 180_000);

  it('is 404 for another artist and for a foreign track, 409 for an approved release', async () => {
    const artist = await system.signedInUser({ artistName: 'Replacer' });
    const other = await system.signedInUser({ artistName: 'Someone Else' });
    const { releaseId, tracks: before } = await submittedRelease(artist);
    const theirs = await upload(other, 'audio', 'x.wav', wav(0.2));
    await expectRefused(
      await post(other, releaseId, newTrack(theirs.id as string)),
      404,
      RELEASE_MESSAGES.notFound,
    );
    await expectRefused(
      await remove(other, releaseId, (before[0] as (typeof before)[number]).id),
      404,
      RELEASE_MESSAGES.notFound,
    );
    const second = await submittedRelease(artist);
    await expectRefused(
      await remove(artist, releaseId, (second.tracks[0] as (typeof before)[number]).id),
      404,
      'Track not found.',
    );
    const approved = await submittedRelease(artist, 'approved');
    const mine = await upload(artist, 'audio', 'y.wav', wav(0.2));
    await expectRefused(
      await post(artist, approved.releaseId, newTrack(mine.id as string)),
      409,
      RELEASE_MESSAGES.cannotEdit,
    );
    await expectRefused(
      await remove(artist, approved.releaseId, (approved.tracks[0] as (typeof before)[number]).id),
      409,
      RELEASE_MESSAGES.cannotEdit,
    );
    expect(
      await system.db.select().from(tracks).where(eq(tracks.releaseId, approved.releaseId)),
    ).toHaveLength(2);
  }, 120_000);
});
