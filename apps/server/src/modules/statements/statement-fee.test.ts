/**
 * The operator's fee on statements (issue 25; records 189 and 190): gross, fee and net, the fee as its own row
 * of whole cents, and the closing balance still the opening plus every row.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { postImport } from '../royalty-posting';

const MONTH = new Date().toISOString().slice(0, 7);

let system: TestSystem;
let adminCookie: string;

beforeAll(async () => {
  system = await createTestSystem();
  adminCookie = (await staff(system)).admin.cookie;
  await system.db.insert(settings).values({ key: 'FEE_PERCENT_BASIC', value: '10' });
});
afterAll(async () => {
  await system.close();
});

/**
 * A Basic artist of the case's own with a posted report: two lines of their track (`${prefix}1`) and one of
 * an unmatched code (`${prefix}9`) held in suspense until the operator assigns it. Each case has its own, as
 * the second credits the suspense to its artist.
 */
async function artistWithReport(prefix: string) {
  const artist = await system.signedInUser({ plan: 'basic' });
  const release = await createTestRelease(system, artist.userId, {
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: [`${prefix}1`],
  });
  const body = [
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
    `2026-02-10\t2025-10\tSpotify\tA\tT\t${prefix}1\t\t100\t100\tSong\tUS\t0\t12.3456`,
    `2026-02-10\t2025-10\tApple Music\tA\tT\t${prefix}1\t\t50\t100\tSong\tGB\t0\t9.1851`,
    `2026-02-10\t2025-09\tDeezer\tA\tT\t${prefix}9\t\t10\t100\tSong\tFR\t0\t5.005`,
  ].join('\n');
  const upload = await system.request(`/api/admin/royalties/imports?filename=fee-${prefix}.tsv`, {
    method: 'POST',
    body: `${body}\n`,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: adminCookie,
  });
  const summary = await readJson(await afterJobs(system, upload, adminCookie));
  expect(summary.status).toBe('staged');
  await postImport(system.db, summary.id, { admin: null });
  return { artist, trackId: release.trackIds[0] as string, unmatched: `${prefix}9` };
}

describe('a statement with a distribution fee', () => {
  it('shows gross, fee and net, and still runs from opening to closing', async () => {
    const { artist } = await artistWithReport('QZFEE260000');
    // Gross 21.5307 (credited gross $21.53); net 21.5307 − 2.15307 = 19.37763 → $19.37; fee $2.16.
    const statement = await readJson(
      await system.request(`/api/royalties/statements/${MONTH}/summary`, { cookie: artist.cookie }),
    );
    expect(statement).toMatchObject({
      openingCents: 0,
      earnings: { grossCents: 2153 },
      feeCents: -216,
      feePercent: '10',
      shares: [],
      otherEarnings: [],
      netEarningsCents: 1937,
      closingCents: 1937,
    });
    const wallet = await readJson(await system.request('/api/wallet', { cookie: artist.cookie }));
    expect(wallet.balanceCents).toBe(1937);

    const records: string[][] = parse(
      await (
        await system.request(`/api/royalties/statements/${MONTH}.csv`, { cookie: artist.cookie })
      ).text(),
    );
    const cents = (records[0] as string[]).indexOf('Amount (USD cents)');
    const fee = records.find((record) => record[0] === 'Distribution fee');
    expect(fee?.[1]).toBe('Taken from the gross at posting (10%)');
    expect(fee?.[cents]).toBe('-216');
    const total = records.find((record) => record[0] === 'Total');
    expect(total?.[cents]).toBe('1937');
  });

  it('counts suspense assigned later as gross of the month it was credited, fee taken the same way', async () => {
    const { artist, trackId, unmatched } = await artistWithReport('QZFEE260001');
    const assigned = await system.request('/api/admin/royalties/suspense/assign', {
      method: 'POST',
      cookie: adminCookie,
      json: { code: unmatched, kind: 'isrc', trackId },
    });
    expect(assigned.status, await assigned.clone().text()).toBe(200);
    // 5.005 → gross $5.00; net 4.5045 → $4.50; fee $0.50.
    const statement = await readJson(
      await system.request(`/api/royalties/statements/${MONTH}/summary`, { cookie: artist.cookie }),
    );
    expect(statement).toMatchObject({
      salesPeriods: ['2025-09', '2025-10'],
      earnings: { grossCents: 2653 },
      feeCents: -266,
      otherEarnings: [],
      netEarningsCents: 2387,
      closingCents: 2387,
    });
    expect(statement.earnings.byStore.map((row: { label: string }) => row.label)).toContain('Deezer');
    const wallet = await readJson(await system.request('/api/wallet', { cookie: artist.cookie }));
    expect(wallet.balanceCents).toBe(2387);
  });
});
