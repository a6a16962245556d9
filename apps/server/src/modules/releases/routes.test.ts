import { RELEASE_STATUSES } from '@tunedrop/shared';
import { currentYear } from '@tunedrop/shared/schemas/builder';
import { RELEASE_MESSAGES } from '@tunedrop/shared/schemas/releases';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { producers, releases, songwriters, tracks, webhookMessages } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { addTestCover } from '../../test-support/releases-fixtures';
import { releaseMail } from '../catalogue';

let system: TestSystem;
let owner: Awaited<ReturnType<TestSystem['signedInUser']>>;
let stranger: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ artistName: 'Owner Artist', plan: 'pro' });
  stranger = await system.signedInUser({ artistName: 'Someone Else' });
});
afterAll(async () => system?.close());

const editBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Edited Title',
  primaryArtists: ['Owner Artist', 'Guest Two'],
  featuredArtists: ['Feat One', ' ', ''],
  genre: 'Rock',
  labelName: 'My Label',
  copyrightHolder: 'Owner Holdings',
  copyrightYear: 2020,
  publishingHolder: 'Owner Publishing',
  ...overrides,
});

const fileExists = (key: string) => system.storage.exists(key);

describe('GET /api/releases (My Songs)', () => {
  it('lists only the owner releases, newest first, with exactly the fields the list shows', async () => {
    const user = await system.signedInUser({ artistName: 'Lister' });
    const empty = await system.request('/api/releases', { cookie: user.cookie });
    expect(empty.status).toBe(200);
    expect(await readJson(empty)).toEqual({ items: [], nextCursor: null });

    const older = await createTestRelease(system, user.userId, {
      title: 'Older',
      trackCount: 3,
      createdAt: new Date('2024-01-01T00:00:00Z'),
    });
    const newer = await createTestRelease(system, user.userId, {
      title: 'Newer',
      status: 'rejected',
      rejectionReason: 'Cover art is blurry',
      createdAt: new Date('2024-02-01T00:00:00Z'),
    });
    await addTestCover(system, user.userId, newer.releaseId);
    await createTestRelease(system, stranger.userId, { title: 'Not mine' });

    const body = await readJson(await system.request('/api/releases', { cookie: user.cookie }));
    expect(body.items.map((item: { title: string }) => item.title)).toEqual(['Newer', 'Older']);
    expect(body.items[0]).toEqual({
      id: newer.releaseId,
      title: 'Newer',
      primaryArtists: ['Test Artist'],
      trackCount: 1,
      status: 'rejected',
      isTakedownPending: false,
      rejectionReason: 'Cover art is blurry',
      coverUrl: expect.stringMatching(
        new RegExp(`^/api/releases/${newer.releaseId}/cover/small\\?v=[0-9a-f]{12}$`),
      ),
      storeRejections: [],
      updateInReview: false,
    });
    expect(body.items[1]).toMatchObject({ id: older.releaseId, trackCount: 3, coverUrl: null });
  });

  it('hides a stored rejection reason once the release is no longer rejected', async () => {
    const user = await system.signedInUser();
    await createTestRelease(system, user.userId, { status: 'pending', rejectionReason: 'old reason' });
    const body = await readJson(await system.request('/api/releases', { cookie: user.cookie }));
    expect(body.items[0].rejectionReason).toBeNull();
  });

  it('pages with a cursor without skipping or repeating rows, even with equal creation times', async () => {
    const user = await system.signedInUser();
    const sameTime = new Date('2024-05-05T05:05:05.123Z');
    const created: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      const { releaseId } = await createTestRelease(system, user.userId, {
        title: `R${index}`,
        createdAt: index < 4 ? sameTime : new Date(Date.UTC(2024, 0, index + 1)),
      });
      created.push(releaseId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await readJson(await system.request(`/api/releases${query}`, { cookie: user.cookie }));
      expect(page.items, JSON.stringify(page)).toBeDefined();
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((item: { id: string }) => item.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect([...seen].sort()).toEqual([...created].sort());
    expect(new Set(seen).size).toBe(7);
    // Newest first: the four May releases (equal times, ordered by id), then January 7, 6, 5.
    expect(new Set(seen.slice(0, 4))).toEqual(new Set(created.slice(0, 4)));
    expect(seen.slice(4)).toEqual([created[6], created[5], created[4]]);
  });

  it('refuses a malformed cursor with 422', async () => {
    const response = await system.request('/api/releases?cursor=not-a-cursor', { cookie: owner.cookie });
    expect(response.status).toBe(422);
  });

  it('needs a session (401); a lapsed subscriber still reads their list (decision 120)', async () => {
    expect((await system.request('/api/releases')).status).toBe(401);
    const lapsed = await system.signedInUser({ subscription: 'inactive' });
    expect((await system.request('/api/releases', { cookie: lapsed.cookie })).status).toBe(200);
  });
});

describe('owner isolation', () => {
  it('answers 404 to anyone but the owner for read, edit, delete, takedown and cover', async () => {
    const { releaseId } = await createTestRelease(system, owner.userId, { status: 'pending' });
    await addTestCover(system, owner.userId, releaseId);
    const approved = await createTestRelease(system, owner.userId, { status: 'approved' });
    const as = { cookie: stranger.cookie };
    expect((await system.request(`/api/releases/${releaseId}`, as)).status).toBe(404);
    expect(
      (await system.request(`/api/releases/${releaseId}`, { ...as, method: 'PATCH', json: editBody() }))
        .status,
    ).toBe(404);
    expect((await system.request(`/api/releases/${releaseId}`, { ...as, method: 'DELETE' })).status).toBe(
      404,
    );
    expect(
      (await system.request(`/api/releases/${approved.releaseId}/takedown`, { ...as, method: 'POST' }))
        .status,
    ).toBe(404);
    expect((await system.request(`/api/releases/${releaseId}/cover/small`, as)).status).toBe(404);
    // A missing release looks exactly the same.
    const missing = await system.request('/api/releases/00000000-0000-4000-8000-000000000000', as);
    expect(missing.status).toBe(404);
    expect((await system.request('/api/releases/not-a-uuid', as)).status).toBe(404);

    const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(row?.title).toBe('Test Release');
    const [other] = await system.db.select().from(releases).where(eq(releases.id, approved.releaseId));
    expect(other?.takedownRequested).toBe(false);
  });

  it('serves the thumbnail (never the original) to the owner and to staff', async () => {
    const { releaseId } = await createTestRelease(system, owner.userId);
    const keys = await addTestCover(system, owner.userId, releaseId);
    const mine = await system.request(`/api/releases/${releaseId}/cover/small`, { cookie: owner.cookie });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await mine.arrayBuffer());
    const stored = await system.storage.get(keys.smallKey);
    expect(bytes.length).toBe(stored.sizeBytes);
    stored.body.destroy();
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    const staff = await system.request(`/api/releases/${releaseId}/cover/medium`, {
      cookie: moderator.cookie,
    });
    expect(staff.status).toBe(200);
    expect(
      (await system.request(`/api/releases/${releaseId}/cover/original`, { cookie: owner.cookie })).status,
    ).toBe(422);
  });
});

describe('release.metadata_changed (issue 40)', () => {
  it('is written with an edit, naming the changed fields; an edit changing nothing writes none', async () => {
    const hooked = await system.signedInUser({ plan: 'pro', artistName: 'Owner Artist' });
    const hook = await system.request('/api/webhooks/endpoints', {
      method: 'POST',
      cookie: hooked.cookie,
      json: { url: 'http://127.0.0.1:9/hooks', eventTypes: ['release.metadata_changed'] },
    });
    expect(hook.status).toBe(201);
    const { releaseId } = await createTestRelease(system, hooked.userId, { status: 'pending' });
    const edit = () =>
      system.request(`/api/releases/${releaseId}`, {
        cookie: hooked.cookie,
        method: 'PATCH',
        json: editBody(),
      });
    expect((await edit()).status).toBe(200);
    expect((await edit()).status).toBe(200);
    const events = await system.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.accountId, hooked.userId));
    expect(events).toHaveLength(1);
    const data = (events[0]?.payload as { data?: { releaseId: string; fields: string[] } } | undefined)?.data;
    expect(data?.releaseId).toBe(releaseId);
    expect(data?.fields).toEqual(expect.arrayContaining(['title', 'genre', 'copyrightHolder']));
  });
});

