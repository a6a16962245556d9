/** Delivery to an S3 target (s3rver): multipart upload of the resources, the XML, acknowledgements read back. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveries } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { validateErn43 } from '../../test-support/ddex';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { ackXml } from '../../test-support/sftp';
import { slowStorage } from '../../test-support/slow-storage';
import { runDeliveryOnce } from './worker';

let server: S3rver;
let system: TestSystem;
let client: S3Client;
let endpoint: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-s3-target-'));

beforeAll(async () => {
  server = new S3rver({
    silent: true,
    port: 0,
    directory: path.join(dir, 'data'),
    configureBuckets: [{ name: 'store-in' }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  system = await createTestSystem();
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await system?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('delivers to s3://bucket/prefix with its own credentials and reads the acknowledgement', async () => {
  const people = await staff(system);
  const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
    system.request(url, { ...init, cookie: people.admin.cookie });
  await admin('/api/admin/settings', {
    method: 'PUT',
    json: {
      isrcRegistrant: 'QZ-ABC',
      upcPrefix: '0614141',
      ddexSenderPartyId: 'PADPIDA2013042401U',
      ddexSenderName: 'Tunedrop',
    },
  });
  const created = await admin('/api/admin/delivery/targets', {
    method: 'POST',
    json: {
      name: 'S3 store',
      url: 's3://store-in/incoming',
      dpid: 'PADPIDA2009101501Y',
      platforms: 'all',
      s3: { endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    },
  });
  expect(created.status).toBe(201);
  const target = await readJson(created);
  expect(JSON.stringify(target)).not.toContain('S3RVER');
  const test = await readJson(
    await admin(`/api/admin/delivery/targets/${target.id}/test`, { method: 'POST' }),
  );
  expect(test.ok).toBe(true);

  const { releaseId } = await createTestRelease(system, people.artist.userId, {
    status: 'pending',
    trackCount: 2,
  });
  await system.request(`/api/admin/releases/${releaseId}/approve`, {
    method: 'POST',
    cookie: people.moderator.cookie,
  });
  // A read failing in the second file: S3 has no folder to rename, so the objects already written are
  // removed again and no message is written (a store reads the message, written last, as the package).
  const broken = slowStorage(system.storage, { delayMs: 0, failAfterBytes: 100 * 1024 });
  let reads = 0;
  const failing = Object.create(broken) as typeof broken;
  failing.get = async (key) => {
    reads += 1;
    return reads === 1 ? system.storage.get(key) : broken.get(key);
  };
  await runDeliveryOnce({ ...system, storage: failing }, { retryBaseMs: 0, maxJobs: 1 });
  const [cut] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
  expect(cut?.lastError).toMatch(/storage read failed mid-file/);
  const leftover = await client.send(new ListObjectsV2Command({ Bucket: 'store-in', Prefix: 'incoming/N_' }));
  expect(leftover.Contents ?? []).toEqual([]);

  await runDeliveryOnce(system, { retryBaseMs: 0 });
  const [delivery] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
  expect(delivery?.state, delivery?.lastError ?? '').toBe('delivered');

  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'store-in', Prefix: 'incoming/N_' }));
  const keys = (listed.Contents ?? []).map((o) => o.Key ?? '');
  const xmlKey = keys.find((k) => /^incoming\/N_\d+_\d{17}\/\d+\.xml$/.test(k));
  expect(xmlKey).toBeDefined();
  expect(keys.filter((k) => k.includes('/resources/'))).toHaveLength(2);
  const xml = await (
    await client.send(new GetObjectCommand({ Bucket: 'store-in', Key: xmlKey }))
  ).Body?.transformToString();
  expect(validateErn43(xml ?? '').status).toBe(0);

  const folder = (xmlKey as string).split('/').slice(0, 2).join('/');
  const messageId = /<MessageId>([^<]+)<\/MessageId>/.exec(xml ?? '')?.[1] ?? '';
  await client.send(
    new PutObjectCommand({
      Bucket: 'store-in',
      Key: `${folder}/acknowledgements/ACK_${messageId}.xml`,
      Body: ackXml({ messageId }),
    }),
  );
  await runDeliveryOnce(system, { retryBaseMs: 0 });
  const [acked] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
  expect(acked?.state).toBe('acknowledged');
});
