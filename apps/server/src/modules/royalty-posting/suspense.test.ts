/**
 * The suspense account on the test database (PGlite by default, PostgreSQL with DATABASE_URL): a posted
 * report's unmatched money is held line by line in exact USD; assigning the code pays it to the artist
 * through their splits and remembers the code; releasing books it to operator revenue with a reason;
 * a second or concurrent assignment finds nothing left to pay. Each case posts the report it reads, with codes
 * of its own, and starts with nothing held (what earlier cases left is released), so any order passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, balanceUpdatesLog, profiles, royaltyCodeMappings } from '../../db/schema';
import { rows, run } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { auditBalances } from '../wallet';

const UNLIMITED = path.resolve(
  __dirname,
  '../../../../../vendor/ddex/dsr/samples',
  'DSR_PADPIDA00123456743_PADPIDA0123456766K_UnlimitedMusicMonthly_2020-06-01--2020-06-30__1of1_20200703T075930.tsv',
);

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let owner: { userId: string; cookie: string; email: string };
let releaseId: string;
let trackIds: string[];
let presetId: string;

const KNOWN = 'QZSUS2500001';
/** Unmatched codes, a few for each case: an assigned code is remembered, so no two cases share one. */
const LISTED = 'QZUNK2500001';
const LISTED_TOO = 'QZUNK2500002';
const RACED = 'QZUNK2500003';
const ASSIGNED = 'QZUNK2500011';
const STILL_HELD = 'QZUNK2500012';
const ASSIGNED_TWICE = 'QZUNK2500021';
const REMEMBERED = 'QZUNK2500031';
const RELEASED = 'QZUNK2500051';

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  owner = await system.signedInUser({ plan: 'basic', email: 'suspense.owner@example.com' });
  const release = await createTestRelease(system, owner.userId, {
    status: 'live',
    trackCount: 2,
    isrcs: [KNOWN, null],
    // Released long before the sales (no sanity warning to accept before posting).
    releaseDate: '2020-01-01',
  });
  releaseId = release.releaseId;
  trackIds = release.trackIds;
  // 70 / 30 with an invited collaborator who has not accepted: their share is held.
  const split = await system.request(`/api/releases/${releaseId}/splits`, {
    method: 'PUT',
    cookie: owner.cookie,
    json: {
      trackId: null,
      ownerPercent: '70',
      payees: [{ email: 'suspense.payee@example.com', percent: '30' }],
    },
  });
  expect(split.status).toBe(200);
  const preset = await asAdmin('/api/admin/royalties/presets', {
    method: 'POST',
    json: {
      name: 'Suspense EUR',
      delimiter: ';',
      currency: 'EUR',
      mapping: { isrc: 'Code', amount: 'Net', units: 'Qty', store: 'Shop', period: 'Month' },
    },
  });
  presetId = (await readJson(preset)).id;
});
afterAll(async () => {
  await system.close();
});

// Each case starts with nothing held: whatever an earlier case left is released (reason 'Test sample').
beforeEach(async () => {
  for (;;) {
    const page = await readJson(await asAdmin('/api/admin/royalties/suspense'));
    if (page.items.length === 0) return;
    for (const { kind, code } of page.items as { kind: string; code: string }[]) {
      const released = await asAdmin('/api/admin/royalties/suspense/release', {
        method: 'POST',
        json: { code, kind, reason: 'Test sample' },
      });
      expect(released.status).toBe(200);
    }
  }
});

const asAdmin = async (p: string, init: { method?: string; json?: unknown } = {}) =>
  afterJobs(system, await system.request(p, { ...init, cookie: people.admin.cookie }), people.admin.cookie);

