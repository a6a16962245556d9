/**
 * Bulk approve / reject from the Pending tab (issue 26 finding 9): each release gets the single
 * decision (codes at approval, the artist's mail), a release already decided is reported refused while
 * the others go through, artists get 403, and a batch is at most 100 ids.
 */
import { BULK_REVIEW_MAX, type BulkReviewResult } from '@tunedrop/shared/schemas/admin-releases';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, releases, tracks } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

type Signed = Awaited<ReturnType<TestSystem['signedInUser']>>;
let system: TestSystem;
let artist: Signed;
let moderator: Signed;

beforeAll(async () => {
  system = await createTestSystem();
  artist = await system.signedInUser({ artistName: 'Bulk Artist', email: 'bulk-artist@example.com' });
  moderator = await system.signedInUser({ roles: ['moderator'], email: 'bulk-mod@example.com' });
  const admin = await system.signedInUser({ roles: ['admin'], email: 'bulk-admin@example.com' });
  const saved = await system.request('/api/admin/settings', {
    method: 'PUT',
    cookie: admin.cookie,
    json: {
      isrcRegistrant: 'qz-abc',
      upcPrefix: '0614141',
      ddexSenderPartyId: 'PADPIDA2013042401U',
      ddexSenderName: 'Tunedrop',
    },
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => system?.close());

const bulk = (who: Signed, json: unknown) =>
  system.request('/api/admin/releases/bulk-review', { method: 'POST', cookie: who.cookie, json });

const pendingReleases = async (count: number) => {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { releaseId } = await createTestRelease(system, artist.userId, {
      status: 'pending',
      trackCount: 2,
    });
    ids.push(releaseId);
  }
  return ids;
};

const rowsOf = (ids: string[]) => system.db.select().from(releases).where(inArray(releases.id, ids));

describe('POST /api/admin/releases/bulk-review', () => {
  it('approves three pending releases: each approved with its UPC and ISRCs, and the artist mailed', async () => {
    const ids = await pendingReleases(3);
    const response = await bulk(moderator, { ids, action: 'approve' });
    expect(response.status).toBe(200);
    const result = (await readJson(response)) as BulkReviewResult;
    expect(result).toMatchObject({ done: 3, refused: 0 });
    expect(result.results.map((r) => r.ok)).toEqual([true, true, true]);
    for (const row of await rowsOf(ids)) {
      expect(row.status).toBe('approved');
      expect(row.upc).toMatch(/^\d{12,13}$/);
      const trackRows = await system.db.select().from(tracks).where(eq(tracks.releaseId, row.id));
      for (const track of trackRows) expect(track.isrc).toMatch(/^QZABC\d{7}$/);
    }
    const mails = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'bulk-artist@example.com'));
    expect(mails.length).toBeGreaterThanOrEqual(3);
  });

  it('reports an already approved release as refused and approves the others', async () => {
    const ids = await pendingReleases(2);
    const { releaseId: decided } = await createTestRelease(system, artist.userId, { status: 'approved' });
    const response = await bulk(moderator, { ids: [ids[0], decided, ids[1]], action: 'approve' });
    expect(response.status).toBe(200);
    const result = (await readJson(response)) as BulkReviewResult;
    expect(result).toMatchObject({ done: 2, refused: 1 });
    const refused = result.results.find((r) => r.id === decided);
    expect(refused).toMatchObject({ ok: false, code: 'release_state_changed' });
    expect(refused && !refused.ok && refused.message).toMatch(/is now Approved/);
    const statuses = (await rowsOf(ids)).map((row) => row.status);
    expect(statuses).toEqual(['approved', 'approved']);
  });

  it('rejects with one reason for all, and requires that reason', async () => {
    const ids = await pendingReleases(2);
    const missing = await bulk(moderator, { ids, action: 'reject' });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(await readJson(missing))).toContain('Please provide a reason for rejection.');
    const response = await bulk(moderator, { ids, action: 'reject', reason: 'Cover has a URL on it' });
    expect(response.status).toBe(200);
    const rows = await system.db
      .select()
      .from(releases)
      .where(and(inArray(releases.id, ids), eq(releases.status, 'rejected')));
    expect(rows.map((row) => row.rejectionReason)).toEqual([
      'Cover has a URL on it',
      'Cover has a URL on it',
    ]);
  });

  it('answers 403 to an artist and changes nothing', async () => {
    const ids = await pendingReleases(1);
    const response = await bulk(artist, { ids, action: 'approve' });
    expect(response.status).toBe(403);
    expect((await rowsOf(ids))[0]?.status).toBe('pending');
  });

  it(`refuses more than ${BULK_REVIEW_MAX} ids with 422`, async () => {
    const ids = Array.from(
      { length: BULK_REVIEW_MAX + 1 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const response = await bulk(moderator, { ids, action: 'approve' });
    expect(response.status).toBe(422);
  });
});
