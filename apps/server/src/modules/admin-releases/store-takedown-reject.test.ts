/**
 * A per-store takedown request can be rejected from the Takedown Requests tab (issue 26), as a
 * whole-release request can: the store stays live, the request leaves the tab, the artist is mailed
 * the reason, and the decision is audited.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, releaseStoreTakedowns, releases } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let moderator: Awaited<ReturnType<TestSystem['signedInUser']>>;
let artist: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  moderator = await system.signedInUser({ roles: ['moderator'], email: 'mod-reject@example.com' });
  artist = await system.signedInUser({ plan: 'pro', email: 'artist-reject@example.com' });
});
afterAll(async () => system?.close());

type Page = {
  items: { id: string; storeTakedownRequests: { platformId: string }[] }[];
  counts: Record<string, number>;
};
const tab = async (): Promise<Page> =>
  readJson(await system.request('/api/admin/releases?tab=takedown', { cookie: moderator.cookie }));

const reject = (releaseId: string, cookie: string, json: Record<string, unknown>) =>
  system.request(`/api/admin/releases/${releaseId}/store-takedowns/reject`, { method: 'POST', cookie, json });

describe('rejecting a per-store takedown request', () => {
  it('keeps the store live, clears the request from the tab, mails the artist the reason and audits it', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId, {
      status: 'live',
      title: 'Staying Put',
      distributionStores: ['spotify', 'deezer'],
    });
    const asked = await system.request(`/api/releases/${releaseId}/store-takedowns`, {
      method: 'POST',
      cookie: artist.cookie,
      json: { platformId: 'spotify' },
    });
    expect(asked.status).toBe(201);
    expect((await tab()).counts.takedown).toBe(1);

    // The artist may not decide; a reason is required.
    const reason = 'The store deal runs until the end of the year.';
    expect((await reject(releaseId, artist.cookie, { platformId: 'spotify', reason })).status).toBe(403);
    const noReason = await reject(releaseId, moderator.cookie, { platformId: 'spotify', reason: ' ' });
    expect(noReason.status).toBe(422);

    const rejected = await reject(releaseId, moderator.cookie, { platformId: 'spotify', reason });
    expect(rejected.status).toBe(200);
    const after = await tab();
    expect(after.counts.takedown).toBe(0);
    expect(after.items.find((item) => item.id === releaseId)).toBeUndefined();
    const requests = await system.db
      .select()
      .from(releaseStoreTakedowns)
      .where(and(eq(releaseStoreTakedowns.releaseId, releaseId)));
    expect(requests).toEqual([]);
    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(release?.status).toBe('live');
    expect(release?.distributionStores).toEqual(['spotify', 'deezer']);

    const mails = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, artist.email));
    const mail = mails.find((m) => m.subject.includes('takedown request'));
    expect(mail?.subject).toBe('Your takedown request for "Staying Put" from Spotify was not approved');
    expect(mail?.textBody).toContain(`Reason: ${reason}`);
    expect(mail?.textBody).toContain('the release stays live there');

    const [entry] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.releaseId, releaseId), eq(auditLog.action, 'release.store_takedown_reject')));
    expect(entry).toMatchObject({ actorEmail: 'mod-reject@example.com', subjectUserId: artist.userId });
    expect(entry?.after).toMatchObject({ store: 'spotify', takedown: 'rejected', reason });

    // Decided already: a second rejection (or one for a store never asked) is 409, not a second mail.
    const again = await reject(releaseId, moderator.cookie, { platformId: 'spotify', reason });
    expect(again.status).toBe(409);
    expect((await readJson(again)).error.code).toBe('store_takedown_decided');
    // The artist may ask again afterwards.
    const askedAgain = await system.request(`/api/releases/${releaseId}/store-takedowns`, {
      method: 'POST',
      cookie: artist.cookie,
      json: { platformId: 'spotify' },
    });
    expect(askedAgain.status).toBe(201);
  });
});
