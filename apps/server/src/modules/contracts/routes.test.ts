/**
 * /api/admin/contracts (issue 39, record 285): admins create, read and edit a contract; every rule of the
 * form is the server's too (parties, releases, dates, rates, terms), a refused save changes nothing, and
 * each save is audited.
 */
import { CONTRACT_TEXTS, type ContractInput } from '@tunedrop/shared/schemas/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contracts } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let adminCookie: string;
let label: { userId: string; email: string };
let artist: { userId: string; email: string };
let other: { userId: string; email: string };
let albumA: string;
let albumB: string;
let othersRelease: string;

beforeAll(async () => {
  system = await createTestSystem();
  adminCookie = (await staff(system)).admin.cookie;
  label = await system.signedInUser({ plan: 'pro' });
  artist = await system.signedInUser({ plan: 'basic' });
  other = await system.signedInUser({ plan: 'basic' });
  albumA = (await createTestRelease(system, label.userId, { title: 'Album A' })).releaseId;
  albumB = (await createTestRelease(system, label.userId, { title: 'Album B' })).releaseId;
  othersRelease = (await createTestRelease(system, other.userId, { title: 'Not the label’s' })).releaseId;
});
afterAll(async () => system?.close());

const input = (overrides: Partial<ContractInput> = {}): ContractInput => ({
  name: 'Roster deal',
  labelEmail: label.email,
  payeeEmail: artist.email,
  startsOn: '2025-01-01',
  endsOn: null,
  defaultBasis: null,
  defaultRate: null,
  releaseIds: [albumA],
  terms: [
    { territories: [], channel: 'stream', basis: 'net', rate: '50' },
    { territories: ['gb', 'IE'], channel: 'download', store: 'iTunes', basis: 'gross', rate: '18.5' },
  ],
  ...overrides,
});

const post = (json: unknown, cookie = adminCookie) =>
  system.request('/api/admin/contracts', { method: 'POST', cookie, json });
const put = (id: string, json: unknown) =>
  system.request(`/api/admin/contracts/${id}`, { method: 'PUT', cookie: adminCookie, json });

describe('label contracts', () => {
  it('creates a contract with ordered terms, reads it back, lists it and audits it', async () => {
    const created = await post(input());
    expect(created.status).toBe(201);
    const view = await readJson(created);
    expect(view).toMatchObject({
      name: 'Roster deal',
      dealType: 'royalty',
      currency: 'USD',
      label: { id: label.userId, email: label.email },
      payee: { id: artist.userId, email: artist.email },
      startsOn: '2025-01-01',
      endsOn: null,
      releases: [{ id: albumA, title: 'Album A' }],
      terms: [
        {
          territories: [],
          channel: 'stream',
          store: null,
          basis: 'net',
          rate: '50',
          startsOn: null,
          endsOn: null,
        },
        { territories: ['GB', 'IE'], channel: 'download', store: 'iTunes', basis: 'gross', rate: '18.5' },
      ],
    });
    expect(
      await readJson(await system.request(`/api/admin/contracts/${view.id}`, { cookie: adminCookie })),
    ).toEqual(view);
    const list = await readJson(await system.request('/api/admin/contracts', { cookie: adminCookie }));
    expect(list).toContainEqual(expect.objectContaining({ id: view.id, releases: 1, terms: 2 }));

    const releases = await readJson(
      await system.request(`/api/admin/contracts/label-releases?email=${encodeURIComponent(label.email)}`, {
        cookie: adminCookie,
      }),
    );
    expect(releases.releases).toEqual([
      { id: albumA, title: 'Album A', contract: { id: view.id, name: 'Roster deal' } },
      { id: albumB, title: 'Album B', contract: null },
    ]);

    // An edit replaces the terms in their new order and adds a default rate.
    const edited = await put(
      view.id,
      input({
        releaseIds: [albumA, albumB],
        defaultBasis: 'net',
        defaultRate: '25',
        terms: [{ territories: [], channel: 'physical', basis: 'gross', rate: '25' }],
      }),
    );
    expect(edited.status).toBe(200);
    expect(await readJson(edited)).toMatchObject({
      defaultBasis: 'net',
      defaultRate: '25',
      releases: [
        { id: albumA, title: 'Album A' },
        { id: albumB, title: 'Album B' },
      ],
      terms: [{ channel: 'physical', rate: '25' }],
    });
    const audits = await system.db.select().from(auditLog).where(eq(auditLog.subjectId, view.id));
    expect(audits.map((row) => row.action)).toEqual(['contracts.create', 'contracts.edit']);
    expect(audits[1]?.after).toMatchObject({ label: label.email, payee: artist.email, defaultRate: '25' });
  });

  it('refuses bad input with the field, and a refused save changes nothing', async () => {
    const count = async () => (await system.db.select({ id: contracts.id }).from(contracts)).length;
    const before = await count();
    const refused = async (json: unknown, status: number) => {
      const response = await post(json);
      expect(response.status).toBe(status);
      return (await readJson(response)).error;
    };
    expect((await refused(input({ terms: [{ basis: 'net', rate: '100.5' }] }), 422)).fields).toMatchObject({
      'terms.0.rate': CONTRACT_TEXTS.rateInvalid,
    });
    expect(
      (await refused(input({ terms: [{ territories: ['XX'], basis: 'net', rate: '5' }] }), 422)).fields,
    ).toEqual({
      'terms.0.territories.0': CONTRACT_TEXTS.territoryInvalid('XX'),
    });
    expect((await refused(input({ endsOn: '2024-12-31' }), 422)).fields).toEqual({
      endsOn: CONTRACT_TEXTS.endBeforeStart,
    });
    expect((await refused(input({ startsOn: '2025-02-30' }), 422)).fields).toEqual({
      startsOn: CONTRACT_TEXTS.dateInvalid,
    });
    expect((await refused(input({ terms: [] }), 422)).fields).toEqual({ terms: CONTRACT_TEXTS.noTerms });
    expect((await refused(input({ defaultBasis: 'net' }), 422)).fields).toEqual({
      defaultRate: CONTRACT_TEXTS.defaultIncomplete,
    });
    expect((await refused(input({ payeeEmail: label.email }), 422)).fields).toEqual({
      payeeEmail: CONTRACT_TEXTS.payeeIsLabel,
    });
    expect((await refused(input({ payeeEmail: 'nobody@example.com' }), 422)).fields).toEqual({
      payeeEmail: CONTRACT_TEXTS.payeeNotFound,
    });
    expect((await refused(input({ releaseIds: [othersRelease] }), 422)).fields).toEqual({
      releaseIds: CONTRACT_TEXTS.releaseNotLabels,
    });
    // Album A is in "Roster deal" since the first test.
    expect((await refused(input({ name: 'Second deal', payeeEmail: other.email }), 409)).message).toBe(
      CONTRACT_TEXTS.releaseTaken('Album A', 'Roster deal'),
    );
    expect(await count()).toBe(before);
  });

  it('is for admins only', async () => {
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    expect((await post(input(), moderator.cookie)).status).toBe(403);
    const artistSession = await system.signedInUser({ plan: 'pro' });
    expect((await system.request('/api/admin/contracts', { cookie: artistSession.cookie })).status).toBe(403);
  });
});
