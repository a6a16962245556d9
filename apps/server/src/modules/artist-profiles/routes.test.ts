/**
 * Artist profiles through the API (issue 27, record 201): one on Basic, any number on a running Pro plan,
 * read-only beyond the first after a downgrade or a lapse, each account's own, and the per-profile lists.
 */

import { randomBytes } from 'node:crypto';
import {
  ARTIST_PROFILE_IMAGE_MAX_BYTES,
  ARTIST_PROFILE_MESSAGES,
} from '@tunedrop/shared/schemas/artist-profiles';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artistProfiles, profiles, releases } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

const list = async (cookie: string) => readJson(await system.request('/api/artist-profiles', { cookie }));
const add = (cookie: string, json: unknown) =>
  system.request('/api/artist-profiles', { method: 'POST', cookie, json });
const submit = (cookie: string, json: unknown) =>
  system.request('/api/builder/releases', { method: 'POST', cookie, json });

/** A submission under `artistProfileId` credited to `name` (Pro: any credit is allowed). */
async function submissionFor(cookie: string, name: string, artistProfileId?: string) {
  const files = await uploadReleaseFiles(system, cookie, 1);
  const body = basicSubmission(files, { artistName: name });
  return artistProfileId ? { ...body, artistProfileId } : body;
}

describe('artist profiles', () => {
  it('gives every account its first profile from the artist name, and it follows the account page', async () => {
    const user = await system.signedInUser({ plan: 'basic', artistName: 'Luna Park' });
    const first = await list(user.cookie);
    expect(first).toMatchObject({ canAdd: false, limit: 1 });
    expect(first.profiles).toEqual([
      expect.objectContaining({ name: 'Luna Park', isFirst: true, canRelease: true, releaseCount: 0 }),
    ]);
    await system.db.update(profiles).set({ artistName: 'Luna Parks' }).where(eq(profiles.id, user.userId));
    expect((await list(user.cookie)).profiles[0].name).toBe('Luna Parks');

    // Renaming the first profile renames the account's artist name (the Basic builder's locked holder).
    const id = first.profiles[0].id;
    const renamed = await system.request(`/api/artist-profiles/${id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      json: { name: 'Luna', spotifyArtistId: 'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF?si=x' },
    });
    expect(renamed.status).toBe(200);
    expect((await readJson(renamed)).profile).toMatchObject({
      name: 'Luna',
      spotifyArtistId: '0OdUWJ0sBjDrqHygGUXeCF',
    });
    const [account] = await system.db.select().from(profiles).where(eq(profiles.id, user.userId));
    expect(account?.artistName).toBe('Luna');
  });

  it('refuses a second profile on Basic with the Pro-feature text, and a bad Spotify or Apple id', async () => {
    const user = await system.signedInUser({ plan: 'basic' });
    const refused = await add(user.cookie, { name: 'Side Project' });
    expect(refused.status).toBe(403);
    expect((await readJson(refused)).error).toMatchObject({
      code: 'pro_feature',
      message: ARTIST_PROFILE_MESSAGES.limitBasic,
    });
    expect(ARTIST_PROFILE_MESSAGES.limitBasic).toContain('Pro feature — upgrade to unlock');
    const rows = await system.db.select().from(artistProfiles).where(eq(artistProfiles.userId, user.userId));
    expect(rows).toHaveLength(1);

    const pro = await system.signedInUser({ plan: 'pro' });
    const bad = await add(pro.cookie, { name: 'X', spotifyArtistId: 'not-an-id', appleArtistId: 'abc' });
    expect(bad.status).toBe(422);
    expect((await readJson(bad)).error.fields).toMatchObject({
      spotifyArtistId: ARTIST_PROFILE_MESSAGES.spotifyInvalid,
      appleArtistId: ARTIST_PROFILE_MESSAGES.appleInvalid,
    });
  });

  it('lets a Pro account add any number, release under each, and list My Songs per profile', async () => {
    const pro = await system.signedInUser({ plan: 'pro', artistName: 'Main Act' });
    const created = [];
    for (const name of ['Second Act', 'Third Act', 'Fourth Act']) {
      const response = await add(pro.cookie, { name, appleArtistId: '1234567' });
      expect(response.status).toBe(201);
      created.push((await readJson(response)).profile);
    }
    const all = await list(pro.cookie);
    expect(all).toMatchObject({ canAdd: true, limit: null });
    expect(all.profiles.map((p: { name: string; position: number }) => [p.position, p.name])).toEqual([
      [1, 'Main Act'],
      [2, 'Second Act'],
      [3, 'Third Act'],
      [4, 'Fourth Act'],
    ]);

    const second = created[0];
    const underSecond = await submit(pro.cookie, await submissionFor(pro.cookie, 'Second Act', second.id));
    expect(underSecond.status).toBe(201);
    const secondRelease = (await readJson(underSecond)).release.id;
    const underFirst = await submit(pro.cookie, await submissionFor(pro.cookie, 'Main Act'));
    expect(underFirst.status).toBe(201);
    const firstRelease = (await readJson(underFirst)).release.id;
    const [row] = await system.db.select().from(releases).where(eq(releases.id, secondRelease));
    expect(row?.artistProfileId).toBe(second.id);

    const ids = async (query: string) =>
      (await readJson(await system.request(`/api/releases${query}`, { cookie: pro.cookie }))).items.map(
        (item: { id: string }) => item.id,
      );
    expect(await ids(`?artistProfileId=${second.id}`)).toEqual([secondRelease]);
    expect(await ids(`?artistProfileId=${all.profiles[0].id}`)).toEqual([firstRelease]);
    expect((await ids('')).sort()).toEqual([firstRelease, secondRelease].sort());
    expect((await list(pro.cookie)).profiles[1].releaseCount).toBe(1);
  });

  it('keeps profiles beyond the first read-only for new releases after a downgrade or a lapse', async () => {
    const pro = await system.signedInUser({ plan: 'pro', artistName: 'Main Act' });
    const second = (await readJson(await add(pro.cookie, { name: 'Side Act' }))).profile;
    const old = await createTestRelease(system, pro.userId, { title: 'Kept' });
    await system.db
      .update(releases)
      .set({ artistProfileId: second.id })
      .where(eq(releases.id, old.releaseId));

    for (const change of [
      { plan: 'basic' as const },
      {
        plan: 'pro' as const,
        subscriptionStatus: 'canceled' as const,
        subscriptionEnd: new Date(Date.now() - 1000),
      },
    ]) {
      await system.db.update(profiles).set(change).where(eq(profiles.id, pro.userId));
      const state = await list(pro.cookie);
      expect(state.canAdd).toBe(false);
      expect(
        state.profiles.map((p: { name: string; canRelease: boolean }) => [p.name, p.canRelease]),
      ).toEqual([
        ['Main Act', true],
        ['Side Act', false],
      ]);
      expect((await add(pro.cookie, { name: 'Third' })).status).toBe(
        change.plan === 'basic' ? 403 : 402, // a lapsed account meets the subscription gate first
      );
      if (change.plan === 'basic') {
        const refused = await submit(pro.cookie, await submissionFor(pro.cookie, 'Main Act', second.id));
        expect(refused.status).toBe(403);
        expect((await readJson(refused)).error).toMatchObject({
          code: 'profile_read_only',
          message: ARTIST_PROFILE_MESSAGES.readOnly('Main Act'),
        });
        const allowed = await submit(pro.cookie, await submissionFor(pro.cookie, 'Main Act'));
        expect(allowed.status).toBe(201);
      }
    }
    // The old release stays under its profile and in its list.
    const items = (
      await readJson(
        await system.request(`/api/releases?artistProfileId=${second.id}`, { cookie: pro.cookie }),
      )
    ).items;
    expect(items.map((item: { title: string }) => item.title)).toEqual(['Kept']);
  });

  it("never reaches another account's profile: 404 on edit, filter, statement and release", async () => {
    const owner = await system.signedInUser({ plan: 'pro' });
    const other = await system.signedInUser({ plan: 'pro', artistName: 'Other' });
    const ownersSecond = (await readJson(await add(owner.cookie, { name: 'Owner Side' }))).profile;

    const edit = await system.request(`/api/artist-profiles/${ownersSecond.id}`, {
      method: 'PATCH',
      cookie: other.cookie,
      json: { name: 'Stolen' },
    });
    expect(edit.status).toBe(404);
    expect(
      (await system.request(`/api/releases?artistProfileId=${ownersSecond.id}`, { cookie: other.cookie }))
        .status,
    ).toBe(404);
    expect(
      (
        await system.request(`/api/royalties/statements/2026-01/summary?artistProfileId=${ownersSecond.id}`, {
          cookie: other.cookie,
        })
      ).status,
    ).toBe(404);
    const release = await submit(other.cookie, await submissionFor(other.cookie, 'Other', ownersSecond.id));
    expect(release.status).toBe(404);
    const [row] = await system.db.select().from(artistProfiles).where(eq(artistProfiles.id, ownersSecond.id));
    expect(row?.name).toBe('Owner Side');

    // The database holds the same rule: a release's profile is its owner's.
    const mine = await createTestRelease(system, other.userId);
    await expect(
      system.db
        .update(releases)
        .set({ artistProfileId: ownersSecond.id })
        .where(eq(releases.id, mine.releaseId)),
    ).rejects.toThrow();
  });

  it("narrows analytics earnings and the statement to one profile, the balance staying the account's", async () => {
    const people = await staff(system);
    const pro = await system.signedInUser({ plan: 'pro', artistName: 'Main Act' });
    const side = (await readJson(await add(pro.cookie, { name: 'Side Act' }))).profile;
    const [first] = (await list(pro.cookie)).profiles;
    await createTestRelease(system, pro.userId, {
      status: 'live',
      releaseDate: '2020-01-01',
      isrcs: ['QZPRF2600001'],
    });
    const sideRelease = await createTestRelease(system, pro.userId, {
      status: 'live',
      releaseDate: '2020-01-01',
      isrcs: ['QZPRF2600002'],
      artistProfileId: side.id,
    });
    const [row] = await system.db.select().from(releases).where(eq(releases.id, sideRelease.releaseId));
    expect(row?.artistProfileId).toBe(side.id);
    const header =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
    const lines = [
      '2026-02-10\t2026-01\tSpotify\tTest Artist\tT\tQZPRF2600001\t\t10\t100\tSong\tUS\t0\t10.00',
      '2026-02-10\t2026-01\tSpotify\tTest Artist\tT\tQZPRF2600002\t\t5\t100\tSong\tGB\t0\t4.00',
    ];
    const upload = await afterJobs(
      system,
      await system.request('/api/admin/royalties/imports?filename=profiles.tsv', {
        method: 'POST',
        body: `${[header, ...lines].join('\n')}\n`,
        headers: { 'content-type': 'application/octet-stream' },
        cookie: people.admin.cookie,
      }),
      people.admin.cookie,
    );
    const posted = await afterJobs(
      system,
      await system.request(`/api/admin/royalties/imports/${(await readJson(upload)).id}/post`, {
        method: 'POST',
        cookie: people.admin.cookie,
      }),
      people.admin.cookie,
    );
    expect(await readJson(posted)).toMatchObject({ status: 'posted' });

    const earnings = async (query: string) =>
      (
        await readJson(
          await system.request(`/api/analytics/earnings?months=all${query}`, { cookie: pro.cookie }),
        )
      ).totals.amountCents;
    expect(await earnings('')).toBe(1400);
    expect(await earnings(`&artistProfileId=${side.id}`)).toBe(400);
    expect(await earnings(`&artistProfileId=${first.id}`)).toBe(1000);

    const month = new Date().toISOString().slice(0, 7);
    const statement = async (query: string) =>
      readJson(
        await system.request(`/api/royalties/statements/${month}/summary${query}`, { cookie: pro.cookie }),
      );
    const all = await statement('');
    const ofSide = await statement(`?artistProfileId=${side.id}`);
    expect(all.artistProfile).toBeUndefined();
    expect(ofSide.artistProfile).toEqual({ id: side.id, name: 'Side Act' });
    expect(ofSide.earnings.grossCents).toBe(400);
    expect(ofSide.earnings.byCountry.map((r: { label: string }) => r.label)).toEqual(['GB']);
    expect(all.earnings.grossCents).toBe(1400);
    // One balance per account: the same closing balance in both views.
    expect(ofSide.closingCents).toBe(all.closingCents);
    const csv = await system.request(`/api/royalties/statements/${month}.csv?artistProfileId=${side.id}`, {
      cookie: pro.cookie,
    });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain('QZPRF2600002');
    expect(text).not.toContain('QZPRF2600001');
  });

  it('stores a profile image checked by content, serves it to the account only, and removes it', async () => {
    const owner = await system.signedInUser({ plan: 'basic', artistName: 'Picture Act' });
    const other = await system.signedInUser({ plan: 'basic' });
    const [profile] = (await list(owner.cookie)).profiles;
    const url = `/api/artist-profiles/${profile.id}/image`;
    const put = (cookie: string, body: Buffer | string, type: string) =>
      system.request(url, { method: 'PUT', cookie, body, headers: { 'Content-Type': type } });

    const notImage = await put(owner.cookie, 'GIF89a not an image at all', 'image/gif');
    expect(notImage.status).toBe(422);
    expect((await readJson(notImage)).error).toMatchObject({
      message: ARTIST_PROFILE_MESSAGES.imageFormat,
      fields: { image: ARTIST_PROFILE_MESSAGES.imageFormat },
    });
    const tooLarge = await put(owner.cookie, Buffer.alloc(ARTIST_PROFILE_IMAGE_MAX_BYTES + 1), 'image/png');
    expect(tooLarge.status).toBe(413);
    expect((await readJson(tooLarge)).error.message).toContain('5 MB');
    // Over the default 1 MB body limit but under 5 MB: accepted.
    const noise = await sharp(randomBytes(1000 * 1000 * 3), {
      raw: { width: 1000, height: 1000, channels: 3 },
    })
      .png()
      .toBuffer();
    expect(noise.length).toBeGreaterThan(2 * 1024 * 1024);
    expect((await put(owner.cookie, noise, 'image/png')).status).toBe(200);

    // Not square, a PNG: stored as a JPEG of the same shape.
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#0f766e80' } })
      .png()
      .toBuffer();
    // Another account can neither set nor read it.
    expect((await put(other.cookie, png, 'image/png')).status).toBe(404);
    const saved = await put(owner.cookie, png, 'image/png');
    expect(saved.status).toBe(200);
    const { profile: withImage } = await readJson(saved);
    expect(withImage.imageUrl).toMatch(new RegExp(`^${url}\\?v=`));
    expect((await list(owner.cookie)).profiles[0].imageUrl).toBe(withImage.imageUrl);
    const [row] = await system.db.select().from(artistProfiles).where(eq(artistProfiles.id, profile.id));
    const key = row?.imageKey ?? '';
    expect(key).toMatch(new RegExp(`^${owner.userId}/artist-profiles/`));

    const served = await system.request(withImage.imageUrl, { cookie: owner.cookie });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 300, height: 200 });
    expect((await system.request(url, { cookie: other.cookie })).status).toBe(404);
    expect((await system.request(url)).status).toBe(401);

    // A new image replaces the old one in storage.
    const jpeg = await sharp({ create: { width: 80, height: 80, channels: 3, background: '#ff0000' } })
      .jpeg()
      .toBuffer();
    expect((await put(owner.cookie, jpeg, 'image/jpeg')).status).toBe(200);
    expect(await system.storage.exists(key)).toBe(false);
    const [replaced] = await system.db.select().from(artistProfiles).where(eq(artistProfiles.id, profile.id));
    expect(replaced?.imageKey).not.toBe(key);

    expect((await system.request(url, { method: 'DELETE', cookie: other.cookie })).status).toBe(404);
    const removed = await system.request(url, { method: 'DELETE', cookie: owner.cookie });
    expect(removed.status).toBe(200);
    expect((await readJson(removed)).profile.imageUrl).toBeNull();
    expect(await system.storage.exists(replaced?.imageKey ?? '')).toBe(false);
    expect((await system.request(url, { cookie: owner.cookie })).status).toBe(404);
  });
});
