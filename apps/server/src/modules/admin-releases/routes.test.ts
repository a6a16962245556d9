import { RELEASE_STATUSES, type ReleaseStatus } from '@tunedrop/shared';
import { ADMIN_RELEASE_MESSAGES } from '@tunedrop/shared/schemas/admin-releases';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  mailOutbox,
  producers,
  profiles,
  releaseCountDeltas,
  releases,
  songwriters,
  tracks,
} from '../../db/schema';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { addTestCover } from '../../test-support/releases-fixtures';

type Signed = Awaited<ReturnType<TestSystem['signedInUser']>>;
let system: TestSystem;
let artist: Signed;
let moderator: Signed;
let admin: Signed;

beforeAll(async () => {
  system = await createTestSystem();
  artist = await system.signedInUser({ artistName: 'Uploader Artist', email: 'uploader@example.com' });
  moderator = await system.signedInUser({ roles: ['moderator'], email: 'mod@example.com' });
  admin = await system.signedInUser({
    roles: ['admin'],
    subscription: 'inactive',
    email: 'admin@example.com',
  });
});
afterAll(async () => system?.close());

const post = (path: string, who: Signed, json?: unknown) =>
  system.request(path, { method: 'POST', cookie: who.cookie, ...(json !== undefined ? { json } : {}) });

const releaseRow = async (id: string) =>
  (await system.db.select().from(releases).where(eq(releases.id, id)))[0];

const auditRows = (releaseId: string) =>
  system.db.select().from(auditLog).where(eq(auditLog.releaseId, releaseId)).orderBy(auditLog.createdAt);

type ActionCase = {
  name: string;
  status: ReleaseStatus;
  takedownRequested?: boolean;
  call: (releaseId: string, who: Signed) => Promise<Response>;
  expectAfter: Record<string, unknown> | null;
};

const ACTIONS: ActionCase[] = [
  {
    name: 'approve',
    status: 'pending',
    call: (id, who) => post(`/api/admin/releases/${id}/approve`, who),
    expectAfter: { status: 'approved', rejectionReason: null },
  },
  {
    name: 'reject',
    status: 'processing',
    call: (id, who) => post(`/api/admin/releases/${id}/reject`, who, { reason: 'Cover has a URL on it' }),
    expectAfter: { status: 'rejected', rejectionReason: 'Cover has a URL on it' },
  },
  {
    name: 'unapprove',
    status: 'live',
    call: (id, who) => post(`/api/admin/releases/${id}/unapprove`, who),
    expectAfter: { status: 'pending' },
  },
  {
    name: 'unreject',
    status: 'rejected',
    call: (id, who) => post(`/api/admin/releases/${id}/unreject`, who),
    expectAfter: { status: 'pending', rejectionReason: null },
  },
  {
    name: 'approve takedown',
    status: 'approved',
    takedownRequested: true,
    call: (id, who) => post(`/api/admin/releases/${id}/takedown/approve`, who),
    expectAfter: { status: 'taken_down', takedownRequested: false },
  },
  {
    name: 'reject takedown',
    status: 'live',
    takedownRequested: true,
    call: (id, who) => post(`/api/admin/releases/${id}/takedown/reject`, who),
    expectAfter: { status: 'live', takedownRequested: false, takedownRequestedAt: null },
  },
  {
    name: 'delete permanently',
    status: 'rejected',
    call: (id, who) => system.request(`/api/admin/releases/${id}`, { method: 'DELETE', cookie: who.cookie }),
    expectAfter: null,
  },
  {
    name: 'ban uploader',
    status: 'pending',
    call: (id, who) =>
      post(`/api/admin/releases/${id}/uploader/ban`, who, { reason: 'Uploads stolen music' }),
    expectAfter: {},
  },
];

