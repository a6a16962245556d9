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
import { WAV_MESSAGES } from '../builder/wav';

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
