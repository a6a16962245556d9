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
let artist: { userId: string; cookie: string; email: string };
let adminCookie: string;
let trackId: string;

beforeAll(async () => {
  system = await createTestSystem();
  const people = await staff(system);
  artist = await system.signedInUser({ plan: 'basic' });
  adminCookie = people.admin.cookie;
  const release = await createTestRelease(system, artist.userId, {
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: ['QZFEE2600001'],
  });
  trackId = release.trackIds[0] as string;
  await system.db.insert(settings).values({ key: 'FEE_PERCENT_BASIC', value: '10' });
  const body = [
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
    '2026-02-10\t2025-10\tSpotify\tA\tT\tQZFEE2600001\t\t100\t100\tSong\tUS\t0\t12.3456',
    '2026-02-10\t2025-10\tApple Music\tA\tT\tQZFEE2600001\t\t50\t100\tSong\tGB\t0\t9.1851',
    // Unmatched: held in suspense until the operator assigns the code.
    '2026-02-10\t2025-09\tDeezer\tA\tT\tQZFEE2600009\t\t10\t100\tSong\tFR\t0\t5.005',
  ].join('\n');
  const upload = await system.request('/api/admin/royalties/imports?filename=fee.tsv', {
    method: 'POST',
    body: `${body}\n`,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
  expect(summary.status).toBe('staged');
  await postImport(system.db, summary.id, { admin: null });
});
afterAll(async () => {
  await system.close();
});

describe('a statement with a distribution fee', () => {
  it('shows gross, fee and net, and still runs from opening to closing', async () => {
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
    const assigned = await system.request('/api/admin/royalties/suspense/assign', {
      method: 'POST',
      cookie: adminCookie,
      json: { code: 'QZFEE2600009', kind: 'isrc', trackId },
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