describe('authorisation: each action × artist, moderator, admin', () => {
  for (const action of ACTIONS) {
    it(`${action.name}: artist 403, moderator and admin succeed`, async () => {
      for (const who of [artist, moderator, admin] as const) {
        const uploader = action.name === 'ban uploader' ? await createTestUser(system) : artist;
        const { releaseId } = await createTestRelease(system, uploader.userId, {
          status: action.status,
          takedownRequested: action.takedownRequested ?? false,
          rejectionReason: action.status === 'rejected' ? 'old' : null,
        });
        const before = await releaseRow(releaseId);
        const response = await action.call(releaseId, who);
        const after = await releaseRow(releaseId);
        if (who === artist) {
          expect(response.status).toBe(403);
          expect((await readJson(response)).error.message).toBe(ADMIN_RELEASE_MESSAGES.accessDenied);
          expect(after).toEqual(before);
          expect(await auditRows(releaseId)).toHaveLength(0);
          continue;
        }
        expect(response.status, await response.clone().text()).toBe(200);
        if (action.expectAfter === null) expect(after).toBeUndefined();
        else expect(after).toMatchObject(action.expectAfter);
        const audit = await auditRows(releaseId);
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatchObject({
          actorId: who.userId,
          actorEmail: who.email,
          subjectUserId: uploader.userId,
        });
      }
    });
  }

  it('refuses everyone without a session (401) and the unban of the uploader to an artist', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId);
    expect(
      (await system.request(`/api/admin/releases/${releaseId}/approve`, { method: 'POST' })).status,
    ).toBe(401);
    expect((await system.request('/api/admin/releases')).status).toBe(401);
    expect((await post(`/api/admin/releases/${releaseId}/uploader/unban`, artist)).status).toBe(403);
    expect((await system.request('/api/admin/releases', { cookie: artist.cookie })).status).toBe(403);
  });

  it('the audit log is for admins only: moderators get the admin-only message', async () => {
    const asModerator = await system.request('/api/admin/audit', { cookie: moderator.cookie });
    expect(asModerator.status).toBe(403);
    expect((await readJson(asModerator)).error.message).toBe(ADMIN_RELEASE_MESSAGES.adminOnly);
    expect((await system.request('/api/admin/audit', { cookie: artist.cookie })).status).toBe(403);
    expect((await system.request('/api/admin/audit', { cookie: admin.cookie })).status).toBe(200);
  });
});

