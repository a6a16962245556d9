/**
 * tus uploads with S3 configured (decision 157): straight into the bucket as a multipart upload,
 * checked from the bucket with ranged reads, nothing on local disk; on PostgreSQL any instance takes
 * any PATCH (advisory locks, decision 158), and an instance dying mid-upload leaves it to another.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import type { Config } from '../../config';
import { releases, tracks, uploads } from '../../db/schema';
import { createLogger } from '../../lib/logger';
import { startSystem } from '../../server';
import { basicSubmission, chunk, riff, tusPatch, validCover } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { makeWav } from '../../test-support/media';
import { type S3TestServer, startS3TestServer } from '../../test-support/s3-server';
import { cleanUpStaleUploads } from './cleanup';
import { stagingFor } from './staging';

const MiB = 1024 * 1024;
const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');
const md5 = (body: Buffer) => createHash('md5').update(body).digest('hex');

let s3: S3TestServer;
let system: TestSystem;
let cookie: string;
let userId: string;
/** The process's temp folder for this file: @tus/s3-store buffers one part of a PATCH there. */
let tmp: string;
const previousTmp = process.env.TMPDIR;

beforeAll(async () => {
  s3 = await startS3TestServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-s3-tmp-'));
  system = await createTestSystem(s3.env);
  ({ cookie, userId } = await system.signedInUser({ plan: 'basic' }));
  process.env.TMPDIR = tmp;
});
afterAll(async () => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  await system?.close();
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A 16-bit stereo WAV of about `mebibytes` MiB with a 100 KB LIST chunk between its format and its data. */
function bigWav(mebibytes: number): Buffer {
  const plain = makeWav({
    seconds: (mebibytes * MiB) / 176_400,
    sampleRate: 44_100,
    bitDepth: 16,
    channels: 2,
  });
  const info = Buffer.alloc(100_000, 0x41);
  return riff([
    chunk('fmt ', plain.subarray(20, 36)),
    chunk('LIST', info),
    chunk('data', plain.subarray(44)),
  ]);
}

type Instance = {
  name: string;
  config: Config;
  dataDir: string;
  request: (url: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
};

/** Another app instance on the same database and bucket: its own tus server, locker and data folder. */
async function startInstance(name: string): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tunedrop-instance-${name}-`));
  const config: Config = { ...system.config, DATA_DIR: dataDir, dataDir };
  const deps = await startSystem(config, createLogger('silent'), { runWorkers: false });
  const app = createApp(deps);
  let isClosed = false;
  return {
    name,
    config,
    dataDir,
    request(url, init = {}) {
      const headers = new Headers(init.headers);
      headers.set('origin', config.appUrl);
      headers.set('cookie', cookie);
      return Promise.resolve(app.request(url, { ...init, headers }));
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      await deps.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const tusHeaders = (offset: number) => ({
  'Tus-Resumable': '1.0.0',
  'Upload-Offset': String(offset),
  'Content-Type': 'application/offset+octet-stream',
});

async function createUpload(instance: Instance, body: Buffer, name = 'Long Mix.wav'): Promise<string> {
  const created = await instance.request('/api/uploads', {
    method: 'POST',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(body.length),
      'Upload-Metadata': `filename ${b64(name)},kind ${b64('audio')}`,
    },
  });
  expect(created.status).toBe(201);
  return created.headers.get('location') ?? '';
}

async function patch(instance: Instance, location: string, body: Buffer, offset: number) {
  return instance.request(location, { method: 'PATCH', headers: tusHeaders(offset), body });
}

async function headOffset(instance: Instance, location: string): Promise<number> {
  const head = await instance.request(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
  expect(head.status).toBe(200);
  return Number(head.headers.get('upload-offset'));
}

/** A request body that sends `bytes` in slices with a pause between them, then ends (or stalls). */
function trickle(bytes: Buffer, options: { sliceBytes: number; delayMs: number; stallAfter?: number }) {
  let sent = 0;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let markStalled: () => void = () => undefined;
  /** Settles when the reader has taken `stallAfter` bytes and asks for more, which never come. */
  const stalled = new Promise<void>((resolve) => {
    markStalled = resolve;
  });
  const stream = new ReadableStream<Uint8Array>({
    start(control) {
      controller = control;
    },
    async pull(control) {
      if (options.stallAfter !== undefined && sent >= options.stallAfter) {
        markStalled();
        await new Promise(() => undefined);
      }
      if (sent >= bytes.length) return control.close();
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      const end = Math.min(sent + options.sliceBytes, bytes.length);
      control.enqueue(bytes.subarray(sent, end));
      sent = end;
    },
  });
  return { stream, stalled, fail: () => controller.error(new Error('connection lost')) };
}

const objectBytes = (key: string) =>
  system.storage.get(key).then(async ({ body }) => {
    const parts: Buffer[] = [];
    for await (const part of body) parts.push(part as Buffer);
    return Buffer.concat(parts);
  });

/** Files left in a folder, recursively (none is the point). */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name))
    : [];

describe('uploads with S3 configured', () => {
  it('writes a WAV straight into the bucket, checks it with ranged reads and submits it byte-identical, with nothing on local disk', async () => {
    const body = bigWav(14);
    const first = s3.requests.length;
    const result = await tusPatch(
      system,
      cookie,
      await (async () => {
        const created = await system.request('/api/uploads', {
          method: 'POST',
          cookie,
          headers: {
            'Tus-Resumable': '1.0.0',
            'Upload-Length': String(body.length),
            'Upload-Metadata': `filename ${b64('Long Mix.wav')},kind ${b64('audio')}`,
          },
        });
        expect(created.status).toBe(201);
        return created.headers.get('location') ?? '';
      })(),
      body,
      0,
      3 * MiB,
    );
    expect(result.status).toBe(204);
    const [row] = await system.db.select().from(uploads).where(eq(uploads.userId, userId));
    expect(row).toMatchObject({
      status: 'checked',
      sizeBytes: body.length,
      details: { sampleRate: 44_100, bitDepth: 16, channels: 2 },
    });
    const id = row?.id as string;

    // The file is the bucket's object named by the upload id, assembled from the multipart upload.
    const requests = s3.requests.slice(first);
    expect(requests.some((r) => r.method === 'POST' && /(^|&)uploads(=|&|$)/.test(r.query))).toBe(true);
    expect(requests.filter((r) => r.method === 'PUT' && /partNumber=/.test(r.query)).length).toBe(3);
    expect(requests.some((r) => r.method === 'GET' && /uploadId=/.test(r.query))).toBe(true); // ListParts
    expect(md5(await objectBytes(id))).toBe(md5(body));
    // The WAV check read the header and walked past the 100 KB LIST chunk with two ranged GETs; the audio
    // analysis then read the samples once, 2 MiB per ranged GET (record 298).
    const reads = requests.filter(
      (r) => r.method === 'GET' && r.path === `/${s3.bucket}/${id}` && !r.query.includes('uploadId'),
    );
    expect(reads.length).toBe(2 + Math.ceil(Number(row?.details?.dataBytes) / (2 * MiB)));
    expect(reads.every((r) => r.range?.startsWith('bytes='))).toBe(true);

    const cover = await validCover();
    const coverLocation = await (async () => {
      const created = await system.request('/api/uploads', {
        method: 'POST',
        cookie,
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Length': String(cover.length),
          'Upload-Metadata': `filename ${b64('Cover.png')},kind ${b64('cover')}`,
        },
      });
      return created.headers.get('location') ?? '';
    })();
    expect((await tusPatch(system, cookie, coverLocation, cover, 0)).status).toBe(204);
    const coverId = coverLocation.split('/').pop() as string;

    const submitted = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie,
      json: basicSubmission({ coverId, audioIds: [id] }),
    });
    expect(submitted.status).toBe(201);
    const releaseId = (await readJson(submitted)).release.id as string;
    const [track] = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(md5(await objectBytes(track?.fileKey as string))).toBe(md5(body));
    expect(md5(await objectBytes(release?.coverArtKey as string))).toBe(md5(cover));

    // Staging objects are gone once the files are stored; no multipart upload is left open.
    const keys = await s3.listKeys();
    expect(keys.filter((key) => !key.includes('/'))).toEqual([]);
    expect(await s3.openMultipartUploads()).toBe(0);
    // Nothing was staged on this instance's disk, and no part buffer was left in the temp folder.
    expect(filesUnder(path.join(system.dataDir, 'uploads-staging'))).toEqual([]);
    expect(filesUnder(path.join(system.dataDir, 'storage'))).toEqual([]);
    expect(filesUnder(tmp)).toEqual([]);
  });

  it('answers HEAD with the bytes in the bucket after a dropped PATCH, and a discarded or abandoned upload leaves nothing there', async () => {
    const body = bigWav(7);
    const created = await system.request('/api/uploads', {
      method: 'POST',
      cookie,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(body.length),
        'Upload-Metadata': `filename ${b64('Dropped.wav')},kind ${b64('audio')}`,
      },
    });
    const location = created.headers.get('location') ?? '';
    const id = location.split('/').pop() as string;
    expect((await tusPatch(system, cookie, location, body, 0, 6 * MiB, 6 * MiB)).status).toBe(204);
    const head = await system.request(location, {
      method: 'HEAD',
      cookie,
      headers: { 'Tus-Resumable': '1.0.0' },
    });
    expect(head.headers.get('upload-offset')).toBe(String(6 * MiB));
    const info = await readJson(await system.request(`/api/builder/uploads/${id}`, { cookie }));
    expect(info).toMatchObject({ status: 'uploading', receivedBytes: 6 * MiB });

    const removed = await system.request(location, {
      method: 'DELETE',
      cookie,
      headers: { 'Tus-Resumable': '1.0.0' },
    });
    expect(removed.status).toBe(204);
    expect((await s3.listKeys()).filter((key) => key.startsWith(id))).toEqual([]);
    expect(await s3.openMultipartUploads()).toBe(0);

    // An abandoned upload (a whole part and a tail in the bucket) goes with its row at the clean-up.
    const abandoned = await system.request('/api/uploads', {
      method: 'POST',
      cookie,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(body.length),
        'Upload-Metadata': `filename ${b64('Abandoned.wav')},kind ${b64('audio')}`,
      },
    });
    const abandonedLocation = abandoned.headers.get('location') ?? '';
    const abandonedId = abandonedLocation.split('/').pop() as string;
    expect((await tusPatch(system, cookie, abandonedLocation, body, 0, 6 * MiB, 6.5 * MiB)).status).toBe(204);
    expect((await s3.listKeys()).filter((key) => key.startsWith(abandonedId))).toEqual([
      `${abandonedId}.info`,
      `${abandonedId}.part`,
    ]);
    expect(await s3.openMultipartUploads()).toBe(1);
    // An orphan: objects in the bucket whose row is gone (a removal that failed), found by listing the root.
    const orphan = await system.request('/api/uploads', {
      method: 'POST',
      cookie,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(body.length),
        'Upload-Metadata': `filename ${b64('Orphan.wav')},kind ${b64('audio')}`,
      },
    });
    const orphanLocation = orphan.headers.get('location') ?? '';
    const orphanId = orphanLocation.split('/').pop() as string;
    expect((await tusPatch(system, cookie, orphanLocation, body, 0, MiB, MiB)).status).toBe(204);
    await system.db.delete(uploads).where(eq(uploads.id, orphanId));
    // Fresh staged objects are left alone (their upload may still be going on elsewhere).
    await cleanUpStaleUploads(system);
    expect((await s3.listKeys()).filter((key) => key.startsWith(orphanId))).toEqual([
      `${orphanId}.info`,
      `${orphanId}.part`,
    ]);

    const later = new Date(Date.now() + (system.config.UPLOAD_STALE_HOURS + 1) * 3600 * 1000);
    expect(await cleanUpStaleUploads(system, later)).toBeGreaterThanOrEqual(2);
    expect((await system.db.select().from(uploads).where(eq(uploads.id, abandonedId))).length).toBe(0);
    expect((await s3.listKeys()).filter((key) => !key.includes('/'))).toEqual([]);
    expect(await s3.openMultipartUploads()).toBe(0);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('two instances on one PostgreSQL database and bucket', () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    a = await startInstance('a');
    b = await startInstance('b');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('resumes an upload whose PATCHes alternate between them, and finishes it on one when the other dies mid-PATCH', async () => {
    const body = bigWav(20);
    const location = await createUpload(a, body);
    const id = location.split('/').pop() as string;
    const slice = 3 * MiB;
    let offset = 0;
    // Four PATCHes, taking turns: each instance joins the tail the other left in the bucket.
    for (const instance of [a, b, a, b]) {
      const response = await patch(instance, location, body.subarray(offset, offset + slice), offset);
      expect(response.status).toBe(204);
      offset = Number(response.headers.get('upload-offset'));
      expect(await headOffset(instance === a ? b : a, location)).toBe(offset);
    }
    expect(offset).toBe(12 * MiB);

    // Instance a dies in the middle of the next PATCH (after 1 MiB of it), holding the upload's lock.
    let writing!: () => void;
    const isWriting = new Promise<void>((resolve) => {
      writing = resolve;
    });
    const datastore = stagingFor(a.config).datastore;
    const write = datastore.write.bind(datastore);
    datastore.write = (...args) => {
      writing();
      return write(...args);
    };
    const stalled = trickle(body.subarray(offset, offset + slice), {
      sliceBytes: 256 * 1024,
      delayMs: 5,
      stallAfter: MiB,
    });
    const dying = a
      .request(location, {
        method: 'PATCH',
        headers: tusHeaders(offset),
        body: stalled.stream,
        duplex: 'half',
      } as RequestInit)
      .catch(() => null);
    await isWriting;
    await stalled.stalled;
    await a.close();

    // The other instance takes over: what a wrote of its last PATCH never reached the bucket.
    expect(await headOffset(b, location)).toBe(offset);
    const rest = await tusPatchOn(b, location, body, offset, slice);
    expect(rest.status).toBe(204);
    stalled.fail();
    await dying;

    const [row] = await system.db.select().from(uploads).where(eq(uploads.id, id));
    expect(row).toMatchObject({ status: 'checked', sizeBytes: body.length });
    expect(md5(await objectBytes(id))).toBe(md5(body));
    expect(filesUnder(path.join(b.dataDir, 'uploads-staging'))).toEqual([]);
  });

  it('never lets two PATCHes of one upload write at once, one on each instance', async () => {
    const c = await startInstance('c');
    try {
      const body = bigWav(6);
      const location = await createUpload(b, body);
      let active = 0;
      let maxActive = 0;
      let writing: () => void = () => undefined;
      const isWriting = new Promise<void>((resolve) => {
        writing = resolve;
      });
      for (const instance of [b, c]) {
        const datastore = stagingFor(instance.config).datastore;
        const write = datastore.write.bind(datastore);
        datastore.write = async (...args) => {
          writing();
          active += 1;
          maxActive = Math.max(maxActive, active);
          try {
            return await write(...args);
          } finally {
            active -= 1;
          }
        };
      }
      const first = body.subarray(0, 2 * MiB);
      const send = (instance: Instance) =>
        instance.request(location, {
          method: 'PATCH',
          headers: tusHeaders(0),
          body: trickle(first, { sliceBytes: 128 * 1024, delayMs: 25 }).stream,
          duplex: 'half',
        } as RequestInit);
      const onB = send(b);
      // c's PATCH comes while b's is writing (b holds the upload's lock).
      await isWriting;
      const onC = send(c);
      const statuses = (await Promise.all([onB, onC])).map((response) => response.status);
      // One wrote the bytes; the other waited for the lock, then found the offset moved.
      expect(statuses.sort()).toEqual([204, 409]);
      expect(maxActive).toBe(1);
      expect(await headOffset(c, location)).toBe(2 * MiB);

      const rest = await tusPatchOn(c, location, body, 2 * MiB, 3 * MiB);
      expect(rest.status).toBe(204);
      expect(md5(await objectBytes(location.split('/').pop() as string))).toBe(md5(body));
    } finally {
      await c.close();
    }
  });
});

async function tusPatchOn(instance: Instance, location: string, body: Buffer, from: number, slice: number) {
  let offset = from;
  let response: Response | null = null;
  while (offset < body.length) {
    response = await patch(instance, location, body.subarray(offset, offset + slice), offset);
    if (response.status !== 204) return response;
    offset = Number(response.headers.get('upload-offset'));
  }
  return response as Response;
}
