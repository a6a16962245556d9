/**
 * "Needs action" (issue 26 finding 4, record 194): a store's rejection of a delivered release shows on
 * the artist's release page, in My Songs and on the admin review card with the store's reason, and
 * mails the artist once; an admin retry accepted by the store clears it, the release goes live and the
 * artist gets the go-live mail once. A folder target stands in for the store (the journey uses SFTP).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, mailOutbox } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { storeAcknowledgeAll } from '../../test-support/sftp';
import { promoteReleases } from './acknowledgements';
import { runDeliveryOnce } from './worker';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
const run = () => runDeliveryOnce(system, { retryBaseMs: 0 });
const REASON = 'Cover art is 1400x1400; the store needs 3000x3000';

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
});
afterAll(async () => system?.close());

const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
  system.request(url, { ...init, cookie: people.admin.cookie });

async function artistMails() {
  const rows = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, people.artist.email));
  return rows.map((row) => ({ subject: row.subject, text: row.textBody }));
}

type Rejection = { target: string; reason: string; at: string };

async function views(releaseId: string) {
  const detail = await readJson(
    await system.request(`/api/releases/${releaseId}/detail`, { cookie: people.artist.cookie }),
  );
  const songs = await readJson(
    await system.request('/api/releases?limit=50', { cookie: people.artist.cookie }),
  );
  const song = songs.items.find((item: { id: string }) => item.id === releaseId);
  const review = await readJson(
    await system.request('/api/admin/releases?tab=approved&pageSize=50', { cookie: people.moderator.cookie }),
  );
  const card = review.items.find((item: { id: string }) => item.id === releaseId);
  return {
    status: detail.status as string,
    detail: detail.storeRejections as Rejection[],
    song: song?.storeRejections as Rejection[] | undefined,
    card: card?.storeRejections as Rejection[] | undefined,
  };
}

describe('a store rejection puts the release in "Needs action"', () => {
  it('is shown with the reason and mailed once; an accepted retry clears it and the release goes live with one mail', async () => {
    const settings = await admin('/api/admin/settings', {
      method: 'PUT',
      json: {
        isrcRegistrant: 'qz-abc',
        upcPrefix: '0614141',
        ddexSenderPartyId: 'PADPIDA2013042401U',
        ddexSenderName: 'Tunedrop',
      },
    });
    expect(settings.status).toBe(200);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-needs-action-'));
    const targetName = `Store Rejecting ${Date.now()}`;
    const added = await admin('/api/admin/delivery/targets', {
      method: 'POST',
      json: {
        name: targetName,
        url: `file://${folder}`,
        dpid: 'PADPIDA2009101501Y',
        platforms: 'all',
        profile: 'release',
      },
    });
    expect(added.status).toBe(201);
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      title: 'Small Cover',
      releaseDate: '2024-01-05',
    });
    const approved = await system.request(`/api/admin/releases/${releaseId}/approve`, {
      method: 'POST',
      cookie: people.moderator.cookie,
    });
    expect(approved.status).toBe(200);
    await run();
    expect(await views(releaseId)).toMatchObject({ status: 'approved', detail: [], song: [], card: [] });
    await system.db.delete(mailOutbox).where(eq(mailOutbox.recipient, people.artist.email));

    // The store rejects: "Needs action" everywhere, with the store and its reason.
    storeAcknowledgeAll(folder, () => ({ status: 'ResourceCorrupt', errorText: REASON }));
    await run();
    const [delivery] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(delivery?.state).toBe('rejected');
    const rejected = await views(releaseId);
    expect(rejected.status).toBe('approved');
    const expected = [{ target: targetName, reason: `ResourceCorrupt: ${REASON}` }];
    expect(rejected.detail).toMatchObject(expected);
    expect(rejected.song).toMatchObject(expected);
    expect(rejected.card).toMatchObject(expected);
    expect(Number.isNaN(Date.parse(rejected.detail[0]?.at ?? ''))).toBe(false);
    await run();
    const mails = await artistMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Needs action: ${targetName} rejected your release "Small Cover"`);
    expect(mails[0]?.text).toContain(`Reason given by ${targetName}: ResourceCorrupt: ${REASON}`);

    // The admin retries: it stays "Needs action" until the store accepts the new message.
    const retried = await admin(`/api/admin/deliveries/${delivery?.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(200);
    await run();
    expect((await views(releaseId)).detail).toHaveLength(1);
    storeAcknowledgeAll(folder);
    await run();
    const cleared = await views(releaseId);
    expect(cleared).toMatchObject({ status: 'live', detail: [], song: [], card: [] });

    // Live: one mail, not repeated by later promotions.
    await promoteReleases(system.db, system.config.appUrl);
    await run();
    const after = await artistMails();
    expect(after.map((mail) => mail.subject)).toEqual([
      `Needs action: ${targetName} rejected your release "Small Cover"`,
      'Your release "Small Cover" is live',
    ]);
    expect(after[1]?.text).toContain(`${system.config.appUrl}/dashboard/releases/${releaseId}`);
  });
});