describe('transitions', () => {
  const allowed: Record<string, string[]> = {
    approve: ['pending', 'processing'],
    reject: ['pending', 'processing'],
    unapprove: ['approved', 'live'],
    unreject: ['rejected'],
  };
  for (const [decision, from] of Object.entries(allowed)) {
    for (const status of RELEASE_STATUSES) {
      const isAllowed = from.includes(status);
      it(`${decision} from ${status} is ${isAllowed ? 'allowed' : 'refused with 409'}`, async () => {
        const { releaseId } = await createTestRelease(system, artist.userId, { status });
        const response = await post(
          `/api/admin/releases/${releaseId}/${decision}`,
          moderator,
          decision === 'reject' ? { reason: 'Not ready' } : undefined,
        );
        expect(response.status).toBe(isAllowed ? 200 : 409);
        const row = await releaseRow(releaseId);
        if (!isAllowed) {
          expect(row?.status).toBe(status);
          expect((await readJson(response)).error.code).toBe('release_state_changed');
          expect(await auditRows(releaseId)).toHaveLength(0);
        }
      });
    }
  }

  it("a rejection's reason is in the release page's status history for the owner", async () => {
    const { releaseId } = await createTestRelease(system, artist.userId, { status: 'pending' });
    expect(
      (await post(`/api/admin/releases/${releaseId}/reject`, moderator, { reason: 'Cover is blurry' }))
        .status,
    ).toBe(200);
    const detail = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: artist.cookie }),
    );
    expect(detail.rejectionReason).toBe('Cover is blurry');
    expect(detail.statusHistory.at(-1)).toMatchObject({
      status: 'rejected',
      note: 'Reason: Cover is blurry',
    });
  });

  it('takedown decisions need a pending request', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId, { status: 'approved' });
    expect((await post(`/api/admin/releases/${releaseId}/takedown/approve`, moderator)).status).toBe(409);
    expect((await post(`/api/admin/releases/${releaseId}/takedown/reject`, moderator)).status).toBe(409);
    expect((await releaseRow(releaseId))?.status).toBe('approved');
  });

  it('permanent delete works only from the approved, rejected and taken-down tabs and removes everything', async () => {
    const pending = await createTestRelease(system, artist.userId, { status: 'pending' });
    const refused = await system.request(`/api/admin/releases/${pending.releaseId}`, {
      method: 'DELETE',
      cookie: moderator.cookie,
    });
    expect(refused.status).toBe(409);
    expect(await releaseRow(pending.releaseId)).toBeDefined();

    const { releaseId, trackIds } = await createTestRelease(system, artist.userId, {
      status: 'taken_down',
      trackCount: 2,
    });
    const cover = await addTestCover(system, artist.userId, releaseId);
    const trackKeys = (
      await system.db.select({ key: tracks.fileKey }).from(tracks).where(eq(tracks.releaseId, releaseId))
    ).map((row) => row.key);
    const response = await system.request(`/api/admin/releases/${releaseId}`, {
      method: 'DELETE',
      cookie: admin.cookie,
    });
    expect(response.status).toBe(200);
    expect(await releaseRow(releaseId)).toBeUndefined();
    for (const trackId of trackIds) {
      expect(await system.db.select().from(tracks).where(eq(tracks.id, trackId))).toHaveLength(0);
      expect(await system.db.select().from(songwriters).where(eq(songwriters.trackId, trackId))).toHaveLength(
        0,
      );
      expect(await system.db.select().from(producers).where(eq(producers.trackId, trackId))).toHaveLength(0);
    }
    for (const key of [cover.coverKey, cover.smallKey, cover.mediumKey, ...trackKeys]) {
      expect(await system.storage.exists(key)).toBe(false);
    }
    const [audit] = await auditRows(releaseId);
    expect(audit).toMatchObject({ action: 'release.delete', after: null });
    expect(audit?.before).toMatchObject({ title: 'Test Release', status: 'taken_down', trackCount: 2 });
    // A second delete finds nothing.
    const again = await system.request(`/api/admin/releases/${releaseId}`, {
      method: 'DELETE',
      cookie: admin.cookie,
    });
    expect(again.status).toBe(404);
  });

  it('a rejection needs a non-blank reason', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId);
    for (const body of [{ reason: '   ' }, {}]) {
      const response = await post(`/api/admin/releases/${releaseId}/reject`, moderator, body);
      expect(response.status).toBe(422);
      expect((await readJson(response)).error.fields.reason).toBe(
        ADMIN_RELEASE_MESSAGES.rejectionReasonRequired,
      );
    }
    expect((await releaseRow(releaseId))?.status).toBe('pending');
  });

  it('records before and after in the audit log and mails the artist on approve, reject and takedown', async () => {
    const uploader = await createTestUser(system, { artistName: 'Mail Me', email: 'mail-me@example.com' });
    const a = await createTestRelease(system, uploader.userId, { title: 'Sunrise' });
    const b = await createTestRelease(system, uploader.userId, { title: 'Sunset' });
    const c = await createTestRelease(system, uploader.userId, {
      title: 'Noon',
      status: 'live',
      takedownRequested: true,
    });
    const d = await createTestRelease(system, uploader.userId, {
      title: 'Dusk',
      status: 'live',
      takedownRequested: true,
    });
    await post(`/api/admin/releases/${a.releaseId}/approve`, moderator);
    await post(`/api/admin/releases/${b.releaseId}/reject`, moderator, {
      reason: 'Silence at the end is 40 s long',
    });
    await post(`/api/admin/releases/${c.releaseId}/takedown/approve`, moderator);
    // A rejected whole-release takedown is told to the artist too (issue 26), as a per-store one is.
    await post(`/api/admin/releases/${d.releaseId}/takedown/reject`, moderator);

    const [approveAudit] = await auditRows(a.releaseId);
    expect(approveAudit).toMatchObject({
      action: 'release.approve',
      before: { status: 'pending', rejectionReason: null, takedownRequested: false, title: 'Sunrise' },
      after: { status: 'approved', rejectionReason: null, takedownRequested: false, title: 'Sunrise' },
    });
    const [rejectAudit] = await auditRows(b.releaseId);
    expect(rejectAudit?.after).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Silence at the end is 40 s long',
    });

    const mails = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'mail-me@example.com'));
    const subjects = mails.map((mail) => mail.subject).sort();
    expect(subjects).toEqual([
      'Your release "Noon" has been taken down',
      'Your release "Sunrise" has been approved',
      'Your release "Sunset" was not approved',
      'Your takedown request for "Dusk" was not approved',
    ]);
    expect(mails.find((mail) => mail.subject.includes('Sunset'))?.textBody).toContain(
      'Reason: Silence at the end is 40 s long',
    );
    expect(mails.find((mail) => mail.subject.includes('Dusk'))?.textBody).toContain(
      'the release stays live at the stores',
    );
  });
});

