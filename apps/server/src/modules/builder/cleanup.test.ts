/** Abandoned uploads are removed after UPLOAD_STALE_HOURS; submitted files and a draft's files stay. */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../db/schema';
import {
  basicSubmission,
  shortWav,
  tusUpload,
  uploadReleaseFiles,
  validCover,
} from '../../test-support/builder-fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { cleanUpStaleUploads } from './cleanup';
import { saveDraft } from './service';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem({ UPLOAD_STALE_HOURS: '24' });
});
afterAll(async () => system.close());

const row = async (id: string) => (await system.db.select().from(uploads).where(eq(uploads.id, id)))[0];
const staged = (id: string) => path.join(system.dataDir, 'uploads-staging', id);
const stored = (key: string) => path.join(system.dataDir, 'storage', key);
const later = (hours: number) => new Date(Date.now() + hours * 3600 * 1000);

describe('cleanUpStaleUploads', () => {
  it('removes unfinished, refused and unsubmitted uploads older than the limit, with their files', async () => {
    const user = await system.signedInUser({ artistName: 'Test Artist' });
    const partial = await tusUpload(system, user.cookie, {
      kind: 'audio',
      name: 'half.wav',
      body: shortWav(),
      stopAfterBytes: 500,
    });
    const checked = await tusUpload(system, user.cookie, {
      kind: 'audio',
      name: 'done.wav',
      body: shortWav(),
    });
    const cover = await tusUpload(system, user.cookie, {
      kind: 'cover',
      name: 'c.png',
      body: await validCover(),
    });
    const coverRow = await row(cover.id as string);
    const refused = await tusUpload(system, user.cookie, {
      kind: 'audio',
      name: 'bad.wav',
      body: Buffer.from('text'),
    });
    const ids = [partial.id, checked.id, cover.id, refused.id] as string[];

    // Not yet stale: nothing happens.
    expect(await cleanUpStaleUploads(system, later(23))).toBe(0);
    expect(await row(partial.id as string)).toBeDefined();

    expect(await cleanUpStaleUploads(system, later(25))).toBeGreaterThanOrEqual(4);
    for (const id of ids) {
      expect(await row(id)).toBeUndefined();
      expect(fs.existsSync(staged(id))).toBe(false);
      expect(fs.existsSync(`${staged(id)}.json`)).toBe(false);
    }
    expect(fs.existsSync(stored(coverRow?.storageKey as string))).toBe(false);
    expect(fs.existsSync(stored(coverRow?.thumbSmallKey as string))).toBe(false);
  });

  it('keeps submitted files and the files a saved draft names', async () => {
    const user = await system.signedInUser({ artistName: 'Test Artist' });
    const files = await uploadReleaseFiles(system, user.cookie, 1);
    const submitted = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: user.cookie,
      json: basicSubmission(files),
    });
    expect(submitted.status).toBe(201);
    const kept = await tusUpload(system, user.cookie, { kind: 'audio', name: 'draft.wav', body: shortWav() });
    const other = await tusUpload(system, user.cookie, { kind: 'audio', name: 'old.wav', body: shortWav() });
    await saveDraft(system.db, user.userId, {
      version: 1,
      step: 2,
      idempotencyKey: crypto.randomUUID(),
      release: {
        title: '',
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
          id: 't',
          title: '',
          file: { uploadId: kept.id as string, name: 'draft.wav', sizeBytes: 1 },
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
    });
    await cleanUpStaleUploads(system, later(48));
    expect((await row(files.coverId))?.status).toBe('consumed');
    expect((await row(files.audioIds[0] as string))?.status).toBe('consumed');
    expect((await row(kept.id as string))?.status).toBe('checked');
    expect(fs.existsSync(staged(kept.id as string))).toBe(true);
    expect(await row(other.id as string)).toBeUndefined();
  });

  it('removes staged files that have no row once they are old', async () => {
    const orphan = path.join(system.dataDir, 'uploads-staging', 'f'.repeat(32));
    fs.writeFileSync(orphan, 'left over');
    fs.writeFileSync(`${orphan}.json`, '{}');
    await cleanUpStaleUploads(system, later(1));
    expect(fs.existsSync(orphan)).toBe(true);
    await cleanUpStaleUploads(system, later(25));
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(`${orphan}.json`)).toBe(false);
  });
});
