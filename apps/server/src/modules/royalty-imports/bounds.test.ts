/**
 * Royalty imports within bounds (issue 22 findings 6 and 10, decision records 151 and 152), through the
 * admin route and the CLI on the test database: a gzip bomb and an over-long line are refused with their
 * line number, a report that expands beyond ROYALTY_MAX_DECOMPRESSED_BYTES fails, amounts and exchange rates
 * out of range are refused, and a failed (or deleted) import can be imported again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, royaltyImports } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { postImport, royaltiesCliCommands } from '../royalty-posting';

const SAMPLES = path.resolve(__dirname, '../../../../../vendor/ddex/dsr/samples');
const ADFUNDED = path.join(
  SAMPLES,
  'DSR_PADPIDA2015999999X_PADPIDA2015999999X_AdFunded_2015-08-01--2015-08-31__1of1_20151123T182957.tsv',
);
const DISTROKID_HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const ISRC = 'QZBND2500001';
/** A DistroKid statement line for our test track. */
const sale = (amount: string, quantity = '10') =>
  `2025-05-02\t2025-03\tSpotify\tBounds\tSong\t${ISRC}\t\t${quantity}\t100\tSong\tUS\t0\t${amount}`;
const statement = (...lines: string[]) => [DISTROKID_HEADER, ...lines].join('\n');