describe('concurrency', () => {
  it('two moderators approving one release at once: exactly one succeeds', async () => {
    const second = await system.signedInUser({ roles: ['moderator'] });
    for (let round = 0; round < 3; round += 1) {
      const { releaseId } = await createTestRelease(system, artist.userId);
      const responses = await Promise.all([
        post(`/api/admin/releases/${releaseId}/approve`, moderator),
        post(`/api/admin/releases/${releaseId}/approve`, second),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const loser = responses.find((response) => response.status === 409) as Response;
      expect((await readJson(loser)).error.message).toContain('is now Approved');
      expect(await auditRows(releaseId)).toHaveLength(1);
    }
  });

  it('approve racing reject: one decision wins, the other sees a conflict', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId);
    const responses = await Promise.all([
      post(`/api/admin/releases/${releaseId}/approve`, moderator),
      post(`/api/admin/releases/${releaseId}/reject`, admin, { reason: 'Duplicate' }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const row = await releaseRow(releaseId);
    expect(['approved', 'rejected']).toContain(row?.status);
    expect(await auditRows(releaseId)).toHaveLength(1);
  });
});

describe('bans', () => {
  it('bans and unbans the uploader with a required reason, once each', async () => {
    const uploader = await createTestUser(system);
    const { releaseId } = await createTestRelease(system, uploader.userId);
    const blank = await post(`/api/admin/releases/${releaseId}/uploader/ban`, moderator, { reason: ' ' });
    expect(blank.status).toBe(422);
    expect((await readJson(blank)).error.fields.reason).toBe(ADMIN_RELEASE_MESSAGES.banReasonRequired);

    const ban = await post(`/api/admin/releases/${releaseId}/uploader/ban`, moderator, { reason: 'Fraud' });
    expect(await readJson(ban)).toEqual({ uploader: { isBanned: true, banReason: 'Fraud' } });
    const [profile] = await system.db.select().from(profiles).where(eq(profiles.id, uploader.userId));
    expect(profile).toMatchObject({ banned: true, banReason: 'Fraud' });
    expect(profile?.bannedAt).toBeInstanceOf(Date);
    expect(
      (await post(`/api/admin/releases/${releaseId}/uploader/ban`, moderator, { reason: 'Again' })).status,
    ).toBe(409);

    const unban = await post(`/api/admin/releases/${releaseId}/uploader/unban`, admin);
    expect(unban.status).toBe(200);
    const [cleared] = await system.db.select().from(profiles).where(eq(profiles.id, uploader.userId));
    expect(cleared).toMatchObject({ banned: false, banReason: null, bannedAt: null });
    expect((await post(`/api/admin/releases/${releaseId}/uploader/unban`, admin)).status).toBe(409);

    const audit = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectUserId, uploader.userId), eq(auditLog.releaseId, releaseId)))
      .orderBy(auditLog.createdAt);
    expect(audit.map((row) => row.action)).toEqual(['user.ban', 'user.unban']);
    expect(audit[0]?.before).toMatchObject({ banned: false });
    expect(audit[0]?.after).toMatchObject({ banned: true, banReason: 'Fraud' });
  });

  it('a moderator cannot ban staff', async () => {
    const otherModerator = await createTestUser(system, { roles: ['moderator'] });
    const { releaseId } = await createTestRelease(system, otherModerator.userId);
    const response = await post(`/api/admin/releases/${releaseId}/uploader/ban`, moderator, { reason: 'x' });
    expect(response.status).toBe(403);
  });
});

