/**
 * Per-artist statements (issue 44 finding 1, record 235): an account with two artist profiles, a report with
 * lines of both, a 10% fee and a split on one profile's release. Each profile's statement (API, CSV and PDF)
 * shows its own gross lines, fee, split shares and net, and the two add up to the account's to the cent.
 * The second month: a late report of one profile's sales, posted after last month's statement was sent,
 * leaves that statement as it was and goes whole (lines and fee) to that profile on this month's.
 */
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema';
import { run } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

const MONTH = new Date().toISOString().slice(0, 7);
const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

type Summary = {
  artistProfile?: { id: string; name: string };
  earnings: { grossCents: number; lines: number };
  feeCents: number;
  shares: { direction: string; party: string; cents: number }[];
  netEarningsCents: number;
  outsideProfileCents?: number;
  openingCents: number;
  closingCents: number;
};

type Account = {
  owner: { userId: string; cookie: string };
  main: { id: string; name: string };
  side: { id: string; name: string };
};

let system: TestSystem;
let adminCookie: string;
/** The account of the first two cases, read and never changed by them. */
let account: Account;

/**
 * An account with a main and a side act, one live release each (ISRCs `${prefix}1` and `${prefix}2`), a 30%
 * split on the side act's release, and a posted report of both (the late-report case seeds its own, as it
 * moves the report to last month).
 */
async function seedAccount(prefix: string, artistName: string, collaborator: string): Promise<Account> {
  const owner = await system.signedInUser({ plan: 'pro', artistName });
  const listed = await readJson(await system.request('/api/artist-profiles', { cookie: owner.cookie }));
  const main = listed.profiles[0];
  const side = (
    await readJson(
      await system.request('/api/artist-profiles', {
        method: 'POST',
        cookie: owner.cookie,
        json: { name: 'Side Act' },
      }),
    )
  ).profile;
  await createTestRelease(system, owner.userId, {
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: [`${prefix}1`],
  });
  const sideRelease = await createTestRelease(system, owner.userId, {
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: [`${prefix}2`],
    artistProfileId: side.id,
  });
  const split = await system.request(`/api/releases/${sideRelease.releaseId}/splits`, {
    method: 'PUT',
    cookie: owner.cookie,
    json: {
      trackId: null,
      ownerPercent: '70',
      payees: [{ email: collaborator, percent: '30' }],
    },
  });
  expect(split.status, await split.clone().text()).toBe(200);
  const lines = [
    `2026-02-10\t2026-01\tSpotify\tA\tT\t${prefix}1\t\t1000\t100\tSong\tUS\t0\t2187.4567`,
    `2026-02-10\t2026-01\tApple Music\tA\tT\t${prefix}1\t\t10\t100\tSong\tFR\t0\t3.3333`,
    `2026-02-10\t2026-01\tSpotify\tA\tT\t${prefix}2\t\t500\t100\tSong\tGB\t0\t728.9911`,
  ];
  const upload = await afterJobs(
    system,
    await system.request(`/api/admin/royalties/imports?filename=profiles-statement-${prefix}.tsv`, {
      method: 'POST',
      body: `${[HEADER, ...lines].join('\n')}\n`,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: adminCookie,
    }),
    adminCookie,
  );
  const posted = await afterJobs(
    system,
    await system.request(`/api/admin/royalties/imports/${(await readJson(upload)).id}/post`, {
      method: 'POST',
      cookie: adminCookie,
    }),
    adminCookie,
  );
  expect(await readJson(posted)).toMatchObject({ status: 'posted' });
  return { owner, main, side };
}

beforeAll(async () => {
  system = await createTestSystem();
  adminCookie = (await staff(system)).admin.cookie;
  await system.db.insert(settings).values({ key: 'FEE_PERCENT_PRO', value: '15' });
  account = await seedAccount('QZPST260000', 'Main Act', 'collaborator.pst@example.com');
});
afterAll(async () => {
  await system.close();
});

const query = (profile?: { id: string }) => (profile ? `?artistProfileId=${profile.id}` : '');
const statementOf = async (
  owner: Account['owner'],
  month: string,
  profile?: { id: string },
): Promise<Summary> =>
  readJson(
    await system.request(`/api/royalties/statements/${month}/summary${query(profile)}`, {
      cookie: owner.cookie,
    }),
  );
const summaryOf = (profile?: { id: string }) => statementOf(account.owner, MONTH, profile);
const sharesOf = (statement: Summary) => statement.shares.reduce((sum, row) => sum + row.cents, 0);

