/**
 * Release time and territories through the API (issue 26 finding 7, record 199): the builder and Edit
 * Release validate them with the one shared schema and store them; the release page and the review card
 * show them; the go-live job goes live at the chosen instant; the columns refuse inconsistent rows.
 */

import type { ReleaseSubmissionInput } from '@tunedrop/shared/schemas/builder';
import { AVAILABILITY_MESSAGES } from '@tunedrop/shared/schemas/release-availability';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryTargets, releases } from '../../db/schema';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { promoteReleases } from '../delivery';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

const submit = (cookie: string, body: unknown) =>
  system.request('/api/builder/releases', { method: 'POST', cookie, json: body });

function withAvailability(body: ReleaseSubmissionInput, availability: unknown): ReleaseSubmissionInput {
  return { ...body, release: { ...body.release, availability } } as ReleaseSubmissionInput;
}

const MOMENT_EXCLUDE = {
  releaseTimeMode: 'worldwide_moment',
  releaseTime: '00:00',
  releaseTimeZone: 'America/New_York',
  territoryMode: 'exclude',
  territories: ['fr', 'DE'],
};

describe('the builder submission', () => {
  it('stores a worldwide moment and an exclude list, shown on the release page and the review card', async () => {
    const artist = await system.signedInUser({ plan: 'basic', artistName: 'Luna Park' });
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    const files = await uploadReleaseFiles(system, artist.cookie, 1);
    const body = basicSubmission(files, { artistName: 'Luna Park' });
    body.release.releaseDate = '2027-01-15';
    body.release.title = 'Moment Everywhere But Two';
    const response = await submit(artist.cookie, withAvailability(body, MOMENT_EXCLUDE));
    expect(response.status).toBe(201);
    const { release } = await readJson(response);
    const [row] = await system.db.select().from(releases).where(eq(releases.id, release.id));
    expect(row).toMatchObject({
      releaseTimeMode: 'worldwide_moment',
      releaseTime: '00:00',
      releaseTimeZone: 'America/New_York',
      territoryMode: 'exclude',
      territories: ['DE', 'FR'],
    });
    expect(row?.releaseAt?.toISOString()).toBe('2027-01-15T05:00:00.000Z');

    const expected = {
      releaseTimeMode: 'worldwide_moment',
      releaseTime: '00:00',
      releaseTimeZone: 'America/New_York',
      releaseAt: '2027-01-15T05:00:00.000Z',
      territoryMode: 'exclude',
      territories: ['DE', 'FR'],
    };
    const detail = await readJson(
      await system.request(`/api/releases/${release.id}/detail`, { cookie: artist.cookie }),
    );
    expect(detail.release?.availability ?? detail.availability).toEqual(expected);
    const edit = await readJson(
      await system.request(`/api/releases/${release.id}`, { cookie: artist.cookie }),
    );
    expect(edit.release.availability).toEqual(expected);
    const cards = await readJson(
      await system.request('/api/admin/releases?tab=pending&q=Moment%20Everywhere', {
        cookie: moderator.cookie,
      }),
    );
    const card = cards.items.find((item: { id: string }) => item.id === release.id);
    expect(card?.availability).toEqual(expected);
  });

  it('defaults to local midnight, worldwide when left out', async () => {
    const artist = await system.signedInUser({ plan: 'basic', artistName: 'Luna Park' });
    const files = await uploadReleaseFiles(system, artist.cookie, 1);
    const response = await submit(artist.cookie, basicSubmission(files, { artistName: 'Luna Park' }));
    expect(response.status).toBe(201);
    const { release } = await readJson(response);
    const [row] = await system.db.select().from(releases).where(eq(releases.id, release.id));
    expect(row).toMatchObject({
      releaseTimeMode: 'local_midnight',
      releaseTime: null,
      releaseTimeZone: null,
      releaseAt: null,
      territoryMode: 'worldwide',
      territories: [],
    });
  });

  it('refuses unknown codes, an empty list and a moment without a zone, creating nothing', async () => {
    const artist = await system.signedInUser({ plan: 'basic', artistName: 'Luna Park' });
    const files = await uploadReleaseFiles(system, artist.cookie, 1);
    const body = basicSubmission(files, { artistName: 'Luna Park' });
    const cases: [unknown, string, string][] = [
      [
        { territoryMode: 'include', territories: ['DE', 'XX', 'uk'] },
        'release.availability.territories',
        AVAILABILITY_MESSAGES.unknownCodes(['UK', 'XX']),
      ],
      [
        { territoryMode: 'include', territories: [] },
        'release.availability.territories',
        AVAILABILITY_MESSAGES.includeEmpty,
      ],
      [{ territoryMode: 'exclude' }, 'release.availability.territories', AVAILABILITY_MESSAGES.excludeEmpty],
      [
        { releaseTimeMode: 'worldwide_moment', releaseTime: '00:00' },
        'release.availability.releaseTimeZone',
        AVAILABILITY_MESSAGES.releaseTimeZoneRequired,
      ],
      [
        { releaseTimeMode: 'worldwide_moment', releaseTime: '25:00', releaseTimeZone: 'UTC' },
        'release.availability.releaseTime',
        AVAILABILITY_MESSAGES.releaseTimeInvalid,
      ],
      [
        { territoryMode: 'everywhere' },
        'release.availability.territoryMode',
        AVAILABILITY_MESSAGES.territoryModeInvalid,
      ],
    ];
    for (const [availability, field, message] of cases) {
      const response = await submit(artist.cookie, withAvailability(body, availability));
      expect(response.status, JSON.stringify(availability)).toBe(422);
      expect((await readJson(response)).error.fields[field]).toBe(message);
    }
    const mine = await system.db.select().from(releases).where(eq(releases.userId, artist.userId));
    expect(mine).toHaveLength(0);
  });
});

