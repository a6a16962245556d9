/**
 * A report's currency (issue 25 finding 4, record 187) on the test database (PGlite, or PostgreSQL with
 * DATABASE_URL): the file's head says its currency before the upload; the CLI refuses a GBP file without
 * --rate; a GBP report staged without a rate is set one later and becomes ready to post, audited.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROYALTY_CHECK_TEXTS } from '@tunedrop/shared/schemas/royalty-checks';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, royaltyImports } from '../../db/schema';
import { CliError } from '../../lib/cli-error';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { royaltiesCliCommands } from '../royalty-posting';

const SAMPLES = path.resolve(__dirname, '../../../../../vendor/ddex/dsr/samples');
/** The DDEX Basic Audio sample: GBP, June 2020. */
const GBP_SAMPLE = fs.readFileSync(
  path.join(
    SAMPLES,
    'DSR_PADPIDA00123456743_PADPIDA0123456766K_UnlimitedMusicMonthly_2020-06-01--2020-06-30__1of1_20200703T075930.tsv',
  ),
  'utf8',
);
/** The same report under another MessageId (the sample itself may be imported by other tests). */
const gbpReport = (messageId: string) => GBP_SAMPLE.replace('\t1234567890\t', `\t${messageId}\t`);
const importCommand = royaltiesCliCommands['royalties:import'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-rate-'));

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  const artist = await system.signedInUser({ plan: 'basic' });
  // Released long before the sample's period: no sanity warning stands between this report and posting.
  await createTestRelease(system, artist.userId, {
    status: 'live',
    isrcs: ['USSM16900682'],
    releaseDate: '2010-01-01',
  });
});
afterAll(async () => {
  await system.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function upload(body: string, query: Record<string, string> = {}): Promise<Response> {
  const search = new URLSearchParams({ filename: 'report.tsv', ...query });
  const response = await system.request(`/api/admin/royalties/imports?${search}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  return afterJobs(system, response, people.admin.cookie);
}

const setRate = (id: string, rate: string, cookie = people.admin.cookie) =>
  system.request(`/api/admin/royalties/imports/${id}/rate`, { method: 'PUT', json: { rate }, cookie });

describe('the file says its currency first', () => {
  it('reads GBP from the head of a DSR before the upload', async () => {
    const response = await system.request('/api/admin/royalties/imports/inspect?format=auto', {
      method: 'POST',
      body: gbpReport('HEAD-ONLY').slice(0, 2_000),
      headers: { 'content-type': 'application/octet-stream' },
      cookie: people.admin.cookie,
    });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ format: 'dsr', currency: 'GBP' });
  });

  it('reads USD from a DistroKid statement and nothing from an unknown file', async () => {
    const distrokid =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)\n2025-05-02\t2025-03\tDeezer\tX\tSong\tQZRAT2500001\t\t10\t100\tSong\tUS\t0\t0.01\n';
    const known = await system.request('/api/admin/royalties/imports/inspect', {
      method: 'POST',
      body: distrokid,
      cookie: people.admin.cookie,
    });
    expect(await readJson(known)).toEqual({ format: 'distrokid', currency: 'USD' });
    const unknown = await system.request('/api/admin/royalties/imports/inspect', {
      method: 'POST',
      body: 'hello,world\n1,2\n',
      cookie: people.admin.cookie,
    });
    expect(await readJson(unknown)).toEqual({ format: null, currency: null });
  });

  it("reads a generic CSV's currency column with its preset, else the preset's currency", async () => {
    const created = await system.request('/api/admin/royalties/presets', {
      method: 'POST',
      json: {
        name: 'Label EUR',
        currency: 'SEK',
        mapping: { isrc: 'ISRC', amount: 'Net', currency: 'Cur', period: 'Month' },
      },
      cookie: people.admin.cookie,
    });
    expect(created.status).toBe(201);
    const preset = (await readJson(created)).id as string;
    const inspect = (body: string) =>
      system.request(`/api/admin/royalties/imports/inspect?format=csv&preset=${preset}`, {
        method: 'POST',
        body,
        cookie: people.admin.cookie,
      });
    const withColumn = await inspect('ISRC,Net,Cur,Month\nQZRAT2500001,1.50,eur,2025-03\n');
    expect(await readJson(withColumn)).toEqual({ format: 'csv', currency: 'EUR' });
    const withoutColumn = await inspect('ISRC,Net,Month\nQZRAT2500001,1.50,2025-03\n');
    expect((await readJson(withoutColumn)).currency).toBe('SEK');
  });

  it('is for admins only', async () => {
    const response = await system.request('/api/admin/royalties/imports/inspect', {
      method: 'POST',
      body: 'x',
      cookie: people.artist.cookie,
    });
    expect(response.status).toBe(403);
  });
});

describe('royalties:import refuses a non-USD file without --rate', () => {
  it('says which currency and exits 2, importing nothing', async () => {
    const file = path.join(dir, 'gbp.tsv');
    fs.writeFileSync(file, gbpReport('CLI-GBP-1'));
    const before = await system.db.select({ id: royaltyImports.id }).from(royaltyImports);
    const refusal = await importCommand?.run(system, [file], {}).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CliError);
    expect((refusal as CliError).message).toBe('the report is in GBP: pass --rate');
    expect((refusal as CliError).exitCode).toBe(2);
    expect((refusal as CliError).message).toBe(ROYALTY_CHECK_TEXTS.cliNeedsRate('GBP'));
    const after = await system.db.select({ id: royaltyImports.id }).from(royaltyImports);
    expect(after).toHaveLength(before.length);
  });

  it('imports it with --rate', async () => {
    const file = path.join(dir, 'gbp-rated.tsv');
    fs.writeFileSync(file, gbpReport('CLI-GBP-2'));
    const output = await importCommand?.run(system, [file], { rate: '1.27' });
    expect(output).toContain('staged, 15 line(s), 5000 GBP (rate to USD 1.27)');
  });
});

describe('the rate set on a staged report', () => {
  let id: string;

  it('a GBP report uploaded without a rate has errors and cannot be posted', async () => {
    const summary = await readJson(await upload(gbpReport('RATE-LATER')));
    id = summary.id;
    expect(summary).toMatchObject({ status: 'failed', currency: 'GBP', exchangeRate: '' });
    expect(summary.errors).toEqual([ROYALTY_CHECK_TEXTS.needsRate('GBP')]);
    const post = await system.request(`/api/admin/royalties/imports/${id}/post`, {
      method: 'POST',
      cookie: people.admin.cookie,
    });
    expect(post.status).toBe(409);
  });

  it('refuses a rate that is not a positive decimal, and non-admins', async () => {
    expect((await setRate(id, '-1')).status).toBe(422);
    expect((await setRate(id, 'abc')).status).toBe(422);
    expect((await setRate(id, '1.27', people.artist.cookie)).status).toBe(403);
  });

  it('moves the report to ready to post, without a new import, and audits it', async () => {
    const response = await setRate(id, '1.25');
    expect(response.status).toBe(200);
    const summary = await readJson(response);
    expect(summary).toMatchObject({ id, status: 'staged', exchangeRate: '1.25', errors: [] });
    expect(summary.progress.phase).toBe('ready');
    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'royalties.rate_set'), eq(auditLog.subjectId, id)));
    expect(audit).toMatchObject({
      actorEmail: people.admin.email,
      before: { rate: null, status: 'failed' },
      after: { rate: '1.25', status: 'staged' },
    });
  });

  it('can be changed again before posting; the posting uses it exactly', async () => {
    const summary = await readJson(await setRate(id, '1.2731'));
    expect(summary).toMatchObject({ status: 'staged', exchangeRate: '1.2731' });
    const post = await afterJobs(
      system,
      await system.request(`/api/admin/royalties/imports/${id}/post`, {
        method: 'POST',
        cookie: people.admin.cookie,
      }),
      people.admin.cookie,
    );
    expect(post.status).toBe(202);
    const posted = await readJson(
      await system.request(`/api/admin/royalties/imports/${id}`, { cookie: people.admin.cookie }),
    );
    expect(posted.status).toBe('posted');
    // The choir's one matched line: 5000.00 GBP × 443 / 3160 = 700.95 GBP, × 1.2731 = 892.379445 USD.
    expect(posted.postedCents).toBe(89_237);
  });

  it('is refused once posted, and on a USD report', async () => {
    expect((await setRate(id, '1.3')).status).toBe(409);
    const usd = await readJson(
      await upload(
        gbpReport('USD-REPORT').replace('\tGBP\t5000.00\t0.00\tGBP\t', '\tUSD\t5000.00\t0.00\tUSD\t'),
      ),
    );
    expect(usd).toMatchObject({ status: 'staged', currency: 'USD', exchangeRate: '1' });
    const refused = await setRate(usd.id, '1.3');
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).error.message).toBe(ROYALTY_CHECK_TEXTS.rateNotNeeded);
  });
});
