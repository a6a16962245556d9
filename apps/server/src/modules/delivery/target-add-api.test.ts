/**
 * The admin's Add target tests the connection like `delivery:target:add` (issue 26 finding 2): an
 * unreachable enabled target is refused (422) and nothing is saved; added disabled it is kept; a real
 * OpenSSH store answering a key-only login is saved with the host key its test saw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DELIVERY_MESSAGES } from '@tunedrop/shared/schemas/delivery';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryTargets } from '../../db/schema';
import { type DeliveryBed, STORE_DPID, startDeliveryBed } from '../../test-support/delivery-fixtures';
import { readJson, type TestSystem } from '../../test-support/harness';
import { freePort, type SftpServer, startSftpServer } from '../../test-support/sftp';

let bed: DeliveryBed;
let system: TestSystem;
let sftp: SftpServer;

beforeAll(async () => {
  sftp = await startSftpServer();
  bed = await startDeliveryBed();
  ({ system } = bed);
}, 60_000);

afterAll(async () => {
  await bed?.close();
  await sftp?.stop();
});

const addTarget = (json: Record<string, unknown>) =>
  system.request('/api/admin/delivery/targets', {
    method: 'POST',
    cookie: bed.people.admin.cookie,
    json: { dpid: STORE_DPID, platforms: 'all', profile: 'release', ...json },
  });

const rowsNamed = (name: string) =>
  system.db.select().from(deliveryTargets).where(eq(deliveryTargets.name, name));

describe('POST /api/admin/delivery/targets tests the connection first', () => {
  it('refuses an unreachable enabled target and saves nothing; disabled, it is saved', async () => {
    const url = `sftp://store@127.0.0.1:${await freePort()}/in`;
    const refused = await addTarget({ name: 'Nowhere', url });
    expect(refused.status).toBe(422);
    const body = await readJson(refused);
    expect(body.error.code).toBe('target_unreachable');
    expect(body.error.message).toMatch(
      new RegExp(
        `^${DELIVERY_MESSAGES.targetUnreachable}: Connection refused.* Add it disabled to keep it switched off until it answers\\.$`,
      ),
    );
    expect(await rowsNamed('Nowhere')).toEqual([]);

    const saved = await addTarget({ name: 'Nowhere', url, enabled: false });
    expect(saved.status).toBe(201);
    expect(await readJson(saved)).toMatchObject({
      name: 'Nowhere',
      enabled: false,
      hostKeyFingerprint: null,
    });
    expect(await rowsNamed('Nowhere')).toHaveLength(1);
  }, 60_000);

  it('refuses a store that refuses the login (no key), and saves a key-only store that answers', async () => {
    fs.mkdirSync(path.join(sftp.root, 'api'), { recursive: true });
    const noKey = await addTarget({ name: 'Key store', url: sftp.url('api') });
    expect(noKey.status).toBe(422);
    expect((await readJson(noKey)).error.message).toMatch(
      new RegExp(`^${DELIVERY_MESSAGES.targetUnreachable}: `),
    );
    expect(await rowsNamed('Key store')).toEqual([]);

    const added = await addTarget({ name: 'Key store', url: sftp.url('api'), privateKey: sftp.privateKey });
    const json = await readJson(added);
    expect(added.status, JSON.stringify(json)).toBe(201);
    expect(json).toMatchObject({
      name: 'Key store',
      enabled: true,
      hasPrivateKey: true,
      // The test met the server: its host key is pinned at once.
      hostKeyFingerprint: sftp.hostKeyFingerprint(),
    });
    // The probe file is gone from the store.
    expect(fs.readdirSync(path.join(sftp.root, 'api'))).toEqual([]);
  }, 60_000);
});