/** Uploads a report as the admin and runs its job; the answer is the import's summary. */
async function upload(query: string, body: string | Uint8Array) {
  const response = await system.request(`/api/admin/royalties/imports?${query}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  return readJson(await afterJobs(system, response, people.admin.cookie));
}

async function importAndPost(name: string, lines: string[]): Promise<string> {
  const csv = `Code;Shop;Month;Qty;Net\r\n${lines.join('\r\n')}\r\n`;
  const search = new URLSearchParams({ filename: name, preset: presetId, rate: '1.08' });
  const summary = await upload(`${search}`, csv);
  expect(summary.status).toBe('staged');
  const posted = await readJson(
    await asAdmin(`/api/admin/royalties/imports/${summary.id}/post`, { method: 'POST' }),
  );
  expect(posted.status, JSON.stringify(posted)).toBe('posted');
  return summary.id;
}

async function balanceOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  return row?.balanceCents ?? 0;
}

/** The October report: two lines of `code` (13.33044 USD) and one of `other` (5.94 USD) held, one matched. */
const october = (code: string, other: string) =>
  importAndPost('october.csv', [
    `${KNOWN};Spotify;2025-10;10;4.00`,
    `${code};Spotify;2025-10;100;10.01`,
    `${code};Deezer;2025-10;3;2.333`,
    `${other};Spotify;2025-10;7;5.5`,
  ]);

/** Assigns a held code to the release's untagged track. */
const assign = (code: string) =>
  asAdmin('/api/admin/royalties/suspense/assign', {
    method: 'POST',
    json: { code, kind: 'isrc', trackId: trackIds[1] },
  });

const DISTROKID_HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

describe('posting books unmatched money to suspense', () => {
  it('holds every unmatched line in exact USD at the report rate, listed by code and searchable', async () => {
    const report = await october(LISTED, LISTED_TOO);
    const held = await rows<{ total: string }>(
      system.db,
      sql`select trim_scale(sum(amount_usd))::text as total from royalty_suspense_lines where import_id = ${report}`,
    );
    // (10.01 + 2.333 + 5.5) EUR × 1.08 = 19.27044 USD, not a rounded figure.
    expect(held[0]?.total).toBe('19.27044');
    const page = await readJson(await asAdmin('/api/admin/royalties/suspense'));
    expect(page).toMatchObject({ totalUsd: '19.27044', totalLines: 3, codes: 2, page: 1 });
    expect(page.items[0]).toMatchObject({
      kind: 'isrc',
      code: LISTED,
      lines: 2,
      reports: 1,
      amountUsd: '13.33044',
    });
    expect(page.items[0].items[0]).toMatchObject({
      fileName: 'october.csv',
      period: '2025-10',
      store: 'Spotify',
      amount: '10.01',
      currency: 'EUR',
      amountUsd: '10.8108',
    });
    const search = await readJson(await asAdmin(`/api/admin/royalties/suspense?q=${LISTED_TOO.slice(-4)}`));
    expect(search.items.map((item: { code: string }) => item.code)).toEqual([LISTED_TOO]);
    expect(search.totalUsd).toBe('19.27044');
    const byCode = await readJson(await asAdmin(`/api/admin/royalties/suspense?q=${LISTED.slice(0, 8)}`));
    expect(byCode.codes).toBe(3 - 1);
  });

  it('holds a DSR summary’s revenue shared by usages, to the exact total at the report rate', async () => {
    // The Basic Audio sample: £5,000 over 15 lines by usages; none of its codes is ours here.
    const search = new URLSearchParams({ filename: 'unlimited.tsv', rate: '1.25' });
    const summary = await upload(`${search}`, new Uint8Array(fs.readFileSync(UNLIMITED)));
    expect(summary).toMatchObject({ status: 'staged', currency: 'GBP', unmatched: { lines: 15 } });
    const posted = await readJson(
      await asAdmin(`/api/admin/royalties/imports/${summary.id}/post`, { method: 'POST' }),
    );
    expect(posted).toMatchObject({ status: 'posted', postedCents: 0 });
    const held = await rows<{ gbp: string; usd: string; lines: number | string }>(
      system.db,
      sql`select trim_scale(sum(amount))::text as gbp, trim_scale(sum(amount_usd))::text as usd, count(*) as lines
            from royalty_suspense_lines where import_id = ${summary.id}`,
    );
    expect(held[0]).toMatchObject({ gbp: '5000', usd: '6250' });
    expect(Number(held[0]?.lines)).toBe(15);
    // Released again (the next case would release them anyway).
    const codes = await rows<{ kind: string; code: string }>(
      system.db,
      sql`select distinct case when isrc is null then 'upc' else 'isrc' end as kind, coalesce(isrc, upc) as code
            from royalty_suspense_lines where import_id = ${summary.id}`,
    );
    for (const { kind, code } of codes) {
      const released = await asAdmin('/api/admin/royalties/suspense/release', {
        method: 'POST',
        json: { code, kind, reason: 'Test sample' },
      });
      expect(released.status).toBe(200);
    }
  });

  it('is admin-only', async () => {
    for (const [path, method] of [
      ['/api/admin/royalties/suspense', 'GET'],
      ['/api/admin/royalties/suspense/assign', 'POST'],
      ['/api/admin/royalties/suspense/release', 'POST'],
    ] as const) {
      const response = await system.request(path, {
        method,
        cookie: owner.cookie,
        json: method === 'POST' ? { code: LISTED, kind: 'isrc', trackId: trackIds[1] } : undefined,
      });
      expect(response.status).toBe(403);
    }
  });
});

describe('assigning a code', () => {
  it('pays the held money to the artist through their splits, names the report, remembers the code', async () => {
    const report = await october(ASSIGNED, STILL_HELD);
    const before = await balanceOf(owner.userId);
    const response = await assign(ASSIGNED);
    expect(response.status, await response.clone().text()).toBe(200);
    const result = await readJson(response);
    // 13.33044 USD → 1,333 cents: 30% (3.999132 → 399 cents) held for the invited payee, 934 to the owner.
    expect(result).toMatchObject({ code: ASSIGNED, lines: 2, amountUsd: '13.33044', creditedCents: 934 });
    expect(result.postings).toEqual([
      expect.objectContaining({ reportImportId: report, fileName: 'october.csv', period: '2025-10' }),
    ]);
    expect(await balanceOf(owner.userId)).toBe(before + 934);
    const payout = result.postings[0].importId as string;
    const [settled] = await rows<{ cents: string; held: boolean }>(
      system.db,
      sql`select cents::text, held from split_settlements where import_id = ${payout}`,
    );
    expect(settled).toEqual({ cents: '399', held: true });
    const [log] = await system.db
      .select()
      .from(balanceUpdatesLog)
      .where(and(eq(balanceUpdatesLog.userId, owner.userId), eq(balanceUpdatesLog.royaltyImportId, payout)));
    expect(log?.notes).toBe(
      `Royalties for 2025-10 from october.csv (held in suspense, ISRC ${ASSIGNED} assigned)`,
    );
    // The earnings keep their store, period and exact USD for the artist's statements.
    const earned = await rows<{ total: string; track: string }>(
      system.db,
      sql`select trim_scale(sum(amount_usd))::text as total, min(track_id::text) as track
            from royalty_earnings where import_id = ${payout}`,
    );
    expect(earned[0]).toEqual({ total: '13.33044', track: trackIds[1] });
    const [mapping] = await system.db
      .select()
      .from(royaltyCodeMappings)
      .where(eq(royaltyCodeMappings.code, ASSIGNED));
    expect(mapping?.trackId).toBe(trackIds[1]);
    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'royalties.suspense_assign'), eq(auditLog.subjectId, ASSIGNED)));
    expect(audit?.subjectLabel).toBe(`ISRC ${ASSIGNED}`);
    expect(audit?.after).toMatchObject({
      lines: 2,
      amountUsd: '13.33044',
      reports: ['october.csv (2025-10)'],
    });
    // The remembered code is audited as a code assignment too.
    const codeAudits = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'royalties.code_assign'), eq(auditLog.subjectId, `isrc:${ASSIGNED}`)));
    expect(codeAudits.map((row) => row.subjectLabel)).toEqual([`ISRC ${ASSIGNED}`]);
    // Suspense now holds only the other code; the payout is not a report of its own in the list.
    const page = await readJson(await asAdmin('/api/admin/royalties/suspense'));
    expect(page).toMatchObject({ totalUsd: '5.94', codes: 1 });
    const imports = await readJson(await asAdmin('/api/admin/royalties/imports'));
    expect(imports.items.map((item: { id: string }) => item.id)).not.toContain(payout);
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });

  it('refuses a second assignment of the same code', async () => {
    await october(ASSIGNED_TWICE, `${ASSIGNED_TWICE.slice(0, -1)}2`);
    expect((await assign(ASSIGNED_TWICE)).status).toBe(200);
    const again = await asAdmin('/api/admin/royalties/suspense/assign', {
      method: 'POST',
      json: { code: ASSIGNED_TWICE, kind: 'isrc', releaseId },
    });
    expect(again.status).toBe(409);
    expect((await readJson(again)).error.code).toBe('suspense_resolved');
  });

  it('matches the next import by the remembered code', async () => {
    await october(REMEMBERED, `${REMEMBERED.slice(0, -1)}2`);
    expect((await assign(REMEMBERED)).status).toBe(200);
    const csv = `Code;Shop;Month;Qty;Net\r\n${REMEMBERED};Spotify;2025-11;1;1.00\r\n`;
    const search = new URLSearchParams({ filename: 'november.csv', preset: presetId, rate: '1.08' });
    const summary = await upload(`${search}`, csv);
    expect(summary.matched.lines).toBe(1);
    expect(summary.unmatched.lines).toBe(0);
    await asAdmin(`/api/admin/royalties/imports/${summary.id}`, { method: 'DELETE' });
  });

  it('pays once when two admins assign the same code at the same time', async () => {
    // A DistroKid statement (USD, with titles): searchable by the title and artist it reports.
    const tsv = `${DISTROKID_HEADER}\r\n2026-01-10\t2025-12\tSpotify\tNobody Known\tRaced Tune\t${RACED}\t\t1\t100\tSong\tUS\t0\t2.16\r\n`;
    const uploaded = await upload('filename=december.tsv', tsv);
    await asAdmin(`/api/admin/royalties/imports/${uploaded.id}/post`, { method: 'POST' });
    for (const q of ['raced tu', 'NOBODY']) {
      const found = await readJson(await asAdmin(`/api/admin/royalties/suspense?q=${encodeURIComponent(q)}`));
      expect(found.items).toEqual([
        expect.objectContaining({
          code: RACED,
          amountUsd: '2.16',
          sampleTitle: 'Raced Tune',
          sampleArtist: 'Nobody Known',
        }),
      ]);
    }
    const before = await balanceOf(owner.userId);
    const [first, second] = await Promise.all(
      [0, 1].map(() =>
        system.request('/api/admin/royalties/suspense/assign', {
          method: 'POST',
          cookie: people.admin.cookie,
          json: { code: RACED, kind: 'isrc', releaseId },
        }),
      ),
    );
    expect([first?.status, second?.status].sort()).toEqual([200, 409]);
    // 2.16 USD: 30% = 0.648 → 64 cents held, 152 to the owner, once.
    expect(await balanceOf(owner.userId)).toBe(before + 152);
    const payouts = await rows<{ n: number | string }>(
      system.db,
      sql`select count(*) as n from royalty_imports where suspense_of = ${uploaded.id}`,
    );
    expect(Number(payouts[0]?.n)).toBe(1);
  });
});

describe('releasing to operator revenue', () => {
  it('holds lines the report gave no code under “none”, which can be released', async () => {
    // A DSR resource with only a proprietary id, or a YouTube asset we do not know: no ISRC, no UPC.
    const report = await importAndPost('october.csv', [`${KNOWN};Spotify;2025-10;10;4.00`]);
    await run(
      system.db,
      sql`insert into royalty_suspense_lines (import_id, line_no, line_key, period, units, amount, amount_usd, title)
          values (${report}, 9999, 'no-code', '2025-10', 1, 0.5, 0.54, 'Untagged')`,
    );
    const found = await readJson(await asAdmin('/api/admin/royalties/suspense?q=untagged'));
    expect(found.items).toEqual([
      expect.objectContaining({ kind: 'none', code: '', lines: 1, amountUsd: '0.54' }),
    ]);
    const released = await asAdmin('/api/admin/royalties/suspense/release', {
      method: 'POST',
      json: { code: '', kind: 'none', reason: 'Test sample' },
    });
    expect(released.status).toBe(200);
    expect(await readJson(released)).toMatchObject({ kind: 'none', lines: 1, amountUsd: '0.54' });
    const noCode = await asAdmin('/api/admin/royalties/suspense/release', {
      method: 'POST',
      json: { code: '', kind: 'isrc', reason: 'x' },
    });
    expect(noCode.status).toBe(422);
  });

  it('needs a reason', async () => {
    const response = await asAdmin('/api/admin/royalties/suspense/release', {
      method: 'POST',
      json: { code: RELEASED, kind: 'isrc', reason: '' },
    });
    expect(response.status).toBe(422);
  });

  it('books the held money to operator revenue with the reason, audited', async () => {
    await importAndPost('october.csv', [`${RELEASED};Spotify;2025-10;7;5.5`]);
    const response = await asAdmin('/api/admin/royalties/suspense/release', {
      method: 'POST',
      json: { code: RELEASED, kind: 'isrc', reason: 'Not ours: the store confirmed a mis-tagged upload' },
    });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ kind: 'isrc', code: RELEASED, lines: 1, amountUsd: '5.94' });
    const revenue = await rows<{
      kind: string;
      cents: string;
      amountUsd: string;
      reason: string;
      period: string;
    }>(
      system.db,
      sql`select kind, cents::text, trim_scale(amount_usd)::text as amount_usd, reason, period
            from operator_revenue where kind = 'suspense_release' and reason <> 'Test sample'`,
    );
    expect(revenue).toEqual([
      {
        kind: 'suspense_release',
        cents: '594',
        amountUsd: '5.94',
        reason: 'Not ours: the store confirmed a mis-tagged upload',
        period: '2025-10',
      },
    ]);
    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'royalties.suspense_release'), eq(auditLog.subjectId, RELEASED)));
    expect(audit?.after).toMatchObject({ reason: 'Not ours: the store confirmed a mis-tagged upload' });
    const page = await readJson(await asAdmin('/api/admin/royalties/suspense'));
    expect(page).toMatchObject({ totalUsd: '0', totalLines: 0, codes: 0, items: [] });
    const again = await asAdmin('/api/admin/royalties/suspense/release', {
      method: 'POST',
      json: { code: RELEASED, kind: 'isrc', reason: 'twice' },
    });
    expect(again.status).toBe(409);
    expect((await auditBalances(system.db)).mismatches).toEqual([]);
  });
});
