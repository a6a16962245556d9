/**
 * An uploaded report is hashed and its lines counted while it streams in, and read in full once after
 * that (issue 36, records 251 and 278), on the test database (PGlite, or PostgreSQL with DATABASE_URL): the
 * 202 finds the import with its hash and line count before its job runs, the upload is moved into storage
 * without a copy left behind, the queue's checks (format, a DSR's message) read nothing of the stored file
 * (the head was kept as it streamed in), and the job parses the stored file where it is, in one read.
 * Every read stream opened on a file in storage is recorded (node:fs is wrapped): after the upload there is
 * exactly one, and it reads the whole file.
 */
import { createHash } from 'node:crypto';
import type * as Fs from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { royaltyImports } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { basicAudioDsr, distrokidStatement } from '../../test-support/report-files';
import { runImport } from './service';
import { readLimitsOf } from './source';

/** Each read stream opened on a file: its path, the file's size then, and the bytes it read by its close. */
const reads = vi.hoisted(() => ({ streams: [] as { path: string; size: number; bytes: number }[] }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof Fs>();
  const createReadStream = ((file: Fs.PathLike, options?: Parameters<typeof Fs.createReadStream>[1]) => {
    const stream = actual.createReadStream(file, options);
    const entry = {
      path: String(file),
      size: actual.statSync(file, { throwIfNoEntry: false })?.size ?? -1,
      bytes: 0,
    };
    reads.streams.push(entry);
    stream.on('close', () => {
      entry.bytes = stream.bytesRead;
    });
    return stream;
  }) as typeof Fs.createReadStream;
  return { ...actual, createReadStream, default: { ...actual, createReadStream } };
});

const ISRC = 'QZUPL2500001';
const distrokid = (lines: number, from = 10) => distrokidStatement(ISRC, lines, from);
const dsr = (messageId: string) => basicAudioDsr(ISRC, messageId);

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
beforeEach(() => {
  reads.streams.length = 0;
});

const rowOf = async (id: string) =>
  (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0];

const upload = (body: string | Buffer, filename: string) =>
  system.request(`/api/admin/royalties/imports?filename=${filename}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });

/** Read streams opened on a file in storage (the upload's scratch file or the stored report) so far. */
const storageReads = () =>
  reads.streams.filter((read) => read.path.startsWith(path.join(system.config.dataDir, 'storage')));

/** Uploads a report, runs its job and answers the reads of storage after the upload, with the import. */
async function uploadAndStage(body: string | Buffer, filename: string) {
  const response = await upload(body, filename);
  expect(response.status).toBe(202);
  const { id } = (await readJson(response)) as { id: string };
  const atQueue = storageReads().length;
  await runImport(system, id, readLimitsOf(system.config));
  return { id, atQueue, all: storageReads(), staged: await rowOf(id) };
}

describe('an uploaded report', () => {
  it('is hashed and counted as it arrives, and its job parses the stored file without copying it', async () => {
    const body = distrokid(40);
    const response = await upload(body, 'reads.tsv');
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

  it.each([
    ['a statement', 'reads-once.tsv', () => distrokid(30, 50), 31],
    ['a gzip statement', 'reads-once.tsv.gz', () => gzipSync(distrokid(25, 60)), 26],
    ['a DSR', 'reads-once.dsr', () => dsr('READS-ONCE-1'), 17],
  ])(
    'is read in full once after it arrives (%s): the queue reads none of it, the job one stream',
    async (_kind, name, make, lines) => {
      const body = make();
      const { atQueue, all, staged } = await uploadAndStage(body, name);
      expect(staged).toMatchObject({ status: 'staged', phase: 'ready', linesTotal: lines, linesRead: lines });
      expect(atQueue).toBe(0);
      expect(all).toHaveLength(1);
      expect(all[0]?.bytes).toBe(Buffer.byteLength(body));
      expect(all[0]?.size).toBe(Buffer.byteLength(body));
    },
  );

  it('refuses a DSR message already imported at the upload, from the head it kept, reading nothing stored', async () => {
    const first = await uploadAndStage(dsr('READS-AGAIN-1'), 'first.dsr');
    expect(first.staged?.status).toBe('staged');
    reads.streams.length = 0;
    // Another file (a different hash) with the same MessageId, sender and file number.
    const response = await upload(`${dsr('READS-AGAIN-1')}\n`, 'again.dsr');
    expect(response.status).toBe(409);
    expect(await readJson(response)).toMatchObject({ error: { code: 'already_imported' } });
    expect(storageReads()).toEqual([]);
  });
});
