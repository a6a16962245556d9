/** The S3 adapter against s3rver running locally: put (file and buffer), streamed get, exists, delete, signed URLs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson } from '../../test-support/harness';
import { type S3TestServer, startS3TestServer } from '../../test-support/s3-server';
import { createS3Storage, type S3Storage } from './s3-storage';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
let server: S3TestServer;
let storage: S3Storage;
let endpoint: string;

beforeAll(async () => {
  // s3rver with the ListParts the app's tus uploads need (test-support/s3-server.ts, decision 157).
  server = await startS3TestServer({ directory: path.join(dir, 'data') });
  endpoint = server.endpoint;
  storage = createS3Storage({
    bucket: 'tunedrop-test',
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
});

afterAll(async () => {
  storage.close();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('S3 storage', () => {
  it('moves a local file into the bucket (multipart above 16 MiB) and streams it back', async () => {
    const file = path.join(dir, 'big.wav');
    const body = Buffer.alloc(20 * 1024 * 1024);
    for (let index = 0; index < body.length; index += 4096) body.writeUInt32LE(index, index);
    fs.writeFileSync(file, body);
    const stored = await storage.putFile('user-1/release-1/big.wav', file, 'audio/wav');
    expect(stored.sizeBytes).toBe(body.length);
    // putFile moves: the local file is gone.
    expect(fs.existsSync(file)).toBe(false);
    const object = await storage.get('user-1/release-1/big.wav');
    expect(object.sizeBytes).toBe(body.length);
    expect((await buffer(object.body)).equals(body)).toBe(true);
  });

  it('copies a local file into the bucket, leaving the source, and reports its size', async () => {
    const file = path.join(dir, 'copy.wav');
    fs.writeFileSync(file, 'RIFF copy');
    expect(await storage.sizeOf('user-1/release-1/copy.wav')).toBeNull();
    const stored = await storage.copyFile('user-1/release-1/copy.wav', file, 'audio/wav');
    expect(stored.sizeBytes).toBe(9);
    expect(fs.existsSync(file)).toBe(true);
    expect(await storage.sizeOf('user-1/release-1/copy.wav')).toBe(9);
  });

  it('stores a buffer, tells whether a key exists, and deletes it', async () => {
    await storage.putBuffer('user-1/thumb.jpg', Buffer.from('tiny'), 'image/jpeg');
    expect(await storage.exists('user-1/thumb.jpg')).toBe(true);
    await storage.delete('user-1/thumb.jpg');
    expect(await storage.exists('user-1/thumb.jpg')).toBe(false);
    await expect(storage.get('user-1/thumb.jpg')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    // Deleting a missing key is not an error.
    await storage.delete('user-1/thumb.jpg');
  });

  // s3rver checks a signed URL's access key and expiry but does not recompute SigV4 signatures.
  it('signs a URL that fetches the object without credentials until it expires', async () => {
    await storage.putBuffer('user-2/cover.png', Buffer.from('png bytes'), 'image/png');
    await storage.putBuffer('user-2/other.png', Buffer.from('other bytes'), 'image/png');
    const url = await storage.signedUrl('user-2/cover.png', {
      expiresInSeconds: 60,
      downloadName: 'my cover.png',
    });
    expect(url.startsWith(`${endpoint}/tunedrop-test/user-2/cover.png?`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('png bytes');
    const query = new URL(url).searchParams;
    expect(query.get('X-Amz-Expires')).toBe('60');
    expect(query.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(query.get('response-content-disposition')).toBe(
      `attachment; filename="my cover.png"; filename*=UTF-8''my%20cover.png`,
    );
    // However long a caller asks for, a signed URL lives at most 5 minutes.
    const capped = await storage.signedUrl('user-2/cover.png', { expiresInSeconds: 86_400 * 365 });
    expect(new URL(capped).searchParams.get('X-Amz-Expires')).toBe('300');
    const shortLived = await storage.signedUrl('user-2/other.png', { expiresInSeconds: 1 });
    expect((await fetch(shortLived)).status).toBe(200);
    // It is refused once its second has passed.
    await vi.waitFor(async () => expect((await fetch(shortLived)).status).toBe(403), {
      timeout: 10_000,
      interval: 250,
    });
  });

  it('refuses unsafe keys before calling the bucket', async () => {
    await expect(storage.putBuffer('../escape', Buffer.from('x'))).rejects.toThrow('Unsafe storage key');
    await expect(storage.get('/absolute')).rejects.toThrow('Unsafe storage key');
  });

  it('is chosen by the configuration only when every S3_* variable is set', () => {
    expect(() => loadConfig({ S3_BUCKET: 'b' })).toThrow('required when any S3_* variable is set');
  });
});

describe('the app with S3_* set', () => {
  it('takes uploads into the bucket, not onto disk, and puts checked covers and submitted audio there', async () => {
    const system = await createTestSystem(server.env);
    try {
      expect(system.storage.kind).toBe('s3');
      const user = await system.signedInUser({ artistName: 'Test Artist' });
      const files = await uploadReleaseFiles(system, user.cookie, 1);
      const response = await system.request('/api/builder/releases', {
        method: 'POST',
        cookie: user.cookie,
        json: basicSubmission(files),
      });
      expect(response.status).toBe(201);
      const { release } = await readJson(response);
      const key = `${user.userId}/${release.id}/Track_1.wav`;
      expect(await storage.exists(key)).toBe(true);
      expect(fs.existsSync(path.join(system.dataDir, 'storage', key))).toBe(false);
      expect(fs.existsSync(path.join(system.dataDir, 'uploads-staging'))).toBe(false);
    } finally {
      await system.close();
    }
  });
});
