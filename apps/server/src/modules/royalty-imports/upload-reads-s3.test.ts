/**
 * With S3 storage, an uploaded report is read in full once after it arrives (issue 36, record 310), on the
 * test database (PGlite, or PostgreSQL with DATABASE_URL) and s3rver: the upload streams into the bucket
 * as it is measured (no file on this machine), the queue's checks read nothing of the object, and the job
 * parses the object as it downloads, in a worker thread too (the stream is transferred to it): one GET
 * that reads all its bytes, no local file read, no temporary file left. A refused upload leaves no object.
 */
import { createHash } from 'node:crypto';
import type * as Fs from 'node:fs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import type * as WorkerThreads from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import type * as Royalties from '@tunedrop/shared/schemas/royalties';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { royaltyImports } from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { basicAudioDsr, distrokidStatement } from '../../test-support/report-files';
import { type S3TestServer, startS3TestServer } from '../../test-support/s3-server';
import { runImport } from './service';
import { readLimitsOf } from './source';

const MiB = 1024 * 1024;

/** Read streams opened on local files, and the worker threads started (the parse's, record 207). */
const seen = vi.hoisted(() => ({ reads: [] as string[], workers: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof Fs>();
  const createReadStream = ((file: Fs.PathLike, options?: Parameters<typeof Fs.createReadStream>[1]) => {
    seen.reads.push(String(file));
    return actual.createReadStream(file, options);
  }) as typeof Fs.createReadStream;
  return { ...actual, createReadStream, default: { ...actual, createReadStream } };
});
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerThreads>();
  class Worker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      seen.workers += 1;
    }
  }
  return { ...actual, Worker, default: { ...actual, Worker } };
});
// A bound an upload can pass in a test: 17 MiB, just over one 16 MiB part of the multipart upload.
vi.mock('@tunedrop/shared/schemas/royalties', async (importOriginal) => {
  const actual = await importOriginal<typeof Royalties>();
  return { ...actual, ROYALTY_LIMITS: { ...actual.ROYALTY_LIMITS, maxUploadBytes: 17 * 1024 * 1024 } };
});

const ISRC = 'QZUPL2500002';
const distrokid = (lines: number, from = 10) => distrokidStatement(ISRC, lines, from);
const dsr = (messageId: string) => basicAudioDsr(ISRC, messageId);

const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-s3-reads-'));
/** The process's temporary folder for this file: nothing may be left in it. */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-s3-reads-tmp-'));
const previousTmp = process.env.TMPDIR;
let s3: S3TestServer;
let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;

beforeAll(async () => {
  s3 = await startS3TestServer({ directory: s3Dir });
  system = await createTestSystem({ ...s3.env, ROYALTY_MAX_LINE_BYTES: String(4096) });
  expect(system.storage.kind).toBe('s3');
  people = await staff(system);
  const artist = await system.signedInUser({ plan: 'basic' });
  await createTestRelease(system, artist.userId, { status: 'live', isrcs: [ISRC] });
  process.env.TMPDIR = tmp;
});
afterAll(async () => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  await system?.close();
  await s3?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  seen.reads.length = 0;
  seen.workers = 0;
  s3.requests.length = 0;
});

type RequestBody = NonNullable<RequestInit['body']>;