describe('status × action', () => {
  for (const status of RELEASE_STATUSES) {
    // Rejected releases can be fixed and resubmitted (issue 18, decision 121).
    const isEditable = status === 'pending' || status === 'processing' || status === 'rejected';
    const canTakedown = status === 'approved' || status === 'live';

    it(`${status}: edit is ${isEditable ? 'allowed' : 'refused'}`, async () => {
      const { releaseId } = await createTestRelease(system, owner.userId, { status });
      const response = await system.request(`/api/releases/${releaseId}`, {
        cookie: owner.cookie,
        method: 'PATCH',
        json: editBody(),
      });
      const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
      if (isEditable) {
        expect(response.status).toBe(200);
        const body = await readJson(response);
        expect(body.release).toMatchObject({
          title: 'Edited Title',
          primaryArtists: ['Owner Artist', 'Guest Two'],
          featuredArtists: ['Feat One'],
          labelName: 'My Label',
          status,
          isEditable: true,
        });
        expect(row).toMatchObject({
          title: 'Edited Title',
          genre: 'Rock',
          copyrightHolder: 'Owner Holdings',
          copyrightYear: 2020,
          publishingHolder: 'Owner Publishing',
          primaryArtistsData: [{ name: 'Owner Artist' }, { name: 'Guest Two' }],
          featuredArtistsData: [{ name: 'Feat One' }],
        });
      } else {
        expect(response.status).toBe(409);
        expect((await readJson(response)).error).toEqual({
          code: 'release_not_editable',
          message: RELEASE_MESSAGES.cannotEdit,
        });
        expect(row?.title).toBe('Test Release');
      }
    });

    it(`${status}: delete is ${isEditable ? 'allowed and removes rows and files' : 'refused'}`, async () => {
      const { releaseId, trackIds } = await createTestRelease(system, owner.userId, {
        status,
        trackCount: 2,
      });
      const cover = await addTestCover(system, owner.userId, releaseId);
      const trackKeys = (
        await system.db.select({ key: tracks.fileKey }).from(tracks).where(eq(tracks.releaseId, releaseId))
      ).map((row) => row.key);
      const response = await system.request(`/api/releases/${releaseId}`, {
        cookie: owner.cookie,
        method: 'DELETE',
      });
      const rows = await system.db.select().from(releases).where(eq(releases.id, releaseId));
      const trackRows = await system.db.select().from(tracks).where(eq(tracks.releaseId, releaseId));
      const credits = [
        ...(await system.db.select().from(songwriters).where(inArray(songwriters.trackId, trackIds))),
        ...(await system.db.select().from(producers).where(inArray(producers.trackId, trackIds))),
      ];
      const keys = [cover.coverKey, cover.smallKey, cover.mediumKey, ...trackKeys];
      const present = await Promise.all(keys.map(fileExists));
      if (isEditable) {
        expect(response.status).toBe(200);
        expect(rows).toHaveLength(0);
        expect(trackRows).toHaveLength(0);
        expect(credits).toHaveLength(0);
        expect(present).toEqual(keys.map(() => false));
      } else {
        expect(response.status).toBe(409);
        expect((await readJson(response)).error.message).toBe(RELEASE_MESSAGES.cannotEdit);
        expect(rows).toHaveLength(1);
        expect(trackRows).toHaveLength(2);
        expect(credits).toHaveLength(4);
        expect(present).toEqual(keys.map(() => true));
      }
    });

    it(`${status}: takedown request is ${canTakedown ? 'allowed once' : 'refused'}`, async () => {
      const { releaseId } = await createTestRelease(system, owner.userId, { status });
      const request = () =>
        system.request(`/api/releases/${releaseId}/takedown`, { cookie: owner.cookie, method: 'POST' });
      const first = await request();
      const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
      if (canTakedown) {
        expect(first.status).toBe(200);
        expect((await readJson(first)).release).toMatchObject({
          id: releaseId,
          isTakedownPending: true,
          status,
        });
        expect(row?.takedownRequested).toBe(true);
        expect(row?.takedownRequestedAt).toBeInstanceOf(Date);
        const second = await request();
        expect(second.status).toBe(409);
        expect((await readJson(second)).error.code).toBe('takedown_not_allowed');
      } else {
        expect(first.status).toBe(409);
        expect(row?.takedownRequested).toBe(false);
        expect(row?.takedownRequestedAt).toBeNull();
      }
    });
  }
});

