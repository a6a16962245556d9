/**
 * Royalty import API on the test database (PGlite by default, PostgreSQL with DATABASE_URL): the DDEX
 * samples, re-import, matching and the unmatched queue, posting (exactly once, all or nothing), the
 * artist's ledger and statements, and the balance audit. Each case stages the reports it reads, naming codes
 * and artists of its own (`world()`), so the cases pass in any order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceUpdatesLog, mailOutbox, profiles, royaltyImports, webhookMessages } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs, uploadReport } from '../../test-support/royalty-jobs';
import { lineAmountsSql } from '../royalty-imports';
import { auditBalances } from '../wallet';
import { postImport } from './posting';

const VENDORED_DSR = path.resolve(__dirname, '../../../../../vendor/ddex/dsr');
const SAMPLES = path.join(VENDORED_DSR, 'samples');
const UNLIMITED = path.join(
  SAMPLES,
  'DSR_PADPIDA00123456743_PADPIDA0123456766K_UnlimitedMusicMonthly_2020-06-01--2020-06-30__1of1_20200703T075930.tsv',
);
const ADFUNDED = path.join(
  SAMPLES,
  'DSR_PADPIDA2015999999X_PADPIDA2015999999X_AdFunded_2015-08-01--2015-08-31__1of1_20151123T182957.tsv',
);
const YOUTUBE = path.join(SAMPLES, 'DSR_TEST_YouTube_AdSupport-music_2015-Q4_IS_1of1_20160121T150926.tsv');

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
});
afterAll(async () => {
  await system.close();
});

let worlds = 0;
/**
 * A case's own artists and sample: Enya, whose release holds Aniron under an ISRC of the case's own, the
 * Choir with a two-track release, and the Basic Audio sample rewritten to name that ISRC, a Merry Christmas
 * ISRC of the case's own (unknown until a case maps it), its own MessageId and SalesTransactionIds. No two
 * cases share a code, a report, a sale or a balance.
 */
async function world() {
  worlds += 1;
  const n = String(worlds).padStart(5, '0');
  const aniron = `GBAHT09${n}`;
  const merry = `USSM169${n}`;
  const enya = await system.signedInUser({ plan: 'basic' });
  const choir = await system.signedInUser({ plan: 'pro' });
  await createTestRelease(system, enya.userId, { status: 'live', isrcs: [aniron] });
  const choirRelease = await createTestRelease(system, choir.userId, { status: 'live', trackCount: 2 });
  const sample = fs
    .readFileSync(UNLIMITED, 'utf8')
    .replaceAll('GBAHT0900445', aniron)
    .replaceAll('USSM16900682', merry)
    .replace('1234567890', `MSG-${n}`)
    // Its own sales too: a sale's identity is its SalesTransactionId, sender and period (record 186).
    .replace(/^(SU02\.02\t\d+\tS1\t)/gm, `$1W${n}-`);
  return {
    enya,
    choir,
    choirTrackId: choirRelease.trackIds[0] as string,
    aniron,
    merry,
    sample,
    messageId: `MSG-${n}`,
  };
}

/** GBAHT0900445 as GB-AHT-09-00445. */
const hyphenated = (isrc: string) =>
  `${isrc.slice(0, 2)}-${isrc.slice(2, 5)}-${isrc.slice(5, 7)}-${isrc.slice(7)}`;

/** The world's sample staged at £1 = $1.25: Aniron's three lines matched, the rest waiting. */
async function staged(of: Awaited<ReturnType<typeof world>>): Promise<string> {
  const summary = await readJson(await upload(of.sample, { rate: '1.25' }));
  expect(summary).toMatchObject({ status: 'staged', lineCount: 15 });
  return summary.id;
}

/** Merry Christmas's ISRC assigned to the Choir's first track (the unmatched queue's assignment). */
async function mapMerry(of: Awaited<ReturnType<typeof world>>) {
  const response = await asAdmin('/api/admin/royalties/code-mappings', {
    method: 'POST',
    json: { code: of.merry, kind: 'isrc', trackId: of.choirTrackId },
  });
  expect(response.status).toBe(200);
  return readJson(response);
}