const upload = (body: RequestBody, filename: string) =>
  system.request(`/api/admin/royalties/imports?filename=${filename}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit & { cookie: string });

/** Files left anywhere under a folder. */
const filesUnder = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    // tsx (the worker's TypeScript under Vitest) keeps its compile cache there.
    .filter((entry) => entry.isFile() && !path.relative(dir, entry.parentPath).startsWith('tsx-'));

/** Read streams opened on local files, less the s3rver's own (it keeps the bucket on disk). */
const localReads = () => seen.reads.filter((file) => !file.startsWith(s3Dir));
const reportKeys = async () => (await s3.listKeys()).filter((key) => key.startsWith('royalty-imports/'));
const importCount = async () =>
  Number((await rows<{ n: number }>(system.db, sql`select count(*) as n from royalty_imports`))[0]?.n);

/** The bucket's storage, counting the bytes each get() hands out as they are read. */
function countingStorage() {
  const gets: { key: string; bytes: number }[] = [];
  const storage: Storage = {
    ...system.storage,
    async get(key) {
      const object = await system.storage.get(key);
      const entry = { key, bytes: 0 };
      gets.push(entry);
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          entry.bytes += chunk.length;
          callback(null, chunk);
        },
      });
      object.body.on('error', (error) => counter.destroy(error));
      return { ...object, body: object.body.pipe(counter) };
    },
  };
  return { gets, storage };
}

/** Uploads a report and runs its job; answers what was read of this machine and of the bucket. */
async function uploadAndStage(body: string | Buffer, filename: string, workerMinLines?: number) {
  const response = await upload(body, filename);
  expect(response.status).toBe(202);
  const { id } = (await readJson(response)) as { id: string };
  const key = `royalty-imports/${id}.report`;
  expect(await reportKeys()).toEqual([key]);
  const queued = (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0];
  const atQueue = { reads: localReads(), gets: s3.requests.filter((request) => request.method === 'GET') };
  const { gets, storage } = countingStorage();
  const limits = {
    ...readLimitsOf(system.config),
    ...(workerMinLines ? { stageWorkerMinLines: workerMinLines } : {}),
  };
  await runImport({ db: system.db, storage }, id, limits);
  const staged = (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0];
  const objectGets = s3.requests.filter((request) => request.method === 'GET' && request.path.endsWith(key));
  return { id, queued, atQueue, gets, objectGets, reads: localReads(), staged };
}

describe('with S3 storage, an uploaded report', () => {
  it.each([
    ['a statement', 'reads-s3.tsv', () => distrokid(30, 50), 31, undefined],
    ['a gzip statement', 'reads-s3.tsv.gz', () => gzipSync(distrokid(25, 60)), 26, undefined],
    ['a DSR', 'reads-s3.dsr', () => dsr('READS-S3-1'), 17, undefined],
    ['a statement parsed in a worker thread', 'reads-s3-worker.tsv', () => distrokid(60, 20), 61, 20],
    [
      'a gzip statement parsed in a worker thread',
      'reads-s3-worker.tsv.gz',
      () => gzipSync(distrokid(45, 20)),
      46,
      20,
    ],
  ])(
    'streams into the bucket and is read once, as it downloads (%s)',
    async (_kind, name, make, lines, workerMinLines) => {
      const body = make();
      const result = await uploadAndStage(body, name, workerMinLines);
      // Hashed and counted as it streamed into the bucket; the queue read nothing, here or there.
      expect(result.queued?.fileSha256).toBe(createHash('sha256').update(body).digest('hex'));
      expect(result.queued?.linesTotal).toBe(lines);
      expect(result.atQueue).toEqual({ reads: [], gets: [] });
      expect(result.staged).toMatchObject({
        status: 'staged',
        phase: 'ready',
        linesTotal: lines,
        linesRead: lines,
      });
      expect(result.staged?.fileKey).toBeNull();
      // One GET of the object, all its bytes read from it; no file of this machine read, none left.
      expect(result.gets).toEqual([
        { key: `royalty-imports/${result.id}.report`, bytes: Buffer.byteLength(body) },
      ]);
      expect(result.objectGets).toHaveLength(1);
      expect(result.reads).toEqual([]);
      expect(seen.workers).toBe(workerMinLines ? 1 : 0);
      expect(filesUnder(tmp)).toEqual([]);
      expect(fs.existsSync(path.join(system.config.dataDir, 'storage'))).toBe(false);
      expect(await reportKeys()).toEqual([]);
    },
  );

  it('resumes a run killed after a batch: the retry downloads again and skips the staged lines', async () => {
    const body = distrokid(40, 30);
    const response = await upload(body, 'resume-s3.tsv');
    const { id } = (await readJson(response)) as { id: string };
    const { gets, storage } = countingStorage();
    const limits = readLimitsOf(system.config);
    await expect(
      runImport({ db: system.db, storage }, id, limits, undefined, {
        atStep: (step) => {
          if (step === 'read') throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    await runImport({ db: system.db, storage }, id, limits);
    const staged = (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0];
    expect(staged).toMatchObject({ status: 'staged', linesRead: 41, lineCount: 40 });
    expect(gets).toHaveLength(2);
    expect(seen.reads).toEqual([]);
    expect(await reportKeys()).toEqual([]);
  });

  it('refused at the upload, leaves no object in the bucket and no import', async () => {
    const before = await importCount();
    const first = await uploadAndStage(dsr('READS-S3-AGAIN'), 'first.dsr');
    expect(first.staged?.status).toBe('staged');
    const plain = distrokid(5, 70);
    expect((await uploadAndStage(plain, 'same.tsv')).staged?.status).toBe('staged');
    const refusals: [string, RequestBody, string, number, string][] = [
      ['the same file', plain, 'same-again.tsv', 409, 'already_imported'],
      ['a DSR message already imported', `${dsr('READS-S3-AGAIN')}\n`, 'again.dsr', 409, 'already_imported'],
      ['an unknown format', 'a,b,c\n1,2,3\n', 'unknown.csv', 422, 'unsupported_format'],
      ['an empty file', '', 'empty.tsv', 422, 'empty_file'],
      ['a first line over its bound', `${'x'.repeat(5000)}\n`, 'long.tsv', 422, 'unreadable_file'],
    ];
    for (const [kind, body, name, status, code] of refusals) {
      const response = await upload(body, name);
      expect({ kind, status: response.status }).toEqual({ kind, status });
      expect(await readJson(response)).toMatchObject({ error: { code } });
      expect({ kind, keys: await reportKeys() }).toEqual({ kind, keys: [] });
    }
    const unknownPreset = await system.request(
      '/api/admin/royalties/imports?filename=preset.tsv&preset=00000000-0000-4000-8000-000000000000',
      { method: 'POST', body: distrokid(5, 80), cookie: people.admin.cookie },
    );
    expect(unknownPreset.status).toBe(422);
    expect(await reportKeys()).toEqual([]);
    expect(await importCount()).toBe(before + 2);
    expect(await s3.openMultipartUploads()).toBe(0);
    expect(filesUnder(tmp)).toEqual([]);
  });

  it('refuses a body over the upload bound with 413 mid-stream, aborting its multipart upload', async () => {
    const before = await importCount();
    let sent = 0;
    const chunk = Buffer.from(`${distrokid(1)}\n`.repeat(Math.ceil(MiB / 200))).subarray(0, MiB);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 18 MiB in 1 MiB pieces: one 16 MiB part is sent before the bound is passed.
        if (sent >= 18) controller.close();
        else controller.enqueue(chunk);
        sent += 1;
      },
    });
    const response = await upload(body, 'too-large.tsv');
    expect(response.status).toBe(413);
    expect(await readJson(response)).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(
      s3.requests.some((request) => request.method === 'POST' && request.query.includes('uploads')),
    ).toBe(true);
    expect(await reportKeys()).toEqual([]);
    expect(await s3.openMultipartUploads()).toBe(0);
    expect(await importCount()).toBe(before);
    expect(filesUnder(tmp)).toEqual([]);
  });
});