describe("each artist profile's statement", () => {
  it('shows its own lines, fee, splits and net, the profiles adding up to the account', async () => {
    const { main, side } = account;
    const [all, ofMain, ofSide] = await Promise.all([summaryOf(), summaryOf(main), summaryOf(side)]);
    // Gross $2,190.79 + $728.99 = $2,919.78 (truncated at posting: 2919.7811 → $2,919.78).
    expect(all.earnings.grossCents).toBe(291978);
    expect(ofMain.earnings).toMatchObject({ lines: 2, grossCents: 219079 });
    expect(ofSide.earnings).toMatchObject({ lines: 1, grossCents: 72899 });
    // The fee is each profile's part of the report's fee, not the account's whole fee.
    expect(ofMain.feeCents).toBeLessThan(0);
    expect(ofSide.feeCents).toBeLessThan(0);
    expect(ofMain.feeCents + ofSide.feeCents).toBe(all.feeCents);
    expect(Math.abs(ofSide.feeCents - Math.round(-72899 * 0.15))).toBeLessThanOrEqual(1);
    // The split is on the side act's release only.
    expect(ofMain.shares).toEqual([]);
    expect(ofSide.shares).toHaveLength(1);
    expect(ofSide.shares[0]).toMatchObject({ direction: 'to', party: 'collaborator.pst@example.com' });
    expect(sharesOf(ofSide)).toBe(sharesOf(all));
    expect(ofMain.netEarningsCents).toBe(ofMain.earnings.grossCents + ofMain.feeCents);
    expect(ofSide.netEarningsCents).toBe(ofSide.earnings.grossCents + ofSide.feeCents + sharesOf(ofSide));
    expect(ofMain.netEarningsCents + ofSide.netEarningsCents).toBe(all.netEarningsCents);
    // One balance per account: each profile's view still runs from opening to closing.
    for (const view of [ofMain, ofSide]) {
      expect(view.outsideProfileCents).toBe(all.netEarningsCents - view.netEarningsCents);
      expect(view.closingCents).toBe(all.closingCents);
    }
  });

  it('says the same in its CSV and its PDF', async () => {
    const { owner, side } = account;
    const ofSide = await summaryOf(side);
    const records: string[][] = parse(
      await (
        await system.request(`/api/royalties/statements/${MONTH}.csv${query(side)}`, { cookie: owner.cookie })
      ).text(),
    );
    const cents = (records[0] as string[]).indexOf('Amount (USD cents)');
    const rowsOf = (section: string) => records.filter((record) => record[0] === section);
    expect(rowsOf('Gross earnings').map((record) => record[10])).toEqual(['QZPST2600002']);
    expect(rowsOf('Distribution fee')[0]?.[cents]).toBe(String(ofSide.feeCents));
    expect(rowsOf('Split share paid').map((record) => record[cents])).toEqual([String(sharesOf(ofSide))]);
    expect(rowsOf('Net earnings')[0]?.[cents]).toBe(String(ofSide.netEarningsCents));
    expect(rowsOf('Total')[0]?.[cents]).toBe(String(ofSide.closingCents - ofSide.openingCents));

    const pdf = await system.request(`/api/royalties/statements/${MONTH}.pdf${query(side)}`, {
      cookie: owner.cookie,
    });
    const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
    const text = (await parser.getText()).text;
    await parser.destroy();
    const usd = (cents: number) =>
      `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(text).toContain('Artist profile: Side Act');
    expect(text).toMatch(new RegExp(`Gross earnings of Side Act \\(1 line\\)\\s+500\\s+\\${'$'}728\\.99`));
    expect(text).toContain(usd(ofSide.feeCents));
    expect(text).toContain(`Net earnings of Side Act ${usd(ofSide.netEarningsCents)}`);
    expect(text).not.toContain('QZPST2600001');
  });

  it("takes a late report into this month's statement of its profile only, leaving last month's as sent", async () => {
    // An account of its own, whose report is moved to last month: that month's statements were sent.
    const { owner, main, side } = await seedAccount(
      'QZPST260001',
      'Late Act',
      'collaborator.late@example.com',
    );
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
    const LAST = lastMonth.toISOString().slice(0, 7);
    await run(
      system.db,
      sql`update balance_updates_log set created_at = ${lastMonth.toISOString()}::timestamptz
           where royalty_import_id is not null and user_id = ${owner.userId}`,
    );
    const ofOwner = (month: string, profile?: { id: string }) => statementOf(owner, month, profile);
    const sent = await Promise.all([ofOwner(LAST), ofOwner(LAST, main), ofOwner(LAST, side)]);
    expect(sent[1].netEarningsCents + sent[2].netEarningsCents).toBe(sent[0].netEarningsCents);

    // A late line of January's sales for the main act only: $100.00, 15% fee.
    const upload = await afterJobs(
      system,
      await system.request('/api/admin/royalties/imports?filename=profiles-late.tsv', {
        method: 'POST',
        body: `${HEADER}\n2026-03-02\t2026-01\tDeezer\tA\tT\tQZPST2600011\t\t40\t100\tSong\tDE\t0\t100.00\n`,
        headers: { 'content-type': 'application/octet-stream' },
        cookie: adminCookie,
      }),
      adminCookie,
    );
    const posted = await afterJobs(
      system,
      await system.request(`/api/admin/royalties/imports/${(await readJson(upload)).id}/post`, {
        method: 'POST',
        cookie: adminCookie,
      }),
      adminCookie,
    );
    expect(await readJson(posted)).toMatchObject({ status: 'posted' });

    // Last month's statements are as they were sent.
    expect(await Promise.all([ofOwner(LAST), ofOwner(LAST, main), ofOwner(LAST, side)])).toEqual(sent);
    // This month: the late line, its whole fee and its net on the main act's statement; none on the side act's.
    const [all, ofMain, ofSide] = await Promise.all([
      ofOwner(MONTH),
      ofOwner(MONTH, main),
      ofOwner(MONTH, side),
    ]);
    expect(all).toMatchObject({
      earnings: { grossCents: 10000, lines: 1 },
      feeCents: -1500,
      netEarningsCents: 8500,
    });
    expect(ofMain).toMatchObject({
      earnings: { grossCents: 10000, lines: 1 },
      feeCents: -1500,
      netEarningsCents: 8500,
    });
    expect(ofSide).toMatchObject({ earnings: { grossCents: 0, lines: 0 }, feeCents: 0, netEarningsCents: 0 });
    expect(ofSide.shares).toEqual([]);
    for (const view of [all, ofMain, ofSide]) expect(view.openingCents).toBe(sent[0].closingCents);
    expect(ofSide.closingCents).toBe(all.closingCents);
  });
});
