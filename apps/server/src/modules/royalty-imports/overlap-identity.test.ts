/**
 * A line's identity is computed twice (decision 186): in JS while a file is staged (overlap.ts) and in
 * SQL by migration 0040 for lines staged before it. Both must give the same uuid, or a re-export of a
 * report posted before the migration would not be recognised: this stages a DSR, a DistroKid statement
 * with identical lines and a FUGA statement with sale ids, then runs the migration's two statements again
 * over them and expects every identity unchanged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

const DRIZZLE = path.resolve(__dirname, '../../../drizzle');
const UNLIMITED = path.resolve(
  __dirname,
  '../../../../../vendor/ddex/dsr/samples',
  'DSR_PADPIDA00123456743_PADPIDA0123456766K_UnlimitedMusicMonthly_2020-06-01--2020-06-30__1of1_20200703T075930.tsv',
);
const DISTROKID =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)\n' +
  '2025-11-05\t2025-10\tSpotify\tA\tSong\tQZ-IDT-25-00001\t\t1000\t100\tSong\tUS\t0\t3.20\n' +
  '2025-11-05\t2025-10\tSpotify\tA\tSong\tQZIDT2500001\t\t1000\t100\tSong\tUS\t0\t3.2000\n' +
  '2025-11-05\t2025-10\tApple Music\tA\tSong\t\t0602537000000\t-1\t100\tSong\tDE\t0\t-0.10\n';
const FUGA =
  'Sale Start date,Sale End date,DSP,Sale Store Name,Sale Type,Sale User Type,Territory,Product UPC,Product Reference,Product Catalog Number,Product Label,Product Artist,Product Title,Asset Artist,Asset Title,Asset Version,Asset Duration,Asset ISRC,Asset Reference,Asset/Product,Product Quantity,Asset Quantity,Original Gross Income,Original currency,Exchange Rate,Converted Gross Income,Contract deal term,Reported Royalty,Currency,Report Run ID,Report ID,Sale ID\n' +
  '2025-07-01,2025-07-31,Amazon,Amazon Unlimited,Download,,DE,4006381333931,1,,L,A,P,,,,,,,Product,2,,1.98,EUR,1,1.98,70%,1.386,EUR,9,10,S-1\n' +
  '2025-07-01,2025-07-31,Amazon,Amazon Unlimited,Download,,DE,4006381333931,1,,L,A,P,,,,,,,Product,2,,1.98,EUR,1,1.98,70%,1.386,EUR,9,10,S-2\n';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
});
afterAll(async () => {
  await system.close();
});

async function upload(body: string, query: Record<string, string>) {
  const response = await system.request(`/api/admin/royalties/imports?${new URLSearchParams(query)}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  return readJson(await afterJobs(system, response, people.admin.cookie));
}

describe('the identity computed at import and by migration 0040', () => {
  it('agree for DSR transactions, sale ids and fingerprints numbered among identical lines', async () => {
    const imports = [
      await upload(fs.readFileSync(UNLIMITED, 'utf8'), { filename: 'dsr.tsv', rate: '1.25' }),
      await upload(DISTROKID, { filename: 'distrokid.tsv' }),
      await upload(FUGA, { filename: 'fuga.csv', rate: '1.1' }),
    ];
    expect(imports.map((summary) => summary.status)).toEqual(['staged', 'staged', 'staged']);
    const staged = () =>
      rows<{ importId: string; lineNo: number; lineIdentity: string }>(
        system.db,
        sql`select import_id, line_no, line_identity::text as line_identity from royalty_import_lines
             order by import_id, line_no`,
      );
    const before = await staged();
    expect(before).toHaveLength(15 + 3 + 2);
    // The two DistroKid Spotify lines are the same sale twice (codes and decimals normalised): two identities.
    expect(new Set(before.map((line) => line.lineIdentity)).size).toBe(before.length);

    const statements = fs
      .readFileSync(path.join(DRIZZLE, '0040_royalty_line_identity.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter((statement) => statement.startsWith('UPDATE "royalty_import_lines"'));
    expect(statements).toHaveLength(2);
    await system.db.execute(sql.raw(statements[0] as string));
    await system.db.execute(sql.raw(statements[1] as string));
    expect(await staged()).toEqual(before);
  });
});
