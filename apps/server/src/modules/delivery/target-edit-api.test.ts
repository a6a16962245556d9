/**
 * The admin's Edit target tests a changed connection like Add does (issue 26): an enabled target whose
 * URL or key no longer reaches the store is refused (422 target_unreachable) and keeps its saved settings;
 * the same change saved disabled, or a change of name only, is saved untested; a working key is saved.
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

const request = (method: 'POST' | 'PATCH', url: string, json: Record<string, unknown>) =>
  system.request(url, { method, cookie: bed.people.admin.cookie, json });

const rowOf = async (id: string) =>
  (await system.db.select().from(deliveryTargets).where(eq(deliveryTargets.id, id)))[0];

describe('PATCH /api/admin/delivery/targets/:id tests a changed connection', () => {
  it('refuses an enabled target moved to an unreachable address and changes nothing', async () => {
    fs.mkdirSync(path.join(sftp.root, 'edit'), { recursive: true });
    const added = await request('POST', '/api/admin/delivery/targets', {
      name: 'Edit store',
      url: sftp.url('edit'),
      privateKey: sftp.privateKey,
      dpid: STORE_DPID,
      platforms: 'all',
      profile: 'release',
    });
    const target = await readJson(added);
    expect(added.status, JSON.stringify(target)).toBe(201);
    const before = await rowOf(target.id);

    const nowhere = `sftp://store@127.0.0.1:${await freePort()}/in`;
    const refused = await request('PATCH', `/api/admin/delivery/targets/${target.id}`, {
      name: 'Edit store renamed',
      url: nowhere,
    });
    expect(refused.status).toBe(422);
    const body = await readJson(refused);
    expect(body.error.code).toBe('target_unreachable');
    expect(body.error.message).toMatch(
      new RegExp(`^${DELIVERY_MESSAGES.targetUnreachableEdit}: Connection refused`),
    );
    // A failed request changes nothing: not even the name given with it.
    expect(await rowOf(target.id)).toEqual(before);

    // A wrong key for the same server is refused too.
    const badKey = await request('PATCH', `/api/admin/delivery/targets/${target.id}`, {
      privateKey: 'not a key',
    });
    expect(badKey.status).toBe(422);
    expect(await rowOf(target.id)).toEqual(before);

    // Name only: no connection change, no test.
    const renamed = await request('PATCH', `/api/admin/delivery/targets/${target.id}`, {
      name: 'Edit store renamed',
    });
    expect(renamed.status).toBe(200);
    expect((await rowOf(target.id))?.name).toBe('Edit store renamed');

    // The same unreachable address saved disabled is kept untested.
    const disabled = await request('PATCH', `/api/admin/delivery/targets/${target.id}`, {
      url: nowhere,
      enabled: false,
    });
    expect(disabled.status).toBe(200);
    expect(await readJson(disabled)).toMatchObject({ enabled: false, hostKeyFingerprint: null });

    // Back to the real store, enabled: tested, saved, its host key pinned again.
    const back = await request('PATCH', `/api/admin/delivery/targets/${target.id}`, {
      url: sftp.url('edit'),
      enabled: true,
    });
    const json = await readJson(back);
    expect(back.status, JSON.stringify(json)).toBe(200);
    expect(json).toMatchObject({ enabled: true, hostKeyFingerprint: sftp.hostKeyFingerprint() });
  }, 90_000);
});