describe('edit rules', () => {
  it('loads the fields of the Edit Release page for the owner', async () => {
    const { releaseId } = await createTestRelease(system, owner.userId, { status: 'processing' });
    const body = await readJson(await system.request(`/api/releases/${releaseId}`, { cookie: owner.cookie }));
    expect(body.release).toEqual({
      id: releaseId,
      title: 'Test Release',
      primaryArtists: ['Test Artist'],
      featuredArtists: [],
      genre: 'Pop',
      labelName: null,
      copyrightHolder: 'Test Artist',
      copyrightYear: new Date().getFullYear(),
      publishingHolder: 'Test Artist',
      // The fixture's date; the page warns when it is less than 14 days away (issue 26).
      releaseDate: `${new Date().getFullYear()}-12-01`,
      // Release time and territories (record 199): the defaults.
      availability: {
        releaseTimeMode: 'local_midnight',
        releaseTime: null,
        releaseTimeZone: null,
        releaseAt: null,
        territoryMode: 'worldwide',
        territories: [],
      },
      status: 'processing',
      isEditable: true,
      coverUrl: null,
      // The tracks with their full credits, for the page's tracks editor (issue 18).
      tracks: [
        {
          id: expect.any(String),
          title: 'Track 1',
          explicit: false,
          fileName: expect.stringMatching(/\.wav$/),
          durationMs: 1000,
          primaryArtists: [{ name: 'Test Artist' }],
          featuredArtists: [],
          songwriters: [{ firstName: 'Sam', middleName: null, lastName: 'Writer', role: 'music_and_lyrics' }],
          producers: [{ firstName: 'Pat', middleName: null, lastName: 'Producer' }],
        },
      ],
    });
  });

  it('answers 422 with the spec messages for missing fields and a bad year', async () => {
    const { releaseId } = await createTestRelease(system, owner.userId);
    const response = await system.request(`/api/releases/${releaseId}`, {
      cookie: owner.cookie,
      method: 'PATCH',
      json: editBody({ title: '  ', primaryArtists: [' ', ''], genre: 'Polka', copyrightYear: 1899 }),
    });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields).toMatchObject({
      title: 'Release title is required',
      primaryArtists: 'At least one primary artist is required',
      genre: 'Please select a genre',
      copyrightYear: 'Valid copyright year is required (1900 or later)',
    });
    const future = await system.request(`/api/releases/${releaseId}`, {
      cookie: owner.cookie,
      method: 'PATCH',
      json: editBody({ copyrightYear: currentYear() + 1 }),
    });
    expect(future.status).toBe(422);
    expect((await readJson(future)).error.fields.copyrightYear).toBe(
      `Valid copyright year is required (1900 to ${currentYear()})`,
    );
  });

  it('keeps the stored Spotify links of artists that stay', async () => {
    const { releaseId } = await createTestRelease(system, owner.userId);
    await system.db
      .update(releases)
      .set({
        primaryArtistsData: [{ name: 'Owner Artist', spotifyLink: 'https://open.spotify.com/artist/x' }],
      })
      .where(eq(releases.id, releaseId));
    await system.request(`/api/releases/${releaseId}`, {
      cookie: owner.cookie,
      method: 'PATCH',
      json: editBody({ primaryArtists: ['owner artist', 'New One'] }),
    });
    const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(row?.primaryArtistsData).toEqual([
      { name: 'Owner Artist', spotifyLink: 'https://open.spotify.com/artist/x' },
      { name: 'New One' },
    ]);
  });

  it('Basic: one primary artist; label, holders and year stay locked to the plan rules', async () => {
    const basic = await system.signedInUser({ plan: 'basic', artistName: 'Basic Artist' });
    const { releaseId } = await createTestRelease(system, basic.userId);
    const tooMany = await system.request(`/api/releases/${releaseId}`, {
      cookie: basic.cookie,
      method: 'PATCH',
      json: editBody(),
    });
    expect(tooMany.status).toBe(422);
    expect((await readJson(tooMany)).error.fields.primaryArtists).toBe(
      RELEASE_MESSAGES.basicOnePrimaryArtist,
    );

    const response = await system.request(`/api/releases/${releaseId}`, {
      cookie: basic.cookie,
      method: 'PATCH',
      json: editBody({ primaryArtists: ['Basic Artist'] }),
    });
    expect(response.status).toBe(200);
    const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(row).toMatchObject({
      title: 'Edited Title',
      labelName: null,
      copyrightHolder: 'Basic Artist',
      publishingHolder: 'Basic Artist',
      copyrightYear: new Date().getFullYear(),
    });
  });

  it('free_access gets the Pro rules', async () => {
    const free = await system.signedInUser({ plan: 'basic', roles: ['free_access'] });
    const { releaseId } = await createTestRelease(system, free.userId);
    const response = await system.request(`/api/releases/${releaseId}`, {
      cookie: free.cookie,
      method: 'PATCH',
      json: editBody(),
    });
    expect(response.status).toBe(200);
    expect((await readJson(response)).release.labelName).toBe('My Label');
  });
});

describe('artist mails', () => {
  it('names the release and, for a rejection, the reason', () => {
    const base = {
      to: 'a@example.com',
      artistName: 'Ann',
      releaseTitle: 'Sun\r\nBcc: x@evil.test',
      appUrl: 'http://localhost:3000',
    };
    const approved = releaseMail('approved', base);
    expect(approved.subject).toBe('Your release "Sun Bcc: x@evil.test" has been approved');
    expect(approved.text).toContain('http://localhost:3000/dashboard/songs');
    const rejected = releaseMail('rejected', { ...base, reason: 'Audio clips at 0 dBFS' });
    expect(rejected.subject).toContain('was not approved');
    expect(rejected.text).toContain('Reason: Audio clips at 0 dBFS');
    expect(releaseMail('taken_down', base).subject).toContain('has been taken down');
  });
});