const importCommand = royaltiesCliCommands['royalties:import'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-bounds-'));

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let artistId: string;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  artistId = (await system.signedInUser({ plan: 'basic' })).userId;
  await createTestRelease(system, artistId, { status: 'live', isrcs: [ISRC] });
});
afterAll(async () => {
  await system.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function upload(target: TestSystem, cookie: string, body: Buffer | string, query = {}) {
  const search = new URLSearchParams({ filename: 'report.tsv', ...query });
  const response = await target.request(`/api/admin/royalties/imports?${search}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
    cookie,
  });
  return afterJobs(target, response, cookie);
}
const asAdmin = (body: Buffer | string, query: Record<string, string> = {}) =>
  upload(system, people.admin.cookie, body, query);
const request = async (url: string, method: string) =>
  afterJobs(system, await system.request(url, { method, cookie: people.admin.cookie }), people.admin.cookie);

function writeFile(name: string, content: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function importCount(target: TestSystem = system): Promise<number> {
  const [row] = await target.db.select({ count: sql<number>`count(*)::int` }).from(royaltyImports);
  return Number(row?.count ?? 0);
}

async function balanceOf(userId: string): Promise<number | undefined> {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  return row?.balanceCents;
}

describe('reports in bounded memory (finding 6)', () => {
  it('refuses a gzip bomb (50 MB of one line, about 50 KB on the wire) with the line and the limit', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a'), { level: 9 });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const before = await importCount();
    const response = await asAdmin(bomb);
    expect(response.status).toBe(422);
    expect((await readJson(response)).error).toMatchObject({
      code: 'unreadable_file',
      message: 'Line 1 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.',
    });
    expect(await importCount()).toBe(before);
  });

  it('fails a report with a long line further down, naming the line, and the CLI says the same', async () => {
    const text = statement(sale('1.00'), `${sale('2.00')}\t${'x'.repeat(100 * 1024)}`, sale('3.00'));
    const response = await asAdmin(text);
    expect(response.status).toBe(202);
    const summary = await readJson(response);
    expect(summary).toMatchObject({ status: 'failed' });
    expect(summary.errors).toContain(
      'Line 3 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.',
    );
    expect((await request(`/api/admin/royalties/imports/${summary.id}`, 'DELETE')).status).toBe(200);

    const file = writeFile('long-line.tsv', text);
    await expect(importCommand?.run(system, [file], {})).rejects.toThrow(
      /Error: Line 3 is longer than 64 KiB \(ROYALTY_MAX_LINE_BYTES\); nothing was imported\.[\s\S]*not posted/,
    );
  });

  it('fails a report that expands beyond ROYALTY_MAX_DECOMPRESSED_BYTES (set to 1 MiB here)', async () => {
    const small = await createTestSystem({ ROYALTY_MAX_DECOMPRESSED_BYTES: String(1024 * 1024) });
    try {
      const admin = await small.signedInUser({ roles: ['admin'] });
      // 100-byte lines after the header: the limit falls in the line after the last whole one.
      const line = sale('0.01').padEnd(99, ' ');
      const gz = gzipSync(Buffer.from(statement(...Array(20_000).fill(line))));
      const response = await upload(small, admin.cookie, gz);
      expect(response.status).toBe(202);
      const summary = await readJson(response);
      expect(summary.status).toBe('failed');
      const headerBytes = DISTROKID_HEADER.length + 1;
      const wholeLines = Math.floor((1024 * 1024 - headerBytes) / 100);
      expect(summary.errors).toEqual([
        `Line ${wholeLines + 2}: the file is larger than 1 MiB when decompressed (ROYALTY_MAX_DECOMPRESSED_BYTES); nothing was imported.`,
      ]);
    } finally {
      await small.close();
    }
  });

  it('still imports an ordinary statement, plain and gzipped', async () => {
    const text = statement(sale('1.25'), sale('-0.25', '-1'));
    for (const body of [text, gzipSync(Buffer.from(`${text}\n`))]) {
      const summary = await readJson(await asAdmin(body));
      expect(summary).toMatchObject({ status: 'staged', lineCount: 2, refusedCount: 0, totalAmount: '1' });
      expect((await request(`/api/admin/royalties/imports/${summary.id}`, 'DELETE')).status).toBe(200);
    }
  });
});

describe('amounts and rates within bounds (finding 10)', () => {
  it('refuses a $1e29 line with its line number and posts the rest', async () => {
    const response = await asAdmin(statement(sale('100000000000000000000000000000.00'), sale('12.34')));
    expect(response.status).toBe(202);
    const summary = await readJson(response);
    expect(summary).toMatchObject({ status: 'staged', lineCount: 1, refusedCount: 1, totalAmount: '12.34' });
    expect(summary.refused).toEqual([
      {
        line: 2,
        reason:
          'the amount "100000000000000000000000000000.00" is out of range (an amount must be below 1,000,000,000,000)',
      },
    ]);
    const before = await balanceOf(artistId);
    const post = await request(`/api/admin/royalties/imports/${summary.id}/post`, 'POST');
    expect(post.status).toBe(202);
    expect(await readJson(post)).toMatchObject({
      postedCents: 1234,
      progress: { phase: 'posted', linesPosted: 1 },
    });
    expect(await balanceOf(artistId)).toBe((before ?? 0) + 1234);
  });

  it('refuses quantities and decimals that could not be stored', async () => {
    const summary = await readJson(
      await asAdmin(statement(sale('1.00', '1'.repeat(20)), sale(`0.${'1'.repeat(30)}`), sale('5.00'))),
    );
    expect(summary).toMatchObject({ status: 'staged', lineCount: 1, refusedCount: 2 });
    expect(summary.refused).toEqual([
      {
        line: 2,
        reason: `the quantity "${'1'.repeat(20)}" is out of range (a quantity must be below 1,000,000,000,000,000)`,
      },
      { line: 3, reason: `the amount "0.${'1'.repeat(30)}" has more than 20 decimal places` },
    ]);
    expect((await request(`/api/admin/royalties/imports/${summary.id}`, 'DELETE')).status).toBe(200);
  });

  it('fails a report whose amounts add up to more than 100 billion USD, naming its largest line', async () => {
    const summary = await readJson(
      await asAdmin(statement(sale('60000000000'), sale('999999999999.99'), sale('1'))),
    );
    expect(summary.status).toBe('failed');
    expect(summary.errors).toEqual([
      'Line 3: the amount 999999999999.99 USD is part of a report whose amounts add up to about 1,060,000,000,001 USD; one report may carry at most 100,000,000,000 USD.',
    ]);
    expect((await request(`/api/admin/royalties/imports/${summary.id}`, 'DELETE')).status).toBe(200);
  });

  it.each([
    [
      '100000000000000000000000',
      'The exchange rate must be between 0.000000001 and 1000 USD per unit of the report currency',
    ],
    [
      '0.0000000001',
      'The exchange rate must be between 0.000000001 and 1000 USD per unit of the report currency',
    ],
    ['0', 'The exchange rate must be above 0'],
    ['1e23', 'The exchange rate must be a decimal number such as 1.0825'],
  ])('refuses the exchange rate %s on the route and in the CLI', async (rate, message) => {
    const text = statement(sale('1.00'));
    const before = await importCount();
    const response = await asAdmin(text, { rate });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.message).toContain(message);
    const file = writeFile('rate.tsv', text);
    await expect(importCommand?.run(system, [file], { rate })).rejects.toThrow(message);
    expect(await importCount()).toBe(before);
  });

  it('keeps a rate within bounds (the lowest and the highest)', async () => {
    const body = fs.readFileSync(path.join(SAMPLES, '..', 'dsr-md-example.tsv'));
    for (const rate of ['0.000000001', '1000']) {
      const summary = await readJson(await asAdmin(body, { rate }));
      expect(summary).toMatchObject({ status: 'staged', exchangeRate: rate });
      expect((await request(`/api/admin/royalties/imports/${summary.id}`, 'DELETE')).status).toBe(200);
    }
  });

  it('refuses (409, not 500) to post a report staged before these checks that holds cents beyond bigint', async () => {
    const summary = await readJson(await asAdmin(statement(sale('7.00'), sale('8.00', '11'))));
    expect(summary.status).toBe('staged');
    await system.db.execute(
      sql`update royalty_import_lines set amount = 1e29 where import_id = ${summary.id} and line_no = 2`,
    );
    const before = await balanceOf(artistId);
    // The posting job meets the refusal: the import stays ready to post, with the reason.
    const post = await request(`/api/admin/royalties/imports/${summary.id}/post`, 'POST');
    expect(post.status).toBe(202);
    expect(await readJson(post)).toMatchObject({
      status: 'staged',
      progress: {
        phase: 'ready',
        postError: 'The amounts in this report are too large to post; nothing was posted.',
      },
    });
    await expect(postImport(system.db, summary.id, { admin: null })).rejects.toMatchObject({
      status: 409,
      code: 'amounts_too_large',
    });
    expect(await balanceOf(artistId)).toBe(before);
    const [row] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, summary.id));
    expect(row).toMatchObject({ status: 'staged', phase: 'ready' });
    expect((await request(`/api/admin/royalties/imports/${summary.id}`, 'DELETE')).status).toBe(200);
  });
});

describe('importing again after a failure (finding 10)', () => {
  it('imports a file again whose import failed, and still refuses one that is staged', async () => {
    // A EUR statement without its rate fails; the same bytes can be imported again with the rate.
    const fuga = [
      'Sale ID,Sale Start date,DSP,Territory,Sale Type,Asset ISRC,Product UPC,Asset Quantity,Reported Royalty,Currency,Asset Title,Asset Artist',
      `9001,2025-03-01,Spotify,DE,Stream,${ISRC},,10,3.00,EUR,Song,Bounds`,
    ].join('\n');
    const failed = await readJson(await asAdmin(fuga));
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.errors).toEqual(['The report is in EUR: give its exchange rate to USD (1 EUR = ? USD).']);

    const again = await asAdmin(fuga, { rate: '1.08' });
    expect(again.status).toBe(202);
    const staged = await readJson(again);
    expect(staged).toMatchObject({ status: 'staged', exchangeRate: '1.08' });
    expect(staged.id).not.toBe(failed.id);

    const third = await asAdmin(fuga, { rate: '1.08' });
    expect(third.status).toBe(409);
    expect((await readJson(third)).error).toMatchObject({
      code: 'already_imported',
      message: 'This file was already imported.',
      fields: { importId: staged.id },
    });
    for (const id of [failed.id, staged.id]) {
      expect((await request(`/api/admin/royalties/imports/${id}`, 'DELETE')).status).toBe(200);
    }
  });

  it('imports a failed DSR message again (the AdFunded sample), and a deleted one', async () => {
    const body = fs.readFileSync(ADFUNDED);
    const first = await readJson(await asAdmin(body, { rate: '1.1' }));
    expect(first.status).toBe('failed');
    const second = await asAdmin(body, { rate: '1.1' });
    expect(second.status).toBe(202);
    const secondSummary = await readJson(second);
    expect(secondSummary.status).toBe('failed');
    // Other bytes, same message (gzip): a failed import does not hold the message either.
    const gz = await asAdmin(gzipSync(body), { rate: '1.1' });
    expect(gz.status).toBe(202);
    for (const id of [first.id, secondSummary.id, (await readJson(gz)).id]) {
      expect((await request(`/api/admin/royalties/imports/${id}`, 'DELETE')).status).toBe(200);
    }
    expect((await asAdmin(body, { rate: '1.1' })).status).toBe(202);
  });
});