describe('Edit Release', () => {
  it('changes them, keeps them when left out, and refuses bad ones', async () => {
    const artist = await system.signedInUser({ plan: 'pro' });
    const { releaseId } = await createTestRelease(system, artist.userId, { releaseDate: '2027-06-01' });
    const base = {
      title: 'Test Release',
      genre: 'Pop',
      primaryArtists: ['Test Artist'],
      featuredArtists: [],
      labelName: null,
      copyrightHolder: 'Test Artist',
      publishingHolder: 'Test Artist',
      copyrightYear: new Date().getFullYear(),
    };
    const patch = (json: unknown) =>
      system.request(`/api/releases/${releaseId}`, { method: 'PATCH', cookie: artist.cookie, json });
    const changed = await patch({
      ...base,
      availability: {
        releaseTimeMode: 'worldwide_moment',
        releaseTime: '18:00',
        releaseTimeZone: 'Europe/Berlin',
        territoryMode: 'include',
        territories: ['JP', 'US'],
      },
    });
    expect(changed.status).toBe(200);
    expect((await readJson(changed)).release.availability).toEqual({
      releaseTimeMode: 'worldwide_moment',
      releaseTime: '18:00',
      releaseTimeZone: 'Europe/Berlin',
      releaseAt: '2027-06-01T16:00:00.000Z',
      territoryMode: 'include',
      territories: ['JP', 'US'],
    });
    const kept = await patch({ ...base, title: 'Renamed' });
    expect(kept.status).toBe(200);
    expect((await readJson(kept)).release.availability.territories).toEqual(['JP', 'US']);

    const refused = await patch({ ...base, availability: { territoryMode: 'exclude', territories: ['ZZ'] } });
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).error.fields['availability.territories']).toBe(
      AVAILABILITY_MESSAGES.unknownCodes(['ZZ']),
    );
    const back = await patch({ ...base, availability: {} });
    expect((await readJson(back)).release.availability).toEqual({
      releaseTimeMode: 'local_midnight',
      releaseTime: null,
      releaseTimeZone: null,
      releaseAt: null,
      territoryMode: 'worldwide',
      territories: [],
    });
  });
});

describe('the columns', () => {
  it('existing and fixture releases are local midnight, worldwide; inconsistent rows are refused', async () => {
    const artist = await system.signedInUser({ plan: 'pro' });
    const { releaseId } = await createTestRelease(system, artist.userId);
    const [row] = await system.db.select().from(releases).where(eq(releases.id, releaseId));
    expect(row).toMatchObject({
      releaseTimeMode: 'local_midnight',
      territoryMode: 'worldwide',
      territories: [],
    });
    const bad = [
      sql`update releases set territory_mode = 'include' where id = ${releaseId}`,
      sql`update releases set territories = '{DE}' where id = ${releaseId}`,
      sql`update releases set release_time_mode = 'worldwide_moment' where id = ${releaseId}`,
      sql`update releases set release_at = now() where id = ${releaseId}`,
      sql`update releases set release_time = '10:00', release_time_zone = 'UTC' where id = ${releaseId}`,
    ];
    for (const statement of bad) await expect(system.db.execute(statement)).rejects.toThrow();
  });
});

describe('going live', () => {
  async function approvedAndAcknowledged(values: Partial<typeof releases.$inferInsert>) {
    const artist = await system.signedInUser({ plan: 'pro' });
    const { releaseId } = await createTestRelease(system, artist.userId, { status: 'approved' });
    await system.db.update(releases).set(values).where(eq(releases.id, releaseId));
    const [target] = await system.db
      .insert(deliveryTargets)
      .values({
        name: `Go-live ${releaseId}`,
        scheme: 'file',
        urlMasked: 'file:///tmp/h3-none',
        secret: 'x',
        dpid: 'PADPIDA2009101501Y',
        platforms: ['spotify'],
        enabled: false,
      })
      .returning();
    await system.db.insert(deliveries).values({
      releaseId,
      targetId: target?.id as string,
      action: 'new',
      state: 'acknowledged',
      platforms: ['spotify'],
    });
    return releaseId;
  }
  const status = async (id: string) =>
    (await system.db.select({ status: releases.status }).from(releases).where(eq(releases.id, id)))[0]
      ?.status;

  it('a worldwide moment goes live at its instant', async () => {
    const id = await approvedAndAcknowledged({
      releaseDate: '2027-01-15',
      releaseTimeMode: 'worldwide_moment',
      releaseTime: '00:00',
      releaseTimeZone: 'America/New_York',
      releaseAt: new Date('2027-01-15T05:00:00Z'),
    });
    await promoteReleases(system.db, undefined, new Date('2027-01-15T04:59:00Z'));
    expect(await status(id)).toBe('approved');
    await promoteReleases(system.db, undefined, new Date('2027-01-15T05:00:00Z'));
    expect(await status(id)).toBe('live');
  });

  it('local midnight goes live at the first local midnight (00:00 UTC+14)', async () => {
    const id = await approvedAndAcknowledged({ releaseDate: '2027-02-10' });
    await promoteReleases(system.db, undefined, new Date('2027-02-09T09:59:00Z'));
    expect(await status(id)).toBe('approved');
    await promoteReleases(system.db, undefined, new Date('2027-02-09T10:00:00Z'));
    expect(await status(id)).toBe('live');
  });
});