const upload = (body: Buffer | string, query: Record<string, string> = {}, cookie = people.admin.cookie) =>
  uploadReport(
    system,
    cookie,
    new URLSearchParams({ filename: 'report.tsv', ...query }),
    typeof body === 'string' ? body : new Uint8Array(body),
  );

const asAdmin = async (p: string, init: { method?: string; json?: unknown } = {}) =>
  afterJobs(system, await system.request(p, { ...init, cookie: people.admin.cookie }), people.admin.cookie);

async function balanceOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  return row?.balanceCents;
}

describe('importing the DDEX samples', () => {
  it('refuses non-admins', async () => {
    const response = await upload(fs.readFileSync(UNLIMITED), {}, people.artist.cookie);
    expect(response.status).toBe(403);
  });

  it('imports the Basic Audio sample: GBP at a fixed rate, revenue shared exactly by usages', async () => {
    const mine = await world();
    const response = await upload(mine.sample, { rate: '1.25' });
    expect(response.status).toBe(202);
    const summary = await readJson(response);
    const unlimitedId = summary.id;
    expect(summary).toMatchObject({
      format: 'dsr',
      status: 'staged',
      currency: 'GBP',
      exchangeRate: '1.25',
      messageId: mine.messageId,
      periodStart: '2020-06-01',
      lineCount: 15,
      refusedCount: 0,
      errors: [],
      totalAmount: '5000',
    });
    expect(summary.byStore).toEqual([{ key: 'Unlimited Music', lines: 15, units: '3160', amount: '5000' }]);
    expect(summary.byCountry[0]).toMatchObject({ key: 'GB', amount: '5000' });
    expect(summary.byUsageType.map((row: { key: string }) => row.key).sort()).toEqual([
      'ContentInfluencedStream',
      'OnDemandStream',
      'ProgrammedContentStream',
    ]);
    // Aniron's three lines (120 + 5 + 314 usages) are matched by ISRC; the rest wait.
    expect(summary.matched.lines).toBe(3);
    expect(summary.unmatched.lines).toBe(12);
    // Largest remainder: 5000.00 × 120 / 3160 = 189.873… → 189.87 (+0.01 only for the largest remainders).
    const result = (await system.db.execute(
      sql`select line_no, line_amount::text as amount from (${lineAmountsSql(unlimitedId)}) x order by line_no`,
    )) as unknown as { rows: { line_no: number; amount: string }[] };
    const cents = result.rows.map((row) => Math.round(Number(row.amount) * 100));
    expect(cents.reduce((a, b) => a + b, 0)).toBe(500_000);
    expect(result.rows.slice(0, 4).map((row) => row.amount)).toEqual(['189.87', '7.91', '496.84', '700.95']);
    for (const [index, row] of result.rows.entries()) {
      const usages = [120, 5, 314, 443, 108, 397, 88, 100, 277, 438, 121, 168, 259, 245, 77][index] as number;
      const exact = (500_000 * usages) / 3160;
      expect(Math.abs(Math.round(Number(row.amount) * 100) - exact)).toBeLessThan(1);
    }
  });

  it('falls back to the largest remainder in SQL when a line is not royalty bearing', async () => {
    const example = fs
      .readFileSync(path.join(VENDORED_DSR, 'dsr-md-example.tsv'), 'utf8')
      .replace('SU02.02\t1\tS1\tT000002\t\tA2\ttrue', 'SU02.02\t1\tS1\tT000002\t\tA2\tfalse');
    const summary = await readJson(await upload(example, { rate: '1.3' }));
    expect(summary).toMatchObject({ status: 'staged', lineCount: 5, totalAmount: '9.95' });
    const result = (await system.db.execute(
      sql`select line_no, line_amount::text as amount from (${lineAmountsSql(summary.id)}) x order by line_no`,
    )) as unknown as { rows: { line_no: number; amount: string }[] };
    // S1: £9.20 over the royalty-bearing 1200 + 300 usages; the line marked false gets nothing.
    expect(result.rows.map((row) => Number(row.amount))).toEqual([7.36, 0, 0.5, 0.25, 1.84]);
    await asAdmin(`/api/admin/royalties/imports/${summary.id}`, { method: 'DELETE' });
  });

  it('never imports the same file or the same DSR message twice', async () => {
    const mine = await world();
    await staged(mine);
    const again = await upload(mine.sample, { rate: '1.25' });
    expect(again.status).toBe(409);
    expect((await readJson(again)).error.code).toBe('already_imported');
    // Same message, other bytes (gzip): refused by MessageId.
    const gz = await upload(gzipSync(mine.sample), { rate: '1.25' });
    expect(gz.status).toBe(409);
    expect((await readJson(gz)).error.message).toContain(`MessageId ${mine.messageId}`);
  });

  it('reports the AdFunded sample’s wrong FOOT block count and refuses to post it', async () => {
    const response = await upload(fs.readFileSync(ADFUNDED), { rate: '1.1' });
    expect(response.status).toBe(202);
    const summary = await readJson(response);
    expect(summary.status).toBe('failed');
    expect(summary.errors).toContain(
      'Line 18: FOOT NumberOfBlocksInReport is 94 but the file has 3; the file does not match its totals.',
    );
    expect(summary.refused).toEqual([
      { line: 11, reason: 'SummaryRecordId SY1 matches no summary record' },
      { line: 14, reason: 'SummaryRecordId SY1 matches no summary record' },
      { line: 17, reason: 'SummaryRecordId SY1 matches no summary record' },
    ]);
    const post = await asAdmin(`/api/admin/royalties/imports/${summary.id}/post`, { method: 'POST' });
    expect(post.status).toBe(409);
    expect((await readJson(post)).error.code).toBe('not_postable');
    const del = await asAdmin(`/api/admin/royalties/imports/${summary.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
  });

  it('imports the UGC sample’s SU03 lines with their own amounts', async () => {
    const response = await upload(fs.readFileSync(YOUTUBE));
    const summary = await readJson(response);
    expect(summary).toMatchObject({ status: 'staged', currency: 'USD', lineCount: 6, totalAmount: '7' });
    expect(summary.byStore[0]).toMatchObject({ key: 'YouTube', lines: 6 });
    await asAdmin(`/api/admin/royalties/imports/${summary.id}`, { method: 'DELETE' });
  });

  it('keeps a truncated gzip as a failed import with a clear message', async () => {
    const text = fs.readFileSync(UNLIMITED, 'utf8').replace('1234567890', 'TRUNCATED-1');
    const big = Buffer.from(text.repeat(200));
    const gz = gzipSync(big);
    const response = await upload(gz.subarray(0, Math.floor(gz.length / 2)), { rate: '1' });
    expect(response.status).toBe(202);
    const summary = await readJson(response);
    expect(summary.status).toBe('failed');
    expect(summary.errors).toContain(
      'The gzip file is truncated (unexpected end of file); nothing was imported.',
    );
    await asAdmin(`/api/admin/royalties/imports/${summary.id}`, { method: 'DELETE' });
  });

  it('asks for the exchange rate of a non-USD report', async () => {
    const text = fs.readFileSync(UNLIMITED, 'utf8').replace('1234567890', 'NO-RATE-1');
    const summary = await readJson(await upload(text));
    expect(summary.status).toBe('failed');
    expect(summary.errors).toContain('The report is in GBP: give its exchange rate to USD (1 GBP = ? USD).');
  });
});

describe('the unmatched queue', () => {
  it('lists unknown codes and remembers an assignment', async () => {
    const mine = await world();
    const unlimitedId = await staged(mine);
    const noRate = await readJson(
      await upload(mine.sample.replace(mine.messageId, `${mine.messageId}-NO-RATE`)),
    );
    expect(noRate.status).toBe('failed');
    const unmatched = async () =>
      (await readJson(await asAdmin('/api/admin/royalties/unmatched'))).items.map(
        (item: { code: string }) => item.code,
      );
    const codes = await unmatched();
    expect(codes).toContain(mine.merry);
    expect(codes).not.toContain(mine.aniron);
    const response = await asAdmin('/api/admin/royalties/code-mappings', {
      method: 'POST',
      // Written as a person might (hyphens, lower case): normalised.
      json: { code: hyphenated(mine.merry).toLowerCase(), kind: 'isrc', trackId: mine.choirTrackId },
    });
    expect(response.status).toBe(200);
    // One line in the staged report, one in the failed report without a rate.
    expect(await readJson(response)).toMatchObject({ code: mine.merry, rematchedLines: 2 });
    const summary = await readJson(await asAdmin(`/api/admin/royalties/imports/${unlimitedId}`));
    expect(summary.matched.lines).toBe(4);
    expect(await unmatched()).not.toContain(mine.merry);
  });
});

describe('posting', () => {
  it('leaves nothing behind when posting is refused half way, and the report can be posted again', async () => {
    const mine = await world();
    const { enya } = mine;
    const unlimitedId = await staged(mine);
    const before = await balanceOf(enya.userId);
    // A refusal at the last step (like an artist going below zero); a crash instead leaves the chunks
    // for the job's retry (jobs.test.ts).
    await expect(
      postImport(system.db, unlimitedId, {
        admin: null,
        beforeCommit: async () => {
          throw new AppError('conflict', 'injected failure', 409);
        },
      }),
    ).rejects.toThrow('injected failure');
    expect(await balanceOf(enya.userId)).toBe(before);
    const [row] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, unlimitedId));
    expect(row).toMatchObject({ status: 'staged', phase: 'ready', postError: 'injected failure' });
    const earnings = (await system.db.execute(
      sql`select count(*)::int as n from royalty_earnings where import_id = ${unlimitedId}`,
    )) as unknown as { rows: { n: number }[] };
    expect(earnings.rows[0]?.n).toBe(0);
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(eq(balanceUpdatesLog.royaltyImportId, unlimitedId));
    expect(logs).toHaveLength(0);
    const again = await asAdmin(`/api/admin/royalties/imports/${unlimitedId}/post`, { method: 'POST' });
    expect(await readJson(again)).toMatchObject({ status: 'posted', progress: { postError: null } });
    expect(await balanceOf(enya.userId)).toBe((before ?? 0) + 86827);
  });

  it('posts once when two admins post at the same time', async () => {
    const mine = await world();
    const { enya, choir } = mine;
    const unlimitedId = await staged(mine);
    await mapMerry(mine);
    // Enya has a webhook endpoint: royalty_run.published is written with the posting (issue 40).
    const hook = await system.request('/api/webhooks/endpoints', {
      method: 'POST',
      cookie: enya.cookie,
      json: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(hook.status).toBe(201);
    const [first, second] = await Promise.all([
      asAdmin(`/api/admin/royalties/imports/${unlimitedId}/post`, { method: 'POST' }),
      asAdmin(`/api/admin/royalties/imports/${unlimitedId}/post`, { method: 'POST' }),
    ]);
    // The posting runs as a job: the winner answers 202, the other 409 (already being posted).
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const winner = await readJson(first.status === 202 ? first : second);
    // Aniron: 439 of 3160 usages of £5000 = £694.62 (exact cents by largest remainder) × 1.25 = $868.27(5).
    expect(winner).toMatchObject({
      id: unlimitedId,
      status: 'posted',
      postedArtists: 2,
      progress: { phase: 'posted', linesPosted: 4 },
    });
    const enyaBalance = await balanceOf(enya.userId);
    const choirBalance = await balanceOf(choir.userId);
    expect(enyaBalance).toBe(86827);
    // Merry Christmas (mapped to the Choir): 443 usages → £700.95 × 1.25 = $876.1875 → $876.18.
    expect(choirBalance).toBe(87618);
    expect(winner.postedCents).toBe((enyaBalance ?? 0) + (choirBalance ?? 0));
    const logs = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(
        and(
          eq(balanceUpdatesLog.royaltyImportId, unlimitedId),
          eq(balanceUpdatesLog.updateType, 'royalty_import'),
        ),
      );
    expect(logs).toHaveLength(2);
    const mails = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, enya.email));
    expect(mails.map((mail) => mail.subject)).toContain('New earnings: $868.27 for 2020-06');
    const events = await system.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.accountId, enya.userId));
    // …and statement.ready for the month the balance moved, whose statement now holds the earnings.
    const month = new Date().toISOString().slice(0, 7);
    expect(events.map((event) => [event.accountId, event.payload.type, event.payload.data])).toEqual(
      expect.arrayContaining([
        [enya.userId, 'royalty_run.published', { importId: unlimitedId, period: '2020-06' }],
        [enya.userId, 'statement.ready', { month, importId: unlimitedId }],
      ]),
    );
    expect(events).toHaveLength(2);
    const audit = await auditBalances(system.db);
    expect(audit.mismatches).toEqual([]);
  });

  it("tells the admins' webhook endpoints that a report was read, with its matched and unmatched lines", async () => {
    const hook = await system.request('/api/webhooks/endpoints', {
      method: 'POST',
      cookie: people.admin.cookie,
      json: { url: 'http://127.0.0.1:9/operator-hooks', eventTypes: ['report.imported'] },
    });
    expect(hook.status).toBe(201);
    const importId = await staged(await world());
    const events = await system.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.accountId, people.admin.userId));
    const imported = events.filter(
      (event) => (event.payload.data as { importId?: string }).importId === importId,
    );
    expect(imported.map((event) => [event.payload.type, event.payload.data])).toEqual([
      [
        'report.imported',
        {
          importId,
          format: 'dsr',
          matched: expect.objectContaining({ lines: 3 }),
          unmatched: expect.objectContaining({ lines: 12 }),
        },
      ],
    ]);
  });

  it('refuses to post or delete a posted report', async () => {
    const mine = await world();
    const { enya } = mine;
    const unlimitedId = await staged(mine);
    const posted = await asAdmin(`/api/admin/royalties/imports/${unlimitedId}/post`, { method: 'POST' });
    expect(await readJson(posted)).toMatchObject({ status: 'posted' });
    const post = await asAdmin(`/api/admin/royalties/imports/${unlimitedId}/post`, { method: 'POST' });
    expect(post.status).toBe(409);
    expect((await readJson(post)).error.code).toBe('already_posted');
    const del = await asAdmin(`/api/admin/royalties/imports/${unlimitedId}`, { method: 'DELETE' });
    expect(del.status).toBe(409);
    await expect(
      system.db.execute(sql`update royalty_earnings set amount = 0 where import_id = ${unlimitedId}`),
    ).rejects.toThrow();
    // The audit reconciles postings with the log and the earnings lines: a tampered posting shows.
    await system.db.execute(
      sql`update royalty_postings set cents = cents + 1 where user_id = ${enya.userId}`,
    );
    const audit = await auditBalances(system.db);
    expect(audit.mismatches).toEqual([
      expect.objectContaining({
        userId: enya.userId,
        field: 'royalty_earnings',
        storedCents: 86827,
        expectedCents: 86828,
      }),
    ]);
    await system.db.execute(
      sql`update royalty_postings set cents = cents - 1 where user_id = ${enya.userId}`,
    );
  });
});

describe('aggregator statements', () => {
  it('imports a DistroKid TSV with a refund line, posts it, and the artist sees ledger and statement', async () => {
    // Enya's June 2020 earnings from the DSR sample are posted first.
    const mine = await world();
    const { enya, choir, aniron } = mine;
    const june = await staged(mine);
    const postedJune = await asAdmin(`/api/admin/royalties/imports/${june}/post`, { method: 'POST' });
    expect(await readJson(postedJune)).toMatchObject({ status: 'posted' });
    const header =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
    const rows = [
      `2025-04-10\t2025-03\tSpotify\tEnya\tAniron\t${aniron}\t\t1000\t100\tSong\tUS\t0\t3.123456789`,
      // Written with hyphens: normalised to the catalogue's ISRC.
      `2025-04-10\t2025-03\tApple Music\tEnya\tAniron\t${hyphenated(aniron)}\t\t10\t100\tSong\tDE\t0\t0.10`,
      `2025-04-10\t2025-03\tiTunes\tEnya\tAniron\t${aniron}\t\t-1\t100\tSong\tUS\t0\t-0.70`,
      '2025-04-10\t2025-03\tSpotify\tNobody\tUnknown\tZZZZZ9999999\t\t5\t100\tSong\tUS\t0\t0.01',
      `2025-04-10\t2025-03\tSpotify\tEnya\tAniron\t${aniron}\t\t5\t100\tSong\tUS`,
    ];
    const response = await upload(`${[header, ...rows].join('\r\n')}\r\n`, {
      filename: `distrokid-${aniron}.tsv`,
    });
    const summary = await readJson(response);
    expect(summary).toMatchObject({ format: 'distrokid', status: 'staged', currency: 'USD', lineCount: 4 });
    expect(summary.refused).toEqual([{ line: 6, reason: 'has 11 cells; the header has 13' }]);
    expect(summary.refunds).toEqual({ lines: 1, amount: '-0.7' });
    expect(summary.matched).toEqual({ lines: 3, amount: '2.523456789' });
    const before = await balanceOf(enya.userId);
    const post = await readJson(
      await asAdmin(`/api/admin/royalties/imports/${summary.id}/post`, { method: 'POST' }),
    );
    expect(post).toMatchObject({ postedCents: 252, residue: '0.003456789', postedArtists: 1 });
    expect(await balanceOf(enya.userId)).toBe((before ?? 0) + 252);

    const ledger = await readJson(await system.request('/api/royalties/ledger', { cookie: enya.cookie }));
    expect(ledger.items[0]).toMatchObject({ kind: 'earnings', period: '2025-03', amountCents: 252 });
    expect(ledger.items[1]).toMatchObject({ kind: 'earnings', period: '2020-06', amountCents: 86827 });
    const statements = await readJson(
      await system.request('/api/royalties/statements', { cookie: enya.cookie }),
    );
    // Both reports were posted this month: one statement (record 190), each line naming its sales month.
    const month = new Date().toISOString().slice(0, 7);
    expect(statements.items.map((item: { period: string }) => item.period)).toEqual([month]);
    const csv = await system.request(`/api/royalties/statements/${month}.csv`, { cookie: enya.cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe(
      'Section,Description,Date,Sales period,Store,Country,Usage type,Release,UPC,Track,ISRC,Units,Amount (USD cents),Exact amount (USD)',
    );
    expect(text).toMatch(
      new RegExp(
        `Gross earnings,,,2025-03,Spotify,US,,Test Release,,Track 1,${aniron},1000,31\\d,3\\.123456789\r\n`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `Gross earnings,,,2025-03,iTunes,US,Refund,Test Release,,Track 1,${aniron},-1,-\\d+,-0\\.7\r\n`,
      ),
    );
    // The admin's manual edit stays, and shows in the ledger as an adjustment.
    const profile = await system.db.select().from(profiles).where(eq(profiles.id, enya.userId));
    const current = profile[0] as {
      balanceCents: number;
      totalEarningsCents: number;
      pendingBalanceCents: number;
    };
    const edit = await asAdmin(`/api/admin/balances/users/${enya.userId}`, {
      method: 'PUT',
      json: {
        balanceCents: current.balanceCents + 500,
        totalEarningsCents: current.totalEarningsCents,
        pendingBalanceCents: current.pendingBalanceCents,
      },
    });
    expect(edit.status).toBe(200);
    const withEdit = await readJson(await system.request('/api/royalties/ledger', { cookie: enya.cookie }));
    expect(withEdit.items[0]).toMatchObject({
      kind: 'adjustment',
      amountCents: 500,
      balanceCents: current.balanceCents + 500,
    });
    // Someone else's statement is not reachable.
    const other = await system.request('/api/royalties/statements/2025-03.csv', { cookie: choir.cookie });
    expect(other.status).toBe(404);
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });

  it('imports a generic CSV through a saved preset', async () => {
    const created = await asAdmin('/api/admin/royalties/presets', {
      method: 'POST',
      json: {
        name: 'Label X',
        delimiter: ';',
        currency: 'EUR',
        mapping: { isrc: 'Code', amount: 'Net', units: 'Qty', store: 'Shop', period: 'Month' },
      },
    });
    expect(created.status).toBe(201);
    const preset = await readJson(created);
    const csv =
      'Code;Shop;Month;Qty;Net\r\nGBAHT0900445;Deezer;2025-01;"1,200";1.5\r\nGBAHT0900445;Deezer;2025-01;3;abc\r\n';
    const summary = await readJson(await upload(csv, { preset: preset.id, rate: '1.08', filename: 'x.csv' }));
    expect(summary).toMatchObject({ format: 'csv', status: 'staged', currency: 'EUR', exchangeRate: '1.08' });
    expect(summary.byStore).toEqual([{ key: 'Deezer', lines: 1, units: '1200', amount: '1.5' }]);
    expect(summary.refused).toEqual([{ line: 3, reason: 'the amount "abc" is not a decimal number' }]);
  });
});
