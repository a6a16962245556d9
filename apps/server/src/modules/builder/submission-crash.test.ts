/**
 * Crash-safe submission (issue 13, point 3; decision 084): a crash in the middle of copying the audio
 * into storage never wedges the submission. A retry with the same idempotency key completes it, and
 * the clean-up removes what the crash left behind (a half-written `.tmp`, staged copies).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { releases, tracks, uploads } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import {
  basicSubmission,
  tusUpload,
  uploadReleaseFiles,
  validCover,
} from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { cleanUpStaleUploads } from './cleanup';
import { releaseIdFor } from './service';
import { finalizeUpload } from './uploads';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem({ UPLOAD_STALE_HOURS: '24' });
});
afterAll(async () => system.close());

const storageRoot = () => path.join(system.dataDir, 'storage');
const staged = (id: string) => path.join(system.dataDir, 'uploads-staging', id);
const later = (hours: number) => new Date(Date.now() + hours * 3600 * 1000);

function temporaryFiles(): string[] {
  if (!fs.existsSync(storageRoot())) return [];
  return (fs.readdirSync(storageRoot(), { recursive: true }) as string[]).filter((name) =>
    name.endsWith('.tmp'),
  );
}

/**
 * Storage that "dies" in the middle of copying the `crashOnCopy`-th file: half of the bytes reach a
 * temp file beside the key, exactly as an interrupted copy leaves them, and then the process is gone
 * (the error skips every clean-up the real code would do).
 */
function crashingStorage(real: Storage, crashOnCopy: number): Storage {
  let copies = 0;
  return {
    ...real,
    async copyFile(key, localPath, contentType) {
      copies += 1;
      if (copies < crashOnCopy) return real.copyFile(key, localPath, contentType);
      const bytes = fs.readFileSync(localPath);
      const target = path.join(storageRoot(), key);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(`${target}.${randomUUID()}.tmp`, bytes.subarray(0, Math.floor(bytes.length / 2)));
      throw new Error('simulated crash in the middle of a copy');
    },
  };
}

