/**
 * The operator's fee (issue 25, record 189), against the real database (PGlite by default, PostgreSQL
 * with DATABASE_URL): the fee settings are validated on the server; a posting takes the fee first from
 * the artist's gross as its own operator revenue line, splits apply to the net, an account's override
 * wins over its plan's, and the posting confirmation's figures are the result's.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { postImport } from '../royalty-posting';
import { auditBalances } from '../wallet';
import { financeIdentities } from './overview';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
});
afterAll(async () => {
  await system.close();
});

async function importReport(name: string, lines: [isrc: string, amount: string][]): Promise<string> {
  const body = `${[
    HEADER,
    ...lines.map(
      ([isrc, amount]) =>
        `2025-12-10\t2025-11\tSpotify\tArtist\tSong\t${isrc}\t\t1\t100\tSong\tUS\t0\t${amount}`,
    ),
  ].join('\r\n')}\r\n`;
  const upload = await system.request(`/api/admin/royalties/imports?filename=${name}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
  expect(summary.status).toBe('staged');
  return summary.id as string;
}

async function figures(importId: string) {
  const response = await system.request(`/api/admin/royalties/imports/${importId}/figures`, {
    cookie: people.admin.cookie,
  });
  expect(response.status).toBe(200);
  return readJson(response);
}

describe('fee settings', () => {
  it('refuses a fee outside 0-100 or with more than 4 decimals, and saves exact decimals', async () => {
    for (const bad of ['100.01', '-1', '12.34567', 'abc', '1e2']) {
      const response = await system.request('/api/admin/finance/fees', {
        method: 'PUT',
        cookie: people.admin.cookie,
        json: { basic: bad, pro: '0', payee: '0' },
      });
      expect(response.status, bad).toBe(422);
    }
    const saved = await system.request('/api/admin/finance/fees', {
      method: 'PUT',
      cookie: people.admin.cookie,
      json: { basic: '15.000', pro: '7.5', payee: '100' },
    });
    expect(saved.status).toBe(200);
    expect(await readJson(saved)).toEqual({ basic: '15', pro: '7.5', payee: '100' });
    const audited = await rows<{ subjectLabel: string; before: unknown; after: unknown }>(
      system.db,
      sql`select subject_label, before, after from audit_log where action = 'finance.fee' order by subject_label`,
    );
    expect(audited).toEqual([
      { subjectLabel: 'Basic fee', before: { feePercent: '0' }, after: { feePercent: '15' } },
      { subjectLabel: 'Payees (no plan) fee', before: { feePercent: '0' }, after: { feePercent: '100' } },
      { subjectLabel: 'Pro fee', before: { feePercent: '0' }, after: { feePercent: '7.5' } },
    ]);
    const artist = await system.signedInUser({ plan: 'basic', email: 'not.admin.fee@example.com' });
    const refused = await system.request('/api/admin/finance/fees', { cookie: artist.cookie });
    expect(refused.status).toBe(403);
  });
});

describe('posting with a fee', () => {
  it('books 15% of the gross as its own line, credits the net, and the figures agree before and after', async () => {
    await system.request('/api/admin/finance/fees', {
      method: 'PUT',
      cookie: people.admin.cookie,
      json: { basic: '15', pro: '0', payee: '0' },
    });
    const owner = await system.signedInUser({ plan: 'basic', email: 'fee.owner@example.com' });
    await createTestRelease(system, owner.userId, {
      status: 'live',
      trackCount: 2,
      isrcs: ['QZFEE2500001', 'QZFEE2500002'],
      releaseDate: '2025-01-01',
    });
    const importId = await importReport('fee-15.tsv', [
      ['QZFEE2500001', '10.0000'],
      ['QZFEE2500002', '3.3333'],
    ]);
    // Gross 13.3333; fee 15% = 1.999995; net 11.333305: the artist gets 11.33, the operator 13.33 − 11.33.
    const before = await figures(importId);
    expect(before).toMatchObject({
      posted: false,
      creditedCents: 1133,
      feeCents: 200,
      heldCents: 0,
      grossUsd: '13.3333',
    });
    const posted = await postImport(system.db, importId, { admin: null });
    expect(posted.postedCents).toBe(1133);
    expect(posted.feeCents).toBe(200);
    expect(posted.residue).toBe('0.0033');
    const after = await figures(importId);
    expect(after).toEqual({ ...before, posted: true });
    const revenue = await rows<{ kind: string; cents: string | number; amountUsd: string; userId: string }>(
      system.db,
      sql`select kind, cents, amount_usd::text as amount_usd, user_id from operator_revenue where import_id = ${importId}`,
    );
    expect(revenue).toEqual([
      { kind: 'fee', cents: expect.anything(), amountUsd: '1.999995', userId: owner.userId },
    ]);
    expect(Number(revenue[0]?.cents)).toBe(200);
    const [postingRow] = await rows<{ feePercent: string; feeCents: string | number; amountUsd: string }>(
      system.db,
      sql`select fee_percent::text as fee_percent, fee_cents, amount_usd::text as amount_usd
            from royalty_postings where import_id = ${importId}`,
    );
    expect(postingRow).toMatchObject({ feePercent: '15', amountUsd: '13.3333' });
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
    expect((await financeIdentities(system.db)).failures).toEqual([]);
  });

  it('applies splits to the net and lets an account override win over the plan fee', async () => {
    const owner = await system.signedInUser({ plan: 'basic', email: 'fee.split.owner@example.com' });
    const release = await createTestRelease(system, owner.userId, {
      status: 'live',
      trackCount: 1,
      isrcs: ['QZFEE2500003'],
      releaseDate: '2025-01-01',
    });
    const override = await system.request(`/api/admin/users/${owner.userId}/fee`, {
      method: 'PUT',
      cookie: people.admin.cookie,
      json: { feePercent: '10' },
    });
    expect(override.status).toBe(200);
    expect(await readJson(override)).toEqual({
      override: '10',
      plan: 'basic',
      planPercent: '15',
      effective: '10',
    });
    const split = await system.request(`/api/releases/${release.releaseId}/splits`, {
      method: 'PUT',
      cookie: owner.cookie,
      json: {
        trackId: null,
        ownerPercent: '70',
        payees: [{ email: 'fee.payee@example.com', percent: '30' }],
      },
    });
    expect(split.status).toBe(200);
    const importId = await importReport('fee-split.tsv', [['QZFEE2500003', '100.0000']]);
    // 10% fee = 10.00; the net 90.00 is split: 27.00 held for the invited payee, 63.00 to the owner.
    const before = await figures(importId);
    expect(before).toMatchObject({ creditedCents: 6300, heldCents: 2700, feeCents: 1000 });
    const posted = await postImport(system.db, importId, { admin: null });
    expect(posted).toMatchObject({ postedCents: 6300, heldCents: 2700, feeCents: 1000, residue: '0' });
    expect(await figures(importId)).toEqual({ ...before, posted: true });

    const cleared = await system.request(`/api/admin/users/${owner.userId}/fee`, {
      method: 'PUT',
      cookie: people.admin.cookie,
      json: { feePercent: null },
    });
    expect(await readJson(cleared)).toMatchObject({ override: null, effective: '15' });
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
    expect((await financeIdentities(system.db)).failures).toEqual([]);
  });
});
