/**
 * Where an admin may point a target (issue 43 finding 12, record 227): `file://` only under the configured
 * root (a link out of it counts as outside), SFTP/S3 hosts on loopback, link-local, private or metadata
 * addresses refused unless DELIVERY_ALLOWED_HOSTS names them: on Add and Edit (422 on the field, nothing
 * saved) and at every connection (Test connection of a target saved earlier, a name resolved anew).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { targetFolderRefusedMessage, targetHostRefusedMessage } from '@tunedrop/shared/schemas/delivery';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryTargets } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { STORE_DPID } from '../../test-support/delivery-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { allowedAddresses, guardedLookup } from './target-address';
import { createTarget } from './targets';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-targets-root-'));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-targets-outside-'));

beforeAll(async () => {
  // The rules as in production: nothing allowed, folder targets under one root.
  system = await createTestSystem({ DELIVERY_FILE_ROOT: root, DELIVERY_ALLOWED_HOSTS: '' });
  people = await staff(system);
}, 60_000);

afterAll(async () => {
  await system?.close();
  for (const dir of [root, outside]) fs.rmSync(dir, { recursive: true, force: true });
});

const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
  system.request(url, { ...init, cookie: people.admin.cookie });

const add = (name: string, json: Record<string, unknown>) =>
  admin('/api/admin/delivery/targets', {
    method: 'POST',
    json: { name, dpid: STORE_DPID, platforms: 'all', profile: 'release', ...json },
  });

const saved = async (name: string) =>
  (await system.db.select().from(deliveryTargets).where(eq(deliveryTargets.name, name))).length;

describe('target addresses', () => {
  it('refuses folders outside the root and hosts on the server’s own networks, enabled or not', async () => {
    fs.symlinkSync(outside, path.join(root, 'escape'));
    const refusals: [string, Record<string, unknown>, string, string][] = [
      ['Etc', { url: 'file:///etc' }, 'url', targetFolderRefusedMessage('/etc', root)],
      [
        'Escape',
        { url: `file://${root}/escape/store` },
        'url',
        targetFolderRefusedMessage(`${root}/escape/store`, root),
      ],
      [
        'Loopback',
        { url: 'sftp://store:pw@127.0.0.1:2222/in' },
        'url',
        targetHostRefusedMessage('127.0.0.1', '127.0.0.1', 'a loopback address'),
      ],
      [
        'Metadata',
        { url: 'sftp://store@169.254.169.254/in' },
        'url',
        targetHostRefusedMessage('169.254.169.254', '169.254.169.254', 'the cloud metadata address'),
      ],
      [
        'Lan',
        { url: 'sftp://store@10.1.2.3/in' },
        'url',
        targetHostRefusedMessage('10.1.2.3', '10.1.2.3', 'a private address'),
      ],
      [
        'V6',
        { url: 'sftp://store@[::1]/in' },
        'url',
        targetHostRefusedMessage('::1', '::1', 'a loopback address'),
      ],
      [
        'Mapped',
        { url: 'sftp://store@[::ffff:127.0.0.1]/in' },
        'url',
        targetHostRefusedMessage('::ffff:7f00:1', '::ffff:7f00:1', 'a loopback address'),
      ],
      [
        'Named',
        { url: 'sftp://store@localhost/in' },
        'url',
        targetHostRefusedMessage('localhost', '127.0.0.1', 'a loopback address'),
      ],
      [
        'Bucket',
        {
          url: 's3://bucket/in',
          s3: { endpoint: 'http://169.254.169.254', accessKeyId: 'a', secretAccessKey: 'b' },
        },
        's3Endpoint',
        targetHostRefusedMessage('169.254.169.254', '169.254.169.254', 'the cloud metadata address'),
      ],
    ];
    for (const [name, json, field, message] of refusals) {
      for (const enabled of [true, false]) {
        const response = await add(name, { ...json, enabled });
        const body = await readJson(response);
        expect(response.status, name).toBe(422);
        expect(body.error.fields?.[field], name).toBe(message);
        expect(await saved(name)).toBe(0);
      }
    }
    // Inside the root (not made yet): saved.
    expect((await add('Inside', { url: `file://${root}/store`, enabled: false })).status).toBe(201);
  });

  it('an edit to a refused address is refused and changes nothing', async () => {
    fs.mkdirSync(path.join(root, 'kept'));
    const created = await add('Kept', { url: `file://${root}/kept` });
    expect(created.status).toBe(201);
    const { id } = await readJson(created);
    const response = await admin(`/api/admin/delivery/targets/${id}`, {
      method: 'PATCH',
      json: { url: 'file:///etc' },
    });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields.url).toBe(targetFolderRefusedMessage('/etc', root));
    const [row] = await system.db.select().from(deliveryTargets).where(eq(deliveryTargets.id, id));
    expect(row?.urlMasked).toBe(`file://${root}/kept`);
  });

  it('Test connection applies the rules at connect time to targets saved before them', async () => {
    // Saved when the server allowed them (another configuration), tested under today's rules.
    const earlier = { ...system.config, DELIVERY_ALLOWED_HOSTS: 'localhost', deliveryFileRoot: '/' };
    const base = { dpid: STORE_DPID, platforms: 'all', profile: 'release', enabled: false } as const;
    const folder = await createTarget(system.db, earlier, { ...base, name: 'Old etc', url: 'file:///etc' });
    const named = await createTarget(system.db, earlier, {
      ...base,
      name: 'Old named',
      url: 'sftp://s@localhost:1/in',
    });
    const probe = async (id: string) =>
      readJson(await admin(`/api/admin/delivery/targets/${id}/test`, { method: 'POST' }));
    expect(await probe(folder.id)).toMatchObject({
      ok: false,
      message: targetFolderRefusedMessage('/etc', root),
    });
    expect(fs.readdirSync('/etc').some((name) => name.startsWith('.tunedrop-probe'))).toBe(false);
    expect(await probe(named.id)).toMatchObject({
      ok: false,
      message: targetHostRefusedMessage('localhost', '127.0.0.1', 'a loopback address'),
    });
  });

  it('DELIVERY_ALLOWED_HOSTS allows names, addresses and ranges; the S3 lookup resolves through the rules', async () => {
    const config = (allowed: string) => ({ ...system.config, DELIVERY_ALLOWED_HOSTS: allowed });
    expect(await allowedAddresses(config('10.0.0.0/8'), '10.20.30.40')).toEqual(['10.20.30.40']);
    expect(await allowedAddresses(config('127.0.0.1'), '127.0.0.1')).toEqual(['127.0.0.1']);
    expect(await allowedAddresses(config('LOCALHOST'), 'localhost')).toContain('127.0.0.1');
    await expect(allowedAddresses(config('10.0.0.0/8'), '192.168.1.1')).rejects.toThrow(
      targetHostRefusedMessage('192.168.1.1', '192.168.1.1', 'a private address'),
    );
    const looked = await new Promise<unknown>((resolve) =>
      guardedLookup(config(''))('localhost', {}, (error) => resolve(error)),
    );
    expect(looked).toMatchObject({ code: 'TARGET_ADDRESS_REFUSED' });
  });
});
