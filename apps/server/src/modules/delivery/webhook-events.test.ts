/**
 * A delivery's webhook events (issue 40, record 291) on a folder target: `delivery.queued` at approval, at
 * an update and at a takedown,
 * `delivery.sent` with the attempt as message id, `delivery.acknowledged` on the store's ack, `delivery.failed`
 * when the last try fails, and `takedown.completed` once every store confirmed a takedown; each written to the
 * outbox with the change, thin (ids, UPC, target).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, releases, webhookMessages } from '../../db/schema';
import { type DeliveryBed, startDeliveryBed } from '../../test-support/delivery-fixtures';
import { storeAcknowledgeAll } from '../../test-support/sftp';
import { queueReleaseUpdate } from './planning';
import { runDeliveryOnce } from './worker';

let bed: DeliveryBed;

beforeAll(async () => {
  bed = await startDeliveryBed();
  const endpoint = await bed.system.request('/api/webhooks/endpoints', {
    method: 'POST',
    cookie: bed.people.artist.cookie,
    json: { url: 'http://127.0.0.1:9/hooks' },
  });
  expect(endpoint.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await bed?.close();
});

const run = () => runDeliveryOnce(bed.system, { retryBaseMs: 0 });

async function eventsOf(releaseId: string) {
  const rows = await bed.system.db
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.accountId, bed.people.artist.userId))
    .orderBy(asc(webhookMessages.createdAt));
  return rows
    .map((row) => row.payload as { type: string; data: Record<string, unknown> })
    .filter((payload) => payload.data.releaseId === releaseId);
}

describe('delivery webhook events', () => {
  it('queued, sent and acknowledged, then takedown.completed, each with the release’s ids', async () => {
    const folder = bed.tempDir(path.join(os.tmpdir(), 'tunedrop-hooks-'));
    const targetId = await bed.onlyTarget({ url: `file://${folder}` });
    const [releaseId] = await bed.approvedReleases(1);
    if (!releaseId) throw new Error('one release expected');
    const [delivery] = await bed.system.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.releaseId, releaseId));
    expect((await eventsOf(releaseId)).map((event) => event.type)).toContain('delivery.queued');
    await run();
    storeAcknowledgeAll(folder);
    await run();
    const [release] = await bed.system.db.select().from(releases).where(eq(releases.id, releaseId));
    const events = await eventsOf(releaseId);
    const ids = { deliveryId: delivery?.id, releaseId, targetId, upc: release?.upc };
    expect(events.find((event) => event.type === 'delivery.queued')?.data).toMatchObject(ids);
    const sent = events.find((event) => event.type === 'delivery.sent');
    expect(sent?.data).toMatchObject({ ...ids, action: 'new', messageId: expect.any(String) });
    const acknowledged = events.find((event) => event.type === 'delivery.acknowledged');
    expect(acknowledged?.data).toMatchObject({ ...ids, messageId: sent?.data.messageId });

    // An update queued is a delivery.queued too, its action saying which.
    await queueReleaseUpdate(bed.system.db, releaseId);
    await run();
    storeAcknowledgeAll(folder);
    await run();

    await bed.system.db
      .update(releases)
      .set({ takedownRequested: true, takedownRequestedAt: new Date() })
      .where(eq(releases.id, releaseId));
    const decided = await bed.system.request(`/api/admin/releases/${releaseId}/takedown/approve`, {
      method: 'POST',
      cookie: bed.people.moderator.cookie,
    });
    expect(decided.status).toBe(200);
    await run();
    storeAcknowledgeAll(folder);
    await run();
    const completed = (await eventsOf(releaseId)).filter((event) => event.type === 'takedown.completed');
    expect(completed.map((event) => event.data)).toEqual([{ releaseId, upc: release?.upc }]);
    const queued = (await eventsOf(releaseId)).filter((event) => event.type === 'delivery.queued');
    expect(queued.map((event) => event.data.action)).toEqual(['new', 'update', 'takedown']);
  });

  it('delivery.failed when the last try fails, with the reason', async () => {
    const folder = bed.tempDir(path.join(os.tmpdir(), 'tunedrop-hooks-'));
    fs.mkdirSync(path.join(folder, 'store'));
    await bed.onlyTarget({ url: `file://${folder}/store` });
    // The store's folder becomes a file: every write fails.
    fs.rmdirSync(path.join(folder, 'store'));
    fs.writeFileSync(path.join(folder, 'store'), 'not a folder');
    const [releaseId] = await bed.approvedReleases(1);
    if (!releaseId) throw new Error('one release expected');
    await bed.system.db.update(deliveries).set({ maxAttempts: 1 }).where(eq(deliveries.releaseId, releaseId));
    await run();
    const [failed] = await bed.system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(failed?.state).toBe('failed');
    const event = (await eventsOf(releaseId)).find((row) => row.type === 'delivery.failed');
    expect(event?.data).toMatchObject({ deliveryId: failed?.id, releaseId, reason: failed?.lastError });
  });
});
