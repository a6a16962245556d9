/**
 * The operator's fee on a suspense payout (record 189) on the test database (PGlite by default, PostgreSQL
 * with DATABASE_URL): assigning a held code posts it as posting takes the fee, from the gross, before the
 * owner's 70 / 30 split with an invited payee whose share is held.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '../../db/schema';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs, uploadReport } from '../../test-support/royalty-jobs';
import { auditBalances } from '../wallet';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let owner: { userId: string; cookie: string; email: string };
let releaseId: string;

const DISTROKID_HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  owner = await system.signedInUser({ plan: 'basic', email: 'suspense.fee.owner@example.com' });
  const release = await createTestRelease(system, owner.userId, {
    status: 'live',
    releaseDate: '2020-01-01',
  });
  releaseId = release.releaseId;
  // 70 / 30 with an invited collaborator who has not accepted: their share is held.
  const split = await system.request(`/api/releases/${releaseId}/splits`, {
    method: 'PUT',
    cookie: owner.cookie,
    json: {
      trackId: null,
      ownerPercent: '70',
      payees: [{ email: 'suspense.fee.payee@example.com', percent: '30' }],
    },
  });
  expect(split.status).toBe(200);
});
afterAll(async () => {
  await system.close();
});

const asAdmin = async (p: string, init: { method?: string; json?: unknown } = {}) =>
  afterJobs(system, await system.request(p, { ...init, cookie: people.admin.cookie }), people.admin.cookie);

const upload = async (query: string, body: string) =>
  readJson(await uploadReport(system, people.admin.cookie, query, body));

async function balanceOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  return row?.balanceCents ?? 0;
}

describe('the operator fee on a payout', () => {
  it('is taken as posting takes it: from the gross, before the splits', async () => {
    const FEED = 'QZUNK2500004';
    const fee = await asAdmin('/api/admin/finance/fees', {
      method: 'PUT',
      json: { basic: '10', pro: '0', payee: '0' },
    });
    expect(fee.status).toBe(200);
    const tsv = `${DISTROKID_HEADER}\r\n2026-01-10\t2025-12\tSpotify\tNobody\tFee Tune\t${FEED}\t\t1\t100\tSong\tUS\t0\t10.00\r\n`;
    const uploaded = await upload('filename=fee.tsv', tsv);
    await asAdmin(`/api/admin/royalties/imports/${uploaded.id}/post`, { method: 'POST' });
    const before = await balanceOf(owner.userId);
    const result = await readJson(
      await asAdmin('/api/admin/royalties/suspense/assign', {
        method: 'POST',
        json: { code: FEED, kind: 'isrc', releaseId },
      }),
    );
    // $10.00 gross: fee 10% = $1.00 to the operator; of the $9.00 net, 30% ($2.70) held, $6.30 credited.
    expect(result).toMatchObject({ amountUsd: '10', creditedCents: 630 });
    expect(await balanceOf(owner.userId)).toBe(before + 630);
    const revenue = await rows<{ cents: string }>(
      system.db,
      sql`select cents::text from operator_revenue where kind = 'fee' and import_id = ${result.postings[0].importId}`,
    );
    expect(revenue).toEqual([{ cents: '100' }]);
    await asAdmin('/api/admin/finance/fees', { method: 'PUT', json: { basic: '0', pro: '0', payee: '0' } });
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });
});
