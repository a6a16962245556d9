/**
 * The finance overview and the identities `audit:balances` checks (issue 25, record 189), against the real
 * database (PGlite by default, PostgreSQL with DATABASE_URL): a posted report's gross in USD is exactly
 * credited + held + fee + suspense + residue; the liability to artists equals the ledger's; the CSV carries
 * the same figures; and tampering with a ledger row or a posting's fee makes the audit fail.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { run } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { postImport } from '../royalty-posting';
import { auditBalances } from '../wallet';
import { financeIdentities } from './overview';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let importId: string;
let ownerId: string;
let trackId: string;

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  await system.request('/api/admin/finance/fees', {
    method: 'PUT',
    cookie: people.admin.cookie,
    json: { basic: '12.5', pro: '0', payee: '0' },
  });
  const owner = await system.signedInUser({ plan: 'basic', email: 'finance.owner@example.com' });
  ownerId = owner.userId;
  const release = await createTestRelease(system, owner.userId, {
    status: 'live',
    trackCount: 1,
    isrcs: ['QZFIN2500001'],
    releaseDate: '2025-01-01',
  });
  trackId = release.trackIds[0] ?? '';
  await system.request(`/api/releases/${release.releaseId}/splits`, {
    method: 'PUT',
    cookie: owner.cookie,
    json: {
      trackId: null,
      ownerPercent: '70',
      payees: [{ email: 'finance.payee@example.com', percent: '30' }],
    },
  });
  const body = `${[
    HEADER,
    '2025-12-10\t2025-11\tSpotify\tArtist\tSong\tQZFIN2500001\t\t1\t100\tSong\tUS\t0\t21.5300',
    '2025-12-10\t2025-11\tSpotify\tArtist\tOther\tQZUNKNOWN001\t\t1\t100\tSong\tUS\t0\t4.1234',
  ].join('\r\n')}\r\n`;
  const upload = await system.request('/api/admin/royalties/imports?filename=finance-2025-11.tsv', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
  importId = summary.id;
  await postImport(system.db, importId, { admin: null });
});
afterAll(async () => {
  await system.close();
});

describe('finance overview', () => {
  it('shows each report reconciled: gross = credited + held + fee + suspense + residue', async () => {
    const response = await system.request('/api/admin/finance', { cookie: people.admin.cookie });
    expect(response.status).toBe(200);
    const overview = await readJson(response);
    const report = overview.reports.find((row: { importId: string }) => row.importId === importId);
    // 21.53 gross matched: fee 12.5% = 2.69125 -> net 18.83875; 30% held = 5.651625 -> 5.65;
    // owner 18.83 - 5.65 = 13.18; fee 21.53 - 18.83 = 2.70; suspense 4.1234.
    expect(report).toMatchObject({
      fileName: 'finance-2025-11.tsv',
      period: '2025-11',
      currency: 'USD',
      grossReport: '25.6534',
      grossUsd: '25.6534',
      creditedCents: 1318,
      heldCents: 565,
      feeCents: 270,
      suspenseUsd: '4.1234',
      residueUsd: '0',
      differenceUsd: '0',
    });
    expect(overview.periods[0]).toMatchObject({
      period: '2025-11',
      reports: 1,
      feeCents: 270,
      creditedCents: 1318,
    });
    expect(overview.liability).toMatchObject({
      balancesCents: 1318,
      pendingWithdrawalsCents: 0,
      heldSharesCents: 565,
      totalCents: 1883,
      ledgerCents: 1883,
      reconciles: true,
    });
    expect(overview.operatorRevenue).toEqual({ feeCents: 270, suspenseReleasedCents: 0, totalCents: 270 });

    const csv = await system.request('/api/admin/finance/export.csv', { cookie: people.admin.cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('finance-overview.csv');
    const text = await csv.text();
    expect(text).toContain(
      'Report,finance-2025-11.tsv,2025-11,USD,1,25.6534,25.6534,2.70,13.18,5.65,4.1234,0,,,0',
    );
    expect(text).toContain('Liability,Total,,USD,,,18.83');

    const artist = await system.signedInUser({ plan: 'pro', email: 'finance.nosy@example.com' });
    expect((await system.request('/api/admin/finance', { cookie: artist.cookie })).status).toBe(403);
  });

  it('counts suspense assigned later once: the assignment brings no new gross and empties the suspense', async () => {
    const assigned = await system.request('/api/admin/royalties/suspense/assign', {
      method: 'POST',
      cookie: people.admin.cookie,
      json: { code: 'QZUNKNOWN001', kind: 'isrc', trackId },
    });
    expect(assigned.status).toBe(200);
    const overview = await readJson(
      await system.request('/api/admin/finance', { cookie: people.admin.cookie }),
    );
    const payout = overview.reports.find((row: { importId: string }) => row.importId !== importId);
    // 4.1234 through the 12.5% fee (0.515425 -> net 3.607975 -> 3.60; fee 4.12 - 3.60 = 0.52) and the 30% split
    // (1.0823925 -> 1.08 held): the owner 3.60 - 1.08 = 2.52.
    expect(payout).toMatchObject({
      grossUsd: '0',
      suspenseUsd: '-4.1234',
      feeCents: 52,
      heldCents: 108,
      creditedCents: 252,
      residueUsd: '0.0034',
      differenceUsd: '0',
    });
    expect(overview.periods[0]).toMatchObject({ period: '2025-11', grossUsd: '25.6534', suspenseUsd: '0' });
    expect(overview.liability).toMatchObject({
      balancesCents: 1318 + 252,
      heldSharesCents: 565 + 108,
      reconciles: true,
    });
    expect((await financeIdentities(system.db)).failures).toEqual([]);
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });

  it('audit:balances passes, then fails when a ledger row or a posting fee is tampered with', async () => {
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
    expect((await financeIdentities(system.db)).failures).toEqual([]);
    const audit = cliCommands['audit:balances'];
    const printed = await audit?.run(system, [], {});
    expect(printed).toMatch(/^Checked \d+ profiles: every balance matches its records\.$/m);
    expect(printed).toContain(
      '  finance-2025-11.tsv (2025-11): gross 25.6534 USD = credited 13.18 + held 5.65 + fee 2.70 + suspense 4.1234 + residue 0',
    );
    expect(printed).toContain('ledger 22.43 USD: reconciles.');

    await run(
      system.db,
      sql`update balance_updates_log set new_balance_cents = new_balance_cents + 100 where user_id = ${ownerId}`,
    );
    await expect(audit?.run(system, [], {})).rejects.toThrow(
      /Finance: liability to artists .* does not hold/,
    );
    const tampered = await financeIdentities(system.db);
    expect(tampered.failures.map((failure) => failure.what)).toContain(
      'liability to artists (balances + pending withdrawals + held shares) = ledger',
    );
    await run(
      system.db,
      sql`update balance_updates_log set new_balance_cents = new_balance_cents - 100 where user_id = ${ownerId}`,
    );
    expect((await financeIdentities(system.db)).failures).toEqual([]);

    await run(
      system.db,
      sql`update royalty_postings set fee_cents = fee_cents + 1 where import_id = ${importId}`,
    );
    const fee = await financeIdentities(system.db);
    expect(fee.failures.map((failure) => failure.what)).toEqual([
      expect.stringContaining('finance-2025-11.tsv (2025-11): gross 25.6534 USD'),
      'finance-2025-11.tsv: fee booked to operator revenue = fee kept by the postings',
    ]);
    expect((await auditBalances(system.db)).mismatches).toHaveLength(1);
    await run(
      system.db,
      sql`update royalty_postings set fee_cents = fee_cents - 1 where import_id = ${importId}`,
    );
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });

  it('a report of $28.865 is shown as the $28.86 credited, not $28.87 beside it (issue 44 finding 4)', async () => {
    const owner = await system.signedInUser({ plan: 'pro', email: 'finance.rounding@example.com' });
    await createTestRelease(system, owner.userId, {
      status: 'live',
      trackCount: 1,
      isrcs: ['QZFIN2500009'],
      releaseDate: '2025-01-01',
    });
    const upload = await system.request('/api/admin/royalties/imports?filename=finance-rounding.tsv', {
      method: 'POST',
      body: `${HEADER}\r\n2025-11-10\t2025-10\tSpotify\tArtist\tSong\tQZFIN2500009\t\t1\t100\tSong\tUS\t0\t28.865\r\n`,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: people.admin.cookie,
    });
    const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
    await postImport(system.db, summary.id, { admin: null });
    const overview = await readJson(
      await system.request('/api/admin/finance', { cookie: people.admin.cookie }),
    );
    const report = overview.reports.find((row: { importId: string }) => row.importId === summary.id);
    // Pro pays no fee here: every figure shown is the credited cut, and the half cent is the residue's.
    expect(report).toMatchObject({ grossUsd: '28.865', creditedCents: 2886, residueUsd: '0.005' });
    expect(report.cents).toEqual({
      grossCents: 2886,
      feeCents: 0,
      creditedCents: 2886,
      heldCents: 0,
      suspenseCents: 0,
      roundingCents: 0,
    });
    const period = overview.periods.find((row: { period: string }) => row.period === '2025-10');
    expect(period.cents).toEqual(report.cents);
  });
});