describe('GET /api/admin/releases', () => {
  it('filters the five tabs, counts each, searches title, artist or uploader email, and pages', async () => {
    const fresh = await createTestSystem();
    try {
      const mod = await fresh.signedInUser({ roles: ['moderator'] });
      const one = await createTestUser(fresh, { email: 'alpha@example.com' });
      const two = await createTestUser(fresh, { email: 'beta@example.com' });
      const make = (userId: string, title: string, status: ReleaseStatus, takedownRequested = false) =>
        createTestRelease(fresh, userId, { title, status, takedownRequested });
      await make(one.userId, 'P1', 'pending');
      await make(one.userId, 'P2', 'processing');
      await make(two.userId, 'P3 Zebra_Song', 'pending');
      await make(one.userId, 'A1', 'approved');
      await make(two.userId, 'L1', 'live', true);
      await make(one.userId, 'R1', 'rejected');
      await make(one.userId, 'T1', 'taken_down');
      await make(two.userId, 'D1', 'deleted');

      const get = async (query: string) =>
        readJson(await fresh.request(`/api/admin/releases?${query}`, { cookie: mod.cookie }));
      const pending = await get('tab=pending');
      expect(pending.counts).toEqual({ pending: 3, approved: 2, takedown: 1, rejected: 1, takendown: 2 });
      expect(pending.items.map((item: { title: string }) => item.title)).toEqual([
        'P1',
        'P2',
        'P3 Zebra_Song',
      ]);
      expect((await get('tab=approved')).items.map((item: { title: string }) => item.title).sort()).toEqual([
        'A1',
        'L1',
      ]);
      expect((await get('tab=takedown')).items.map((item: { title: string }) => item.title)).toEqual(['L1']);
      expect((await get('tab=takendown')).items.map((item: { title: string }) => item.title).sort()).toEqual([
        'D1',
        'T1',
      ]);

      const byEmail = await get('tab=pending&q=BETA@');
      expect(byEmail.items.map((item: { title: string }) => item.title)).toEqual(['P3 Zebra_Song']);
      expect(byEmail.counts).toMatchObject({
        pending: 1,
        approved: 1,
        takedown: 1,
        takendown: 1,
        rejected: 0,
      });
      // LIKE wildcards in the query are literal.
      expect((await get('tab=pending&q=a_s')).items).toHaveLength(1);
      expect((await get('tab=pending&q=%25')).items).toHaveLength(0);
      expect((await get('tab=pending&q=test%20artist')).items).toHaveLength(3);

      const page2 = await get('tab=pending&pageSize=2&page=2');
      expect(page2).toMatchObject({ page: 2, pageSize: 2, totalPages: 2 });
      expect(page2.items.map((item: { title: string }) => item.title)).toEqual(['P3 Zebra_Song']);

      const card = pending.items[0];
      expect(card).toMatchObject({
        title: 'P1',
        genre: 'Pop',
        labelName: null,
        distributionStores: ['spotify', 'apple_music'],
        primaryArtists: [{ name: 'Test Artist' }],
        uploader: { email: 'alpha@example.com', isBanned: false },
        coverUrl: null,
      });
      expect(card.tracks[0]).toMatchObject({
        title: 'Track 1',
        explicit: false,
        sampleRate: 44100,
        bitDepth: 16,
        channels: 2,
        durationMs: 1000,
        songwriters: [{ firstName: 'Sam', lastName: 'Writer', role: 'music_and_lyrics' }],
        producers: [{ firstName: 'Pat', lastName: 'Producer' }],
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('tab counts kept by triggers (migration 0008)', () => {
  it('follow every insert, update and delete, also once the delta rows are folded', async () => {
    const fresh = await createTestSystem();
    try {
      const mod = await fresh.signedInUser({ roles: ['moderator'] });
      const artist = await createTestUser(fresh);
      const counts = async (query = 'tab=pending') =>
        (await readJson(await fresh.request(`/api/admin/releases?${query}`, { cookie: mod.cookie }))).counts;
      const kept = await createTestRelease(fresh, artist.userId, { title: 'Kept', status: 'pending' });
      const gone = await createTestRelease(fresh, artist.userId, { title: 'Gone', status: 'rejected' });
      expect(await counts()).toEqual({ pending: 1, approved: 0, takedown: 0, rejected: 1, takendown: 0 });
      // 120 status changes append 240 delta rows: more than the 200 the next read folds.
      for (let change = 0; change < 120; change += 1) {
        await fresh.db
          .update(releases)
          .set({ status: change % 2 === 0 ? 'approved' : 'pending' })
          .where(eq(releases.id, kept.releaseId));
      }
      await fresh.db.update(releases).set({ updatedAt: new Date() }).where(eq(releases.id, gone.releaseId));
      await fresh.db
        .update(releases)
        .set({ takedownRequested: true, takedownRequestedAt: new Date() })
        .where(eq(releases.id, kept.releaseId));
      const expected = { pending: 1, approved: 0, takedown: 1, rejected: 1, takendown: 0 };
      expect(await counts()).toEqual(expected);
      expect((await fresh.db.select().from(releaseCountDeltas)).length).toBeLessThanOrEqual(5);
      expect(await counts('tab=takedown')).toEqual(expected);
      await fresh.db.delete(releases).where(eq(releases.id, gone.releaseId));
      expect(await counts()).toEqual({ ...expected, rejected: 0 });
      // Within a search the counts are those of the matches.
      expect(await counts('tab=pending&q=kept')).toEqual({ ...expected, rejected: 0 });
      expect(await counts('tab=pending&q=nothing-matches')).toEqual({
        pending: 0,
        approved: 0,
        takedown: 0,
        rejected: 0,
        takendown: 0,
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /api/admin/audit', () => {
  it('lists newest first and filters by user (actor or subject, id or email) and by release', async () => {
    const uploader = await createTestUser(system, { email: 'audited@example.com' });
    const first = await createTestRelease(system, uploader.userId);
    const secondRelease = await createTestRelease(system, uploader.userId);
    await post(`/api/admin/releases/${first.releaseId}/approve`, moderator);
    await post(`/api/admin/releases/${secondRelease.releaseId}/reject`, admin, { reason: 'No' });

    const get = async (query: string) =>
      readJson(await system.request(`/api/admin/audit?${query}`, { cookie: admin.cookie }));
    const byRelease = await get(`releaseId=${first.releaseId}`);
    expect(byRelease.items.map((item: { action: string }) => item.action)).toEqual(['release.approve']);
    const bySubject = await get('user=AUDITED@example.com');
    expect(bySubject.items.map((item: { action: string }) => item.action)).toEqual([
      'release.reject',
      'release.approve',
    ]);
    const byActor = await get(`user=${admin.userId}&releaseId=${secondRelease.releaseId}`);
    expect(byActor.items).toHaveLength(1);
    expect(byActor.items[0]).toMatchObject({ actorEmail: 'admin@example.com', action: 'release.reject' });

    const paged = await get('limit=1');
    expect(paged.items).toHaveLength(1);
    const next = await get(`limit=1&cursor=${encodeURIComponent(paged.nextCursor)}`);
    expect(next.items[0].id).not.toBe(paged.items[0].id);
    expect((await system.request('/api/admin/audit?releaseId=nope', { cookie: admin.cookie })).status).toBe(
      422,
    );
  });
});
