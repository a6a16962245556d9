/** tus uploads through the API in-process: creation limits, content checks, ownership, resume, cancel. */
import fs from 'node:fs';
import path from 'node:path';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../db/schema';
import { shortWav, tusPatch, tusUpload, uploadHead, validCover } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { makeImage, makeWav } from '../../test-support/media';
import { WAV_MESSAGES } from '../catalogue';

let system: TestSystem;
let cookie: string;
let userId: string;

beforeAll(async () => {
  system = await createTestSystem();
  ({ cookie, userId } = await system.signedInUser({ plan: 'basic' }));
});
afterAll(async () => system.close());

const row = async (id: string) => (await system.db.select().from(uploads).where(eq(uploads.id, id)))[0];
const staged = (id: string) => path.join(system.dataDir, 'uploads-staging', id);
const stored = (key: string) => path.join(system.dataDir, 'storage', key);

describe('audio uploads', () => {
  it('stages a 16-bit WAV, checks it and records rate, depth, channels and duration', async () => {
    const body = makeWav({ seconds: 2, sampleRate: 48_000, bitDepth: 16, channels: 2 });
    const result = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'Mixdown (final).WAV',
      body,
      chunkSize: 100_000,
    });
    expect(result.created.status).toBe(201);
    expect(result.created.headers.get('location')).toBe(`/api/uploads/${result.id}`);
    expect(result.finished?.status).toBe(204);
    const upload = await row(result.id as string);
    expect(upload).toMatchObject({
      userId,
      kind: 'audio',
      status: 'checked',
      originalName: 'Mixdown (final).WAV',
      sanitizedName: 'Mixdown_final_.WAV',
      sizeBytes: body.length,
      storageKey: null,
      details: { sampleRate: 48_000, bitDepth: 16, channels: 2, durationMs: 2000 },
    });
    // Audio waits in staging until the release is submitted.
    expect(fs.readFileSync(staged(upload?.id as string)).equals(body)).toBe(true);

    const info = await system.request(`/api/builder/uploads/${result.id}`, { cookie });
    expect(info.status).toBe(200);
    expect(await readJson(info)).toMatchObject({
      status: 'checked',
      kind: 'audio',
      details: { durationMs: 2000 },
    });
  });

  it('accepts a 24-bit WAV', async () => {
    const body = makeWav({ seconds: 0.5, sampleRate: 96_000, bitDepth: 24, channels: 1 });
    const result = await tusUpload(system, cookie, { kind: 'audio', name: 'hi-res.wav', body });
    expect(result.finished?.status).toBe(204);
    expect((await row(result.id as string))?.details).toMatchObject({
      bitDepth: 24,
      sampleRate: 96_000,
      channels: 1,
    });
  });

  it('refuses an 8-bit WAV when its last byte arrives, with the reason, and removes the staged file', async () => {
    const body = makeWav({ seconds: 0.5, sampleRate: 44_100, bitDepth: 8, channels: 2 });
    const result = await tusUpload(system, cookie, { kind: 'audio', name: 'lofi.wav', body });
    expect(result.finished?.status).toBe(422);
    expect(await readJson(result.finished as Response)).toEqual({
      error: { code: 'file_rejected', message: WAV_MESSAGES.bitDepth(8) },
    });
    expect(await row(result.id as string)).toMatchObject({
      status: 'rejected',
      error: WAV_MESSAGES.bitDepth(8),
    });
    expect(fs.existsSync(staged(result.id as string))).toBe(false);
    // A refused upload cannot be "resumed" into a success: HEAD answers 404, so the client starts over.
    expect((await uploadHead(system, cookie, result.id as string)).status).toBe(404);
  });

  it('refuses a text file named .wav by its content', async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'notes.wav',
      body: Buffer.from('hello there'),
    });
    expect(result.finished?.status).toBe(422);
    expect((await readJson(result.finished as Response)).error.message).toBe(WAV_MESSAGES.notWav);
  });

  it("refuses a name without .wav before any byte is sent: 'Only WAV format is accepted'", async () => {
    const result = await tusUpload(system, cookie, { kind: 'audio', name: 'song.mp3', body: shortWav() });
    expect(result.created.status).toBe(415);
    expect((await readJson(result.created)).error.message).toBe(BUILDER_MESSAGES.audioFileFormat);
  });

  it('refuses a WAV over the configured limit at creation', async () => {
    const small = await createTestSystem({ UPLOAD_MAX_WAV_BYTES: String(50 * 1024) });
    try {
      const user = await small.signedInUser();
      const result = await tusUpload(small, user.cookie, {
        kind: 'audio',
        name: 'big.wav',
        body: shortWav(),
      });
      expect(result.created.status).toBe(413);
      expect((await readJson(result.created)).error.message).toBe('WAV files must be at most 50 KB');
    } finally {
      await small.close();
    }
  });

  it('resumes after a dropped connection from the offset the server kept', async () => {
    const body = makeWav({ seconds: 3, sampleRate: 44_100, bitDepth: 16, channels: 2 });
    const half = Math.floor(body.length / 2);
    const first = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'long.wav',
      body,
      chunkSize: 64 * 1024,
      stopAfterBytes: half,
    });
    const id = first.id as string;
    const head = await uploadHead(system, cookie, id);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    expect((await row(id))?.status).toBe('uploading');
    const finished = await tusPatch(system, cookie, `/api/uploads/${id}`, body, offset, 64 * 1024);
    expect(finished.status).toBe(204);
    expect(await row(id)).toMatchObject({ status: 'checked', details: { durationMs: 3000 } });
  });

  it("hides one user's upload from another: HEAD, PATCH and DELETE answer 404", async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'mine.wav',
      body: shortWav(),
      stopAfterBytes: 100,
    });
    const other = await system.signedInUser();
    const id = result.id as string;
    expect((await uploadHead(system, other.cookie, id)).status).toBe(404);
    const patch = await tusPatch(system, other.cookie, `/api/uploads/${id}`, shortWav(), 100);
    expect(patch.status).toBe(404);
    const deleted = await system.request(`/api/uploads/${id}`, {
      method: 'DELETE',
      cookie: other.cookie,
      headers: { 'Tus-Resumable': '1.0.0' },
    });
    expect(deleted.status).toBe(404);
    expect((await row(id))?.status).toBe('uploading');
    expect((await system.request(`/api/builder/uploads/${id}`, { cookie: other.cookie })).status).toBe(404);
  });

  it('cancels an upload: DELETE removes the staged file and the row', async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'audio',
      name: 'cancel.wav',
      body: shortWav(),
      stopAfterBytes: 500,
    });
    const id = result.id as string;
    expect(fs.existsSync(staged(id))).toBe(true);
    const deleted = await system.request(`/api/uploads/${id}`, {
      method: 'DELETE',
      cookie,
      headers: { 'Tus-Resumable': '1.0.0' },
    });
    expect(deleted.status).toBe(204);
    expect(await row(id)).toBeUndefined();
    expect(fs.existsSync(staged(id))).toBe(false);
  });

  it('never serves uploaded files back through the upload endpoint', async () => {
    const result = await tusUpload(system, cookie, { kind: 'audio', name: 'x.wav', body: shortWav() });
    expect((await system.request(`/api/uploads/${result.id}`, { cookie })).status).toBe(405);
  });
});

