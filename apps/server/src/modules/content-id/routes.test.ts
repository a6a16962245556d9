import {
  CONTENT_ID_ELIGIBLE_ANSWERS,
  CONTENT_ID_MESSAGES,
  CONTENT_ID_QUESTIONS,
} from '@tunedrop/shared/schemas/content-id';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contentIdTracks } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(() => system.close());

const DAY_MS = 86_400_000;
const CHANNEL = 'UC_x5XG1OV2P6uZZ5FSM9Ttw';

async function proWithRelease(trackCount = 2) {
  const pro = await system.signedInUser({ plan: 'pro', artistName: 'Ada Pro' });
  const release = await createTestRelease(system, pro.userId, { trackCount, title: 'Protected' });
  return { ...pro, ...release };
}

const optIn = (cookie: string, trackId: string, json: unknown = CONTENT_ID_ELIGIBLE_ANSWERS) =>
  system.request(`/api/content-id/tracks/${trackId}`, { method: 'PUT', cookie, json });

describe('opting a track in to Content ID', () => {
  it('opts a Pro artist’s track in with eligible answers, keeps the answers and audits it', async () => {
    const pro = await proWithRelease();
    const [first, second] = pro.trackIds;
    if (!first || !second) throw new Error('two tracks expected');
    const response = await optIn(pro.cookie, first);
    expect(response.status).toBe(200);
    const view = await readJson(response);
    expect(view.releaseId).toBe(pro.releaseId);
    expect(view.tracks.map((t: { trackId: string; state: string }) => [t.trackId, t.state])).toEqual([
      [first, 'opted_in'],
      [second, 'not_opted_in'],
    ]);
    const [row] = await system.db.select().from(contentIdTracks).where(eq(contentIdTracks.trackId, first));
    expect(row).toMatchObject({
      isOptedIn: true,
      answers: CONTENT_ID_ELIGIBLE_ANSWERS,
      needsYoutubeUpdate: true,
    });
    const audits = await system.db.select().from(auditLog).where(eq(auditLog.subjectUserId, pro.userId));
    expect(audits.map((a) => a.action)).toEqual(['content_id.opt_in']);

    const read = await system.request(`/api/content-id/releases/${pro.releaseId}`, { cookie: pro.cookie });
    expect(read.status).toBe(200);
    expect((await readJson(read)).tracks[0]).toMatchObject({ state: 'opted_in', title: 'Track 1' });
  });

  it.each(CONTENT_ID_QUESTIONS.map((q) => [q.id, q] as const))(
    'refuses an ineligible answer to %s with its reason',
    async (_, question) => {
      const pro = await proWithRelease(1);
      const wrong = question.eligibleAnswer === 'yes' ? 'no' : 'yes';
      const response = await optIn(pro.cookie, pro.trackIds[0] ?? '', {
        ...CONTENT_ID_ELIGIBLE_ANSWERS,
        [question.id]: wrong,
      });
      expect(response.status).toBe(422);
      const body = await readJson(response);
      expect(body.error.message).toBe(question.refusal);
      expect(body.error.fields).toEqual({ [question.id]: question.refusal });
      expect(
        await system.db.select().from(contentIdTracks).where(eq(contentIdTracks.userId, pro.userId)),
      ).toEqual([]);
    },
  );

  it('asks for a missing answer', async () => {
    const pro = await proWithRelease(1);
    const { isKaraoke: _, ...partial } = CONTENT_ID_ELIGIBLE_ANSWERS;
    const response = await optIn(pro.cookie, pro.trackIds[0] ?? '', partial);
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields).toEqual({
      isKaraoke: CONTENT_ID_MESSAGES.answerRequired,
    });
  });

  it.each([
    ['a Basic artist', { plan: 'basic' as const }],
    [
      'a Pro artist whose subscription ended',
      {
        plan: 'pro' as const,
        subscription: 'canceled' as const,
        subscriptionEnd: new Date(Date.now() - DAY_MS),
      },
    ],
  ])('refuses %s', async (_, options) => {
    const artist = await system.signedInUser(options);
    const { releaseId, trackIds } = await createTestRelease(system, artist.userId);
    const response = await optIn(artist.cookie, trackIds[0] ?? '');
    expect(response.status).toBe(options.plan === 'basic' ? 403 : 402);
    if (options.plan === 'basic') {
      expect((await readJson(response)).error.message).toBe(CONTENT_ID_MESSAGES.proOnly);
      const read = await system.request(`/api/content-id/releases/${releaseId}`, { cookie: artist.cookie });
      expect(read.status).toBe(403);
    }
    expect(
      await system.db.select().from(contentIdTracks).where(eq(contentIdTracks.userId, artist.userId)),
    ).toEqual([]);
  });

  it("answers 404 for another artist's track and release", async () => {
    const owner = await proWithRelease(1);
    const other = await system.signedInUser({ plan: 'pro' });
    const trackId = owner.trackIds[0] ?? '';
    const response = await optIn(other.cookie, trackId);
    expect(response.status).toBe(404);
    expect((await readJson(response)).error.message).toBe(CONTENT_ID_MESSAGES.trackNotFound);
    const out = await system.request(`/api/content-id/tracks/${trackId}`, {
      method: 'DELETE',
      cookie: other.cookie,
    });
    expect(out.status).toBe(404);
    const read = await system.request(`/api/content-id/releases/${owner.releaseId}`, {
      cookie: other.cookie,
    });
    expect(read.status).toBe(404);
    expect(
      await system.db.select().from(contentIdTracks).where(eq(contentIdTracks.trackId, trackId)),
    ).toEqual([]);
  });
});

