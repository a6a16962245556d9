/**
 * Issue 18: money and catalogue after a lapse (decision 120), fix and resubmit, the owner's player
 * (decision 121), and the edit rules' year message.
 */
import { GATE_MESSAGE } from '@tunedrop/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, producers, releases, songwriters, tracks } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

const lapsed = (plan: 'basic' | 'pro' = 'basic') =>
  system.signedInUser({
    artistName: 'Lapsed Artist',
    plan,
    subscription: 'canceled',
    subscriptionEnd: new Date(Date.now() - 24 * 3600 * 1000),
  });

async function expectGated(response: Response) {
  expect(response.status).toBe(402);
  expect((await readJson(response)).error.message).toBe(GATE_MESSAGE);
}

describe('after a lapse (decision 120)', () => {
  it('a canceled subscriber past the end reaches the wallet and withdraws', async () => {
    // Pro's $20 minimum, so the $30 balance of issue 18 can be withdrawn.
    const user = await lapsed('pro');
    await fundUser(system, user.userId, 3000);
    const wallet = await system.request('/api/wallet', { cookie: user.cookie });
    expect(wallet.status).toBe(200);
    expect((await readJson(wallet)).balanceCents).toBe(3000);
    const settings = await system.request('/api/wallet/payment-settings', {
      method: 'PUT',
      cookie: user.cookie,
      json: { payment_method: 'paypal', payment_details: { paypal_email: 'lapsed@example.com' } },
    });
    expect(settings.status).toBe(200);
    const withdrawal = await system.request('/api/wallet/withdrawals', {
      method: 'POST',
      cookie: user.cookie,
      json: { amount: 30 },
    });
    expect(withdrawal.status).toBe(201);
    const ledger = await system.request('/api/royalties/ledger', { cookie: user.cookie });
    expect(ledger.status).toBe(200);
  });

  it('an account with no subscription at all (royalty shares only) reaches the same money pages', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    await fundUser(system, user.userId, 2500);
    await savePaypal(system, user.userId);
    const wallet = await system.request('/api/wallet', { cookie: user.cookie });
    expect(wallet.status).toBe(200);
    expect((await readJson(wallet)).balanceCents).toBe(2500);
  });

  it('reads My Songs and the release page and requests a takedown, but cannot upload, build, edit or see analytics', async () => {
    const user = await lapsed();
    const live = await createTestRelease(system, user.userId, { title: 'Still Mine', status: 'live' });
    const pending = await createTestRelease(system, user.userId, { title: 'In Review' });

    const list = await system.request('/api/releases', { cookie: user.cookie });
    expect(list.status).toBe(200);
    expect((await readJson(list)).items.map((item: { title: string }) => item.title).sort()).toEqual([
      'In Review',
      'Still Mine',
    ]);
    const detail = await system.request(`/api/releases/${live.releaseId}/detail`, { cookie: user.cookie });
    expect(detail.status).toBe(200);
    expect((await readJson(detail)).title).toBe('Still Mine');
    const takedown = await system.request(`/api/releases/${live.releaseId}/takedown`, {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(takedown.status).toBe(200);
    expect((await readJson(takedown)).release.isTakedownPending).toBe(true);

    await expectGated(await system.request('/api/builder/draft', { cookie: user.cookie }));
    await expectGated(
      await system.request('/api/builder/releases', { method: 'POST', cookie: user.cookie, json: {} }),
    );
    await expectGated(await system.request('/api/uploads', { method: 'POST', cookie: user.cookie }));
    await expectGated(await system.request('/api/analytics', { cookie: user.cookie }));
    await expectGated(
      await system.request(`/api/releases/${pending.releaseId}`, {
        method: 'PATCH',
        cookie: user.cookie,
        json: { title: 'x' },
      }),
    );
    await expectGated(
      await system.request(`/api/releases/${pending.releaseId}`, { method: 'DELETE', cookie: user.cookie }),
    );
  });
});

describe('POST /api/releases/:id/resubmit (fix and resubmit)', () => {
  it('moves the owner’s rejected release back to pending, audits it and keeps the reason in the history', async () => {
    const owner = await system.signedInUser({ artistName: 'Fixer' });
    const { releaseId } = await createTestRelease(system, owner.userId, {
      title: 'Needs Fixing',
      status: 'rejected',
      rejectionReason: 'Cover art is blurry',
    });
    const edit = await system.request(`/api/releases/${releaseId}`, {
      method: 'PATCH',
      cookie: owner.cookie,
      json: {
        title: 'Fixed Title',
        primaryArtists: ['Fixer'],
        genre: 'Rock',
        copyrightHolder: 'Fixer',
        copyrightYear: 2020,
        publishingHolder: 'Fixer',
      },
    });
    expect(edit.status).toBe(200);
    expect((await readJson(edit)).release).toMatchObject({ title: 'Fixed Title', status: 'rejected' });

    const response = await system.request(`/api/releases/${releaseId}/resubmit`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(response.status).toBe(200);
    expect((await readJson(response)).release).toMatchObject({ status: 'pending', title: 'Fixed Title' });
    const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(row?.status).toBe('pending');

    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.releaseId, releaseId), eq(auditLog.action, 'release.resubmit')));
    expect(audit).toMatchObject({
      actorId: owner.userId,
      before: { status: 'rejected', rejectionReason: 'Cover art is blurry' },
      after: { status: 'pending' },
    });

    const detail = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: owner.cookie }),
    );
    expect(detail.statusHistory.at(-1)).toMatchObject({
      status: 'pending',
      note: 'Resubmitted by the artist. Rejection reason was: Cover art is blurry',
    });

    // Now pending: a second resubmit is refused by the UPDATE's own status check.
    const again = await system.request(`/api/releases/${releaseId}/resubmit`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(again.status).toBe(409);
    expect((await readJson(again)).error.message).toBe('Only a rejected release can be resubmitted.');
  });

  it('is 404 for someone else’s release and 409 for a live one; banned owners are refused', async () => {
    const owner = await system.signedInUser();
    const stranger = await system.signedInUser();
    const rejected = await createTestRelease(system, owner.userId, { status: 'rejected' });
    const live = await createTestRelease(system, owner.userId, { status: 'live' });
    const foreign = await system.request(`/api/releases/${rejected.releaseId}/resubmit`, {
      method: 'POST',
      cookie: stranger.cookie,
    });
    expect(foreign.status).toBe(404);
    const fromLive = await system.request(`/api/releases/${live.releaseId}/resubmit`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(fromLive.status).toBe(409);

    const banned = await system.signedInUser({ banReason: 'Spam' });
    const bannedRelease = await createTestRelease(system, banned.userId, { status: 'rejected' });
    const refused = await system.request(`/api/releases/${bannedRelease.releaseId}/resubmit`, {
      method: 'POST',
      cookie: banned.cookie,
    });
    expect(refused.status).toBe(403);
    const [row] = await system.db.select().from(releases).where(eq(releases.id, bannedRelease.releaseId));
    expect(row?.status).toBe('rejected');
  });

  it('lets the owner delete a rejected release', async () => {
    const owner = await system.signedInUser();
    const { releaseId } = await createTestRelease(system, owner.userId, { status: 'rejected' });
    const response = await system.request(`/api/releases/${releaseId}`, {
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(response.status).toBe(200);
    expect(await system.db.select().from(releases).where(eq(releases.id, releaseId))).toEqual([]);
  });
});

describe('GET /api/releases/:id/tracks/:trackId/audio (owner’s player)', () => {
  it('streams the owner’s WAV whole and by Range; others get 404, visitors 401', async () => {
    const owner = await system.signedInUser();
    const stranger = await system.signedInUser();
    const { releaseId, trackIds } = await createTestRelease(system, owner.userId, { status: 'live' });
    const trackId = trackIds[0] as string;
    const [track] = await system.db.select().from(tracks).where(eq(tracks.id, trackId));
    const url = `/api/releases/${releaseId}/tracks/${trackId}/audio`;

    const whole = await system.request(url, { cookie: owner.cookie });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(track?.fileSizeBytes);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');

    const part = await system.request(url, { cookie: owner.cookie, headers: { range: 'bytes=8-15' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 8-15/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('WAVEfmt ');

    const beyond = await system.request(url, {
      cookie: owner.cookie,
      headers: { range: `bytes=${bytes.length + 10}-` },
    });
    expect(beyond.status).toBe(416);

    expect((await system.request(url, { cookie: stranger.cookie })).status).toBe(404);
    expect((await system.request(url)).status).toBe(401);
    const otherTrack = await createTestRelease(system, stranger.userId);
    const mixed = await system.request(`/api/releases/${releaseId}/tracks/${otherTrack.trackIds[0]}/audio`, {
      cookie: owner.cookie,
    });
    expect(mixed.status).toBe(404);
  });
});

describe('Edit Release year message', () => {
  it('says the real allowed range for a future year', async () => {
    const owner = await system.signedInUser({ plan: 'pro' });
    const { releaseId } = await createTestRelease(system, owner.userId);
    const response = await system.request(`/api/releases/${releaseId}`, {
      method: 'PATCH',
      cookie: owner.cookie,
      json: {
        title: 'T',
        primaryArtists: ['A'],
        genre: 'Rock',
        copyrightHolder: 'H',
        copyrightYear: 2099,
        publishingHolder: 'P',
      },
    });
    expect(response.status).toBe(422);
    const year = new Date().getFullYear();
    expect((await readJson(response)).error.fields.copyrightYear).toBe(
      `Valid copyright year is required (1900 to ${year})`,
    );
  });
});

describe('Edit Release keeps release and track artists consistent', () => {
  it('applies a release-level artist change to every track, so the detail and export agree', async () => {
    const owner = await system.signedInUser({ plan: 'pro', artistName: 'Test Artist' });
    const { releaseId, trackIds } = await createTestRelease(system, owner.userId, { trackCount: 2 });
    // An older desync: track 2 carries a featured name the release does not list.
    await system.db
      .update(tracks)
      .set({ featuredArtistsData: [{ name: 'Ghost' }] })
      .where(eq(tracks.id, trackIds[1] as string));
    const response = await system.request(`/api/releases/${releaseId}`, {
      method: 'PATCH',
      cookie: owner.cookie,
      json: {
        title: 'Together',
        primaryArtists: ['Renamed Artist', 'Guest Two'],
        featuredArtists: ['Feat One'],
        genre: 'Rock',
        copyrightHolder: 'H',
        copyrightYear: 2020,
        publishingHolder: 'P',
      },
    });
    expect(response.status).toBe(200);
    const detail = await readJson(
      await system.request(`/api/releases/${releaseId}/detail`, { cookie: owner.cookie }),
    );
    expect(detail.primaryArtists).toEqual(['Renamed Artist', 'Guest Two']);
    expect(detail.featuredArtists).toEqual(['Feat One']);
    for (const track of detail.tracks) {
      expect(track.primaryArtists).toEqual(['Renamed Artist', 'Guest Two']);
      expect(track.featuredArtists).toEqual(['Feat One']);
    }
  });

  it('refuses a change that would give a track more than four primary artists, changing nothing', async () => {
    const owner = await system.signedInUser({ plan: 'pro' });
    const { releaseId } = await createTestRelease(system, owner.userId, { title: 'Crowded' });
    const response = await system.request(`/api/releases/${releaseId}`, {
      method: 'PATCH',
      cookie: owner.cookie,
      json: {
        title: 'Too Many',
        primaryArtists: ['A', 'B', 'C', 'D', 'E'],
        genre: 'Rock',
        copyrightHolder: 'H',
        copyrightYear: 2020,
        publishingHolder: 'P',
      },
    });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.message).toBe(
      'Maximum 4 primary artists per track (Spotify limit).',
    );
    const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(row?.title).toBe('Crowded');
  });
});

describe('PUT /api/releases/:id/tracks (titles, explicit, credits, order)', () => {
  const trackBody = (id: string, title: string, primary: string[], explicit = false) => ({
    id,
    title,
    explicit,
    primaryArtists: primary.map((name) => ({ name })),
    featuredArtists: [],
    songwriters: [{ firstName: 'Ann', lastName: 'Writer', role: 'lyrics' }],
    producers: [{ firstName: 'Bo', lastName: 'Maker' }],
  });

  it('reorders and rewrites the tracks and recomputes the release artists from them', async () => {
    const owner = await system.signedInUser({ plan: 'pro' });
    const { releaseId, trackIds } = await createTestRelease(system, owner.userId, {
      trackCount: 2,
      status: 'rejected',
    });
    const [first, second] = trackIds as [string, string];
    const response = await system.request(`/api/releases/${releaseId}/tracks`, {
      method: 'PUT',
      cookie: owner.cookie,
      json: {
        tracks: [
          trackBody(second, 'Now First', ['Duo A', 'Duo B'], true),
          trackBody(first, 'Now Second', ['Duo A']),
        ],
      },
    });
    expect(response.status).toBe(200);
    const rows = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(second)).toMatchObject({ position: 1, title: 'Now First', explicit: true });
    expect(byId.get(first)).toMatchObject({ position: 2, title: 'Now Second', explicit: false });
    const [release] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(release?.primaryArtists).toEqual(['Duo A', 'Duo B']);
    const writers = await system.db.select().from(songwriters).where(eq(songwriters.trackId, first));
    expect(writers.map((writer) => [writer.firstName, writer.role])).toEqual([['Ann', 'lyrics']]);
    const makers = await system.db.select().from(producers).where(eq(producers.trackId, first));
    expect(makers.map((maker) => maker.lastName)).toEqual(['Maker']);
  });

  it('refuses a live release (409), a missing track (422), duplicate titles (422) and a stranger (404)', async () => {
    const owner = await system.signedInUser({ plan: 'pro' });
    const stranger = await system.signedInUser({ plan: 'pro' });
    const live = await createTestRelease(system, owner.userId, { status: 'live' });
    const put = (releaseId: string, cookie: string, body: unknown) =>
      system.request(`/api/releases/${releaseId}/tracks`, { method: 'PUT', cookie, json: body });
    const liveBody = { tracks: [trackBody(live.trackIds[0] as string, 'X', ['A'])] };
    expect((await put(live.releaseId, owner.cookie, liveBody)).status).toBe(409);
    expect((await put(live.releaseId, stranger.cookie, liveBody)).status).toBe(404);
    const two = await createTestRelease(system, owner.userId, { trackCount: 2 });
    const [a, b] = two.trackIds as [string, string];
    expect((await put(two.releaseId, owner.cookie, { tracks: [trackBody(a, 'Only', ['A'])] })).status).toBe(
      422,
    );
    const dup = await put(two.releaseId, owner.cookie, {
      tracks: [trackBody(a, 'Same', ['A']), trackBody(b, 'same', ['A'])],
    });
    expect(dup.status).toBe(422);
    const unchanged = await system.db.select().from(tracks).where(eq(tracks.releaseId, two.releaseId));
    expect(unchanged.map((row) => row.title).sort()).toEqual(['Track 1', 'Track 2']);
  });
});