describe('cover uploads', () => {
  it('checks a 3000x3000 PNG and moves it with its thumbnails into storage under {userId}/{timestamp}-{name}', async () => {
    const body = await validCover();
    const result = await tusUpload(system, cookie, { kind: 'cover', name: 'Pochette été.png', body });
    expect(result.finished?.status).toBe(204);
    const upload = await row(result.id as string);
    const stamp = upload?.createdAt.getTime();
    expect(upload).toMatchObject({
      status: 'checked',
      sanitizedName: 'Pochette_ete.png',
      storageKey: `${userId}/${stamp}-Pochette_ete.png`,
      thumbSmallKey: `${userId}/${stamp}-Pochette_ete-thumb-200.jpg`,
      thumbMediumKey: `${userId}/${stamp}-Pochette_ete-thumb-600.jpg`,
      details: { format: 'png', width: 3000, height: 3000 },
    });
    expect(fs.readFileSync(stored(upload?.storageKey as string)).equals(body)).toBe(true);
    expect(fs.existsSync(stored(upload?.thumbSmallKey as string))).toBe(true);
    expect(fs.existsSync(staged(upload?.id as string))).toBe(false);
    // A finished cover still answers HEAD with its full length, so a resuming client sees it done.
    const head = await uploadHead(system, cookie, upload?.id as string);
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, String(body.length)]);
  });

  it("serves the owner's checked cover thumbnail for the draft preview, and nobody else's", async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'cover',
      name: 'preview.png',
      body: await validCover(),
    });
    const response = await system.request(`/api/builder/uploads/${result.id}/thumbnail`, { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    const other = await system.signedInUser();
    expect(
      (await system.request(`/api/builder/uploads/${result.id}/thumbnail`, { cookie: other.cookie })).status,
    ).toBe(404);
  });

  it('refuses a 100x100 PNG and keeps nothing', async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'cover',
      name: 'small.png',
      body: await makeImage({ width: 100, height: 100, format: 'png' }),
    });
    expect(result.finished?.status).toBe(422);
    expect((await readJson(result.finished as Response)).error.message).toBe(
      BUILDER_MESSAGES.coverArtDimensions,
    );
    expect((await row(result.id as string))?.storageKey).toBeNull();
  });

  it('accepts a 3000x3000 JPEG', async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'cover',
      name: 'cover.jpg',
      body: await makeImage({ width: 3000, height: 3000, format: 'jpeg' }),
    });
    expect(result.finished?.status).toBe(204);
  });

  it("refuses a 12 MB cover at creation with 'File size must be less than 10MB'", async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'cover',
      name: 'huge.png',
      body: Buffer.alloc(12 * 1024 * 1024),
    });
    expect(result.created.status).toBe(413);
    expect((await readJson(result.created)).error.message).toBe(BUILDER_MESSAGES.coverArtSize);
  });

  it('deleting a checked cover removes it from storage too', async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'cover',
      name: 'gone.png',
      body: await validCover(),
    });
    const upload = await row(result.id as string);
    const deleted = await system.request(`/api/uploads/${result.id}`, {
      method: 'DELETE',
      cookie,
      headers: { 'Tus-Resumable': '1.0.0' },
    });
    expect(deleted.status).toBe(204);
    expect(fs.existsSync(stored(upload?.storageKey as string))).toBe(false);
    expect(await row(result.id as string)).toBeUndefined();
  });
});

