/**
 * An uploaded report is hashed and its lines counted while it streams in, and read once after that
 * (issue 36, record 251), on the test database (PGlite, or PostgreSQL with DATABASE_URL): the 202 finds
 * the import with its hash and line count before its job runs, the upload is moved into storage without a
 * copy left behind, and the job parses the stored file where it is, never copying it out of storage.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { royaltyImports } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { runImport } from './service';
import { readLimitsOf } from './source';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const ISRC = 'QZUPL2500001';
const sale = (amount: string) =>
  `2025-05-02\t2025-03\tSpotify\tReads\tSong\t${ISRC}\t\t10\t100\tSong\tUS\t0\t${amount}`;

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  const artist = await system.signedInUser({ plan: 'basic' });
  await createTestRelease(system, artist.userId, { status: 'live', isrcs: [ISRC] });
});
afterAll(async () => {
  await system.close();
});

const rowOf = async (id: string) =>
  (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0];

describe('an uploaded report', () => {
  it('is hashed and counted as it arrives, and its job parses the stored file without copying it', async () => {
    const body = [HEADER, ...Array.from({ length: 40 }, (_, i) => sale(`0.${String(i + 10)}`))].join('\r\n');
    const response = await system.request('/api/admin/royalties/imports?filename=reads.tsv', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: people.admin.cookie,
    });
    expect(response.status).toBe(202);
    const { id } = (await readJson(response)) as { id: string };
    const queued = await rowOf(id);
    expect(queued?.phase).toBe('queued');
    expect(queued?.linesTotal).toBe(41);
    expect(queued?.fileSha256).toBe(createHash('sha256').update(body).digest('hex'));
    // Moved into storage by a rename: nothing is left where the upload was written.
    const scratch = path.join(system.config.dataDir, 'storage', '.scratch');
    expect(await readdir(scratch)).toEqual([]);

    const storage = {
      ...system.storage,
      get: () => Promise.reject(new Error('the stored report was copied out of storage')),
    };
    await runImport({ db: system.db, storage }, id, readLimitsOf(system.config));
    const staged = await rowOf(id);
    expect(staged).toMatchObject({ status: 'staged', phase: 'ready', linesTotal: 41, linesRead: 41 });
    expect(staged?.fileKey).toBeNull();
  });
});