const submitWith = (app: ReturnType<typeof createApp>, cookie: string, body: unknown) =>
  app.request('/api/builder/releases', {
    method: 'POST',
    headers: { origin: system.config.appUrl, cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a crash while the submission copies audio into storage', () => {
  it('leaves no release, and a retry with the same idempotency key completes it', async () => {
    const artist = await system.signedInUser({ artistName: 'Crash Artist' });
    const files = await uploadReleaseFiles(system, artist.cookie, 2);
    const body = basicSubmission(files, { artistName: 'Crash Artist' });

    // The first attempt dies while copying the second WAV (the first is already in storage and claimed).
    const crashing = createApp({ ...system, storage: crashingStorage(system.storage, 2) });
    const crashed = await submitWith(crashing, artist.cookie, body);
    expect(crashed.status).toBe(500);
    const releaseId = releaseIdFor(artist.userId, body.idempotencyKey);
    expect(await system.db.select().from(releases).where(eq(releases.id, releaseId))).toHaveLength(0);
    expect(temporaryFiles()).toHaveLength(1);
    // Nothing was consumed and the staged files are all still there.
    for (const id of files.audioIds) {
      const [row] = await system.db.select().from(uploads).where(eq(uploads.id, id));
      expect(row?.status).toBe('checked');
      expect(fs.existsSync(staged(id))).toBe(true);
    }

    // The retry (same key, the ordinary storage) answers at once with the release.
    const started = performance.now();
    const retried = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: artist.cookie,
      json: body,
    });
    expect(retried.status, await retried.clone().text()).toBe(201);
    expect(performance.now() - started).toBeLessThan(10_000);
    const answer = await readJson(retried);
    expect(answer.release.id).toBe(releaseId);

    const trackRows = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    expect(trackRows).toHaveLength(2);
    for (const track of trackRows) {
      expect(await system.storage.sizeOf(track.fileKey)).toBe(track.fileSizeBytes);
    }
    for (const id of files.audioIds) {
      const [row] = await system.db.select().from(uploads).where(eq(uploads.id, id));
      expect(row?.status).toBe('consumed');
      // Staging is emptied once the release is committed.
      expect(fs.existsSync(staged(id))).toBe(false);
    }
    // A second retry is a repeat, not a second release.
    const again = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: artist.cookie,
      json: body,
    });
    expect(again.status).toBe(200);
    expect((await readJson(again)).isRepeat).toBe(true);

    // The half-written temp file stays until it is stale, then the clean-up job removes it.
    await cleanUpStaleUploads(system, later(1));
    expect(temporaryFiles()).toHaveLength(1);
    await cleanUpStaleUploads(system, later(25));
    expect(temporaryFiles()).toHaveLength(0);
    for (const track of trackRows) expect(await system.storage.exists(track.fileKey)).toBe(true);
  }, 60_000);

  it('recovers a file claimed by an attempt that died before its copy (the old wedge)', async () => {
    const artist = await system.signedInUser({ artistName: 'Wedge Artist' });
    const files = await uploadReleaseFiles(system, artist.cookie, 1);
    const body = basicSubmission(files, { artistName: 'Wedge Artist' });
    const releaseId = releaseIdFor(artist.userId, body.idempotencyKey);
    // What a crash between the claim and the copy leaves: the key recorded, nothing in storage.
    const key = `${artist.userId}/${releaseId}/Track_1.wav`;
    await system.db
      .update(uploads)
      .set({ storageKey: key })
      .where(eq(uploads.id, files.audioIds[0] as string));
    expect(await system.storage.exists(key)).toBe(false);

    const started = performance.now();
    const retried = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: artist.cookie,
      json: body,
    });
    // Before: every retry waited 30 s and answered 409.
    expect(retried.status, await retried.clone().text()).toBe(201);
    expect(performance.now() - started).toBeLessThan(10_000);
    const [track] = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    expect(track?.fileKey).toBe(key);
    expect(await system.storage.sizeOf(key)).toBe(track?.fileSizeBytes);
  }, 60_000);

  it('the clean-up removes staged audio a crash left after the release was committed', async () => {
    const artist = await system.signedInUser({ artistName: 'Late Crash' });
    const files = await uploadReleaseFiles(system, artist.cookie, 1);
    const audioId = files.audioIds[0] as string;
    const bytes = fs.readFileSync(staged(audioId));
    const submitted = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: artist.cookie,
      json: basicSubmission(files, { artistName: 'Late Crash' }),
    });
    expect(submitted.status).toBe(201);
    // As if the process died right after the commit, before removing the staged copy.
    fs.writeFileSync(staged(audioId), bytes);
    await cleanUpStaleUploads(system, later(25));
    expect(fs.existsSync(staged(audioId))).toBe(false);
    const [row] = await system.db.select().from(uploads).where(eq(uploads.id, audioId));
    expect(row?.status).toBe('consumed');
    expect(await system.storage.exists(row?.storageKey as string)).toBe(true);
  }, 60_000);

  it('a crash after a checked cover is copied but before it is recorded is finished by the next check', async () => {
    const artist = await system.signedInUser({ artistName: 'Cover Crash' });
    const body = await validCover();
    // Every byte but the last through tus, then the last one straight to staging: a complete, unchecked upload.
    const partial = await tusUpload(system, artist.cookie, {
      kind: 'cover',
      name: 'cover.png',
      body,
      stopAfterBytes: body.length - 1,
    });
    const id = partial.id as string;
    fs.appendFileSync(staged(id), body.subarray(body.length - 1));

    const dying: Storage = {
      ...system.storage,
      async copyFile(key, localPath, contentType) {
        await system.storage.copyFile(key, localPath, contentType);
        throw new Error('simulated crash after the copy');
      },
    };
    await expect(finalizeUpload({ ...system, storage: dying }, id)).rejects.toThrow('simulated crash');
    const [before] = await system.db.select().from(uploads).where(eq(uploads.id, id));
    expect(before?.status).toBe('uploading');
    expect(fs.existsSync(staged(id))).toBe(true);

    // What a draft reload does: check it again; it completes with the same keys.
    const after = await finalizeUpload(system, id);
    expect(after).toMatchObject({ status: 'checked' });
    expect(await system.storage.sizeOf(after?.storageKey as string)).toBe(body.length);
    expect(fs.existsSync(staged(id))).toBe(false);
  }, 60_000);
});