describe('who may upload', () => {
  it('refuses a banned user with 403 and the reason', async () => {
    const banned = await system.signedInUser({ banReason: 'Copyright strikes' });
    const result = await tusUpload(system, banned.cookie, { kind: 'audio', name: 'a.wav', body: shortWav() });
    expect(result.created.status).toBe(403);
    expect(await readJson(result.created)).toEqual({
      error: {
        code: 'banned',
        message: 'Your account has been banned from uploading music. Reason: Copyright strikes',
      },
    });
  });

  it('refuses a user without a subscription (402) and nobody signed in (401)', async () => {
    const lapsed = await system.signedInUser({ subscription: 'inactive' });
    expect(
      (await tusUpload(system, lapsed.cookie, { kind: 'audio', name: 'a.wav', body: shortWav() })).created
        .status,
    ).toBe(402);
    expect(
      (await tusUpload(system, '', { kind: 'audio', name: 'a.wav', body: shortWav() })).created.status,
    ).toBe(401);
  });

  it('refuses a request without a kind', async () => {
    const response = await system.request('/api/uploads', {
      method: 'POST',
      cookie,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '10',
        'Upload-Metadata': `filename ${Buffer.from('a.wav').toString('base64')}`,
      },
    });
    expect(response.status).toBe(400);
  });
});