describe('opting a track out', () => {
  it('keeps the answers, marks the update for YouTube and opts in again', async () => {
    const pro = await proWithRelease(1);
    const trackId = pro.trackIds[0] ?? '';
    await optIn(pro.cookie, trackId);
    await system.db.update(contentIdTracks).set({ needsYoutubeUpdate: false });
    const response = await system.request(`/api/content-id/tracks/${trackId}`, {
      method: 'DELETE',
      cookie: pro.cookie,
    });
    expect(response.status).toBe(200);
    const view = await readJson(response);
    expect(view.tracks[0]).toMatchObject({ trackId, state: 'opted_out' });
    expect(Date.parse(view.tracks[0].changedAt)).toBeGreaterThan(Date.now() - 60_000);
    const [row] = await system.db.select().from(contentIdTracks).where(eq(contentIdTracks.trackId, trackId));
    expect(row).toMatchObject({
      isOptedIn: false,
      answers: CONTENT_ID_ELIGIBLE_ANSWERS,
      needsYoutubeUpdate: true,
    });

    const again = await optIn(pro.cookie, trackId);
    expect((await readJson(again)).tracks[0].state).toBe('opted_in');
    const audits = await system.db.select().from(auditLog).where(eq(auditLog.subjectUserId, pro.userId));
    expect(audits.map((a) => a.action).sort()).toEqual([
      'content_id.opt_in',
      'content_id.opt_in',
      'content_id.opt_out',
    ]);
  });
});

describe('the channel allow-list', () => {
  const add = (cookie: string, channelId: unknown) =>
    system.request('/api/content-id/channels', { method: 'POST', cookie, json: { channelId } });

  it.each([
    ['too short', 'UC_x5XG1OV2P6uZZ5FSM9Tt'],
    ['too long', 'UC_x5XG1OV2P6uZZ5FSM9Ttww'],
    ['without UC', 'UU_x5XG1OV2P6uZZ5FSM9Ttw'],
    ['with a character outside the alphabet', 'UC_x5XG1OV2P6uZZ5FSM9T.w'],
    ['a channel URL', `https://www.youtube.com/channel/${CHANNEL}`],
  ])('refuses a channel id %s', async (_, channelId) => {
    const pro = await system.signedInUser({ plan: 'pro' });
    const response = await add(pro.cookie, channelId);
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields).toEqual({
      channelId: CONTENT_ID_MESSAGES.channelInvalid,
    });
  });

  it('adds, refuses a duplicate, lists for the admin with opted-in tracks, and removes', async () => {
    const pro = await proWithRelease(1);
    await optIn(pro.cookie, pro.trackIds[0] ?? '');
    const added = await add(pro.cookie, ` ${CHANNEL} `);
    expect(added.status).toBe(201);
    const { items } = await readJson(added);
    expect(items).toEqual([expect.objectContaining({ channelId: CHANNEL })]);
    const duplicate = await add(pro.cookie, CHANNEL);
    expect(duplicate.status).toBe(409);
    expect((await readJson(duplicate)).error.message).toBe(CONTENT_ID_MESSAGES.channelDuplicate);

    const admin = await system.signedInUser({ roles: ['admin'] });
    const list = await system.request('/api/admin/content-id', { cookie: admin.cookie });
    expect(list.status).toBe(200);
    const entry = (await readJson(list)).items.find((item: { userId: string }) => item.userId === pro.userId);
    expect(entry).toMatchObject({
      artistName: 'Ada Pro',
      channels: [CHANNEL],
      tracks: [{ trackId: pro.trackIds[0], title: 'Track 1', releaseTitle: 'Protected' }],
    });
    expect((await system.request('/api/admin/content-id', { cookie: pro.cookie })).status).toBe(403);

    const other = await system.signedInUser({ plan: 'pro' });
    const foreign = await system.request(`/api/content-id/channels/${items[0].id}`, {
      method: 'DELETE',
      cookie: other.cookie,
    });
    expect(foreign.status).toBe(404);
    const removed = await system.request(`/api/content-id/channels/${items[0].id}`, {
      method: 'DELETE',
      cookie: pro.cookie,
    });
    expect(removed.status).toBe(200);
    expect((await readJson(removed)).items).toEqual([]);
  });

  it('refuses a Basic artist', async () => {
    const basic = await system.signedInUser({ plan: 'basic' });
    expect((await add(basic.cookie, CHANNEL)).status).toBe(403);
    expect((await system.request('/api/content-id/channels', { cookie: basic.cookie })).status).toBe(403);
  });
});
