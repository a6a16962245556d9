/**
 * Pro analytics on the earnings ledger (GET /api/analytics/earnings and .csv): a posted report's lines
 * grouped by store, country, track, release and month, within the window; Pro only; one artist's lines.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { windowStart } from './earnings';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let pro: { userId: string; cookie: string; email: string };
let other: { userId: string; cookie: string; email: string };
let basic: { userId: string; cookie: string; email: string };

const now = new Date();
const monthsAgo = (n: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1)).toISOString().slice(0, 7);

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  pro = await system.signedInUser({ plan: 'pro' });
  other = await system.signedInUser({ plan: 'pro' });
  basic = await system.signedInUser({ plan: 'basic' });
  await createTestRelease(system, pro.userId, {
    status: 'live',
    title: 'Night Drive',
    trackCount: 2,
    isrcs: ['QZAN12600001', 'QZAN12600002'],
  });
  const header =
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
  const rows = [
    `2026-01-10\t${monthsAgo(1)}\tSpotify\tA\tT1\tQZAN12600001\t\t1000\t100\tSong\tUS\t0\t4.004`,
    `2026-01-10\t${monthsAgo(1)}\tSpotify\tA\tT1\tQZAN12600001\t\t500\t100\tSong\tDE\t0\t2.001`,
    `2026-01-10\t${monthsAgo(2)}\tDeezer\tA\tT2\tQZAN12600002\t\t10\t100\tSong\tFR\t0\t1.50`,
    `2026-01-10\t${monthsAgo(20)}\tApple Music\tA\tT2\tQZAN12600002\t\t3\t100\tSong\tUS\t0\t0.99`,
  ];
  const upload = await system.request('/api/admin/royalties/imports?filename=analytics.tsv', {
    method: 'POST',
    body: `${[header, ...rows].join('\n')}\n`,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  expect(upload.status).toBe(202);
  const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
  const posted = await system.request(`/api/admin/royalties/imports/${summary.id}/post`, {
    method: 'POST',
    cookie: people.admin.cookie,
  });
  expect(await readJson(await afterJobs(system, posted, people.admin.cookie))).toMatchObject({
    status: 'posted',
  });
});
afterAll(async () => {
  await system.close();
});

describe('earnings analytics', () => {
  it('counts whole sales months back from the current one', () => {
    expect(windowStart('3', new Date('2026-03-15T00:00:00Z'))).toBe('2026-01');
    expect(windowStart('12', new Date('2026-01-31T23:00:00Z'))).toBe('2025-02');
    expect(windowStart('all')).toBeNull();
  });

  it('refuses basic users and anonymous callers on the server', async () => {
    for (const path of ['/api/analytics/earnings', '/api/analytics/earnings.csv']) {
      const refused = await system.request(path, { cookie: basic.cookie });
      expect(refused.status).toBe(403);
      expect((await readJson(refused)).error.code).toBe('pro_required');
      expect((await system.request(path)).status).toBe(401);
    }
    const bad = await system.request('/api/analytics/earnings?months=7', { cookie: pro.cookie });
    expect(bad.status).toBe(422);
  });

  it('groups the posted lines by store, country, track, release and month within the window', async () => {
    const report = await readJson(await system.request('/api/analytics/earnings', { cookie: pro.cookie }));
    expect(report.months).toBe('12');
    expect(report.totals).toEqual({ units: '1510', amountCents: 751, lines: 3, reports: 1 });
    expect(report.byStore).toEqual([
      { key: 'Spotify', label: 'Spotify', units: '1500', amountCents: 601, lines: 2 },
      { key: 'Deezer', label: 'Deezer', units: '10', amountCents: 150, lines: 1 },
    ]);
    expect(report.byCountry.map((row: { key: string }) => row.key)).toEqual(['US', 'DE', 'FR']);
    expect(
      report.byTrack.map((row: { label: string; amountCents: number }) => [row.label, row.amountCents]),
    ).toEqual([
      ['Track 1 (QZAN12600001)', 601],
      ['Track 2 (QZAN12600002)', 150],
    ]);
    expect(report.byRelease).toEqual([
      expect.objectContaining({ label: 'Night Drive', amountCents: 751, units: '1510' }),
    ]);
    expect(
      report.byMonth.map((row: { key: string; amountCents: number }) => [row.key, row.amountCents]),
    ).toEqual([
      [monthsAgo(2), 150],
      [monthsAgo(1), 601],
    ]);
    expect(report.lastPostedAt).not.toBeNull();

    const all = await readJson(
      await system.request('/api/analytics/earnings?months=all', { cookie: pro.cookie }),
    );
    expect(all.totals).toMatchObject({ amountCents: 850, lines: 4 });
    expect(all.byMonth[0]).toMatchObject({ key: monthsAgo(20), amountCents: 99 });

    const empty = await readJson(await system.request('/api/analytics/earnings', { cookie: other.cookie }));
    expect(empty.totals).toEqual({ units: '0', amountCents: 0, lines: 0, reports: 0 });
    expect(empty.byStore).toEqual([]);
    expect(empty.lastPostedAt).toBeNull();
  });

  it('exports the window as CSV with exact amounts', async () => {
    const response = await system.request('/api/analytics/earnings.csv?months=all', { cookie: pro.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toContain('earnings-all-time.csv');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Period,Store,Country,Release,UPC,Track,ISRC,Units,Gross amount (USD)');
    expect(lines).toContain(`${monthsAgo(1)},Spotify,US,Night Drive,,Track 1,QZAN12600001,1000,4.004`);
    expect(lines).toHaveLength(5);
    const foreign = await system.request('/api/analytics/earnings.csv', { cookie: other.cookie });
    expect((await foreign.text()).trim().split('\r\n')).toHaveLength(1);
  });

  it('writes hostile titles and store names as text, and refunds as numbers (issue 22, finding 5)', async () => {
    const artist = await system.signedInUser({ plan: 'pro' });
    const title = "-1+1+cmd|' /C calc'!A0";
    const store = '-2-HYPERLINK("https://evil.example/claim","Statement")';
    await createTestRelease(system, artist.userId, {
      status: 'live',
      title,
      trackCount: 1,
      isrcs: ['QZAN12600077'],
    });
    const header =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
    const rows = [
      `2026-01-10\t${monthsAgo(1)}\t${store}\tA\tT\tQZAN12600077\t\t10\t100\tSong\tUS\t0\t3.50`,
      `2026-01-10\t${monthsAgo(1)}\t@SUM(A1:A9)\tA\tT\tQZAN12600077\t\t-2\t100\tSong\tUS\t0\t-1.25`,
    ];
    const upload = await system.request('/api/admin/royalties/imports?filename=hostile.tsv', {
      method: 'POST',
      body: `${[header, ...rows].join('\n')}\n`,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: people.admin.cookie,
    });
    expect(upload.status).toBe(202);
    const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
    const posted = await system.request(`/api/admin/royalties/imports/${summary.id}/post`, {
      method: 'POST',
      cookie: people.admin.cookie,
    });
    expect(await readJson(await afterJobs(system, posted, people.admin.cookie))).toMatchObject({
      status: 'posted',
    });

    const response = await system.request('/api/analytics/earnings.csv?months=all', {
      cookie: artist.cookie,
    });
    const records: string[][] = parse(await response.text());
    expect(records.slice(1)).toEqual([
      [monthsAgo(1), `'${store}`, 'US', `'${title}`, '', 'Track 1', 'QZAN12600077', '10', '3.5'],
      [monthsAgo(1), "'@SUM(A1:A9)", 'US', `'${title}`, '', 'Track 1', 'QZAN12600077', '-2', '-1.25'],
    ]);
  });
});
