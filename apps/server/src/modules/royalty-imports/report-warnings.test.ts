/**
 * Sanity warnings before posting (issue 25 finding 7, record 187) on the test database (PGlite, or
 * PostgreSQL with DATABASE_URL): the DDEX sample's June 2020 sales matched to a release first out this
 * year, and its Enya ISRC (registrant GB-AHT) supplied by another artist of a label whose registrant is
 * QZ-TDR. Both are listed with their lines; posting is refused until each is accepted (audited) or
 * resolved (its lines unmatched); a report without warnings posts as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROYALTY_CHECK_TEXTS } from '@tunedrop/shared/schemas/royalty-checks';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignedCodes, auditLog, settings } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';

const SAMPLE = fs.readFileSync(
  path.resolve(
    __dirname,
    '../../../../../vendor/ddex/dsr/samples/DSR_PADPIDA00123456743_PADPIDA0123456766K_UnlimitedMusicMonthly_2020-06-01--2020-06-30__1of1_20200703T075930.tsv',
  ),
  'utf8',
);
/** The sample under another MessageId and SalesTransactionIds: a new report, not a re-export (record 186). */
const report = (messageId: string, sale: number) =>
  SAMPLE.replace('\t1234567890\t', `\t${messageId}\t`).replaceAll('\t1B00', `\t${sale}B00`);
const RELEASED = `${new Date().getUTCFullYear()}-01-15`;

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let artist: Awaited<ReturnType<TestSystem['signedInUser']>>;
let releaseId: string;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  artist = await system.signedInUser({ plan: 'pro' });
  await system.db.insert(settings).values({ key: 'ISRC_REGISTRANT', value: 'QZ-TDR' });
  // The artist typed Enya's ISRC on their own release, out this January (no original release date).
  const release = await createTestRelease(system, artist.userId, {
    status: 'live',
    isrcs: ['GBAHT0900445'],
    releaseDate: RELEASED,
    originalReleaseDate: null,
  });
  releaseId = release.releaseId;
});
afterAll(async () => {
  await system.close();
});

const asAdmin = async (url: string, init: { method?: string; json?: unknown; body?: string } = {}) =>
  afterJobs(
    system,
    await system.request(url, {
      ...init,
      ...(init.body ? { headers: { 'content-type': 'application/octet-stream' } } : {}),
      cookie: people.admin.cookie,
    }),
    people.admin.cookie,
  );

async function stage(messageId: string, sale: number): Promise<string> {
  const response = await asAdmin('/api/admin/royalties/imports?filename=june.tsv&rate=1.25', {
    method: 'POST',
    body: report(messageId, sale),
  });
  const summary = await readJson(response);
  expect(summary).toMatchObject({ status: 'staged', errors: [] });
  return summary.id;
}

const warningsOf = async (id: string) =>
  readJson(await asAdmin(`/api/admin/royalties/imports/${id}/warnings`));

type Warning = { id: string; kind: string; subject: string; message: string; lines: { lineNo: number }[] };

describe('sanity warnings of a staged report', () => {
  let id: string;
  let early: Warning;
  let foreign: Warning;

  it('lists sales before the release date and another label’s ISRC, each with its lines', async () => {
    id = await stage('WARN-1', 1);
    const found = await warningsOf(id);
    expect(found.openCount).toBe(2);
    early = found.items.find((item: Warning) => item.kind === 'period_before_release');
    foreign = found.items.find((item: Warning) => item.kind === 'foreign_isrc');
    expect(early).toMatchObject({
      subject: releaseId,
      lineCount: 3,
      amount: '694.62',
      message: `Sales for 2020-06 are matched to “Test Release”, first released ${RELEASED} (3 lines, 694.62 GBP).`,
    });
    expect(early.lines.map((line) => line.lineNo)).toEqual([10, 11, 12]);
    expect(foreign).toMatchObject({
      subject: 'GBAHT0900445',
      lineCount: 3,
      message:
        'ISRC GBAHT0900445 of “Track 1” was supplied by the artist; its registrant GB-AHT is not yours (yours is QZ-TDR), and the report credits it to Enya (3 lines, 694.62 GBP).',
    });
    expect(foreign.lines).toHaveLength(3);
    expect(foreign.lines[0]).toMatchObject({ isrc: 'GBAHT0900445', artist: 'Enya', period: '2020-06' });
  });

  it('refuses posting while a warning is open, with a clear message', async () => {
    const refused = await asAdmin(`/api/admin/royalties/imports/${id}/post`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect((await readJson(refused)).error).toMatchObject({
      code: 'open_warnings',
      message: ROYALTY_CHECK_TEXTS.openWarnings(2),
    });
  });

  it('is for admins only', async () => {
    const response = await system.request(`/api/admin/royalties/imports/${id}/warnings`, {
      cookie: people.artist.cookie,
    });
    expect(response.status).toBe(403);
    const accept = await system.request(`/api/admin/royalties/imports/${id}/warnings/${early.id}/accept`, {
      method: 'POST',
      json: {},
      cookie: artist.cookie,
    });
    expect(accept.status).toBe(403);
  });

  it('accepts a warning with a note, audited; posting stays refused for the other', async () => {
    const response = await asAdmin(`/api/admin/royalties/imports/${id}/warnings/${early.id}/accept`, {
      method: 'POST',
      json: { note: 'Pre-release promo streams' },
    });
    expect(response.status).toBe(200);
    const after = await readJson(response);
    expect(after.openCount).toBe(1);
    expect(after.items.find((item: Warning) => item.id === early.id)).toMatchObject({
      acceptedBy: people.admin.email,
      note: 'Pre-release promo streams',
    });
    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'royalties.warning_accept'), eq(auditLog.subjectId, id)));
    expect(audit).toMatchObject({ actorEmail: people.admin.email, subjectLabel: 'june.tsv' });
    const again = await asAdmin(`/api/admin/royalties/imports/${id}/warnings/${early.id}/accept`, {
      method: 'POST',
      json: {},
    });
    expect(again.status).toBe(409);
    const refused = await asAdmin(`/api/admin/royalties/imports/${id}/post`, { method: 'POST' });
    expect((await readJson(refused)).error.message).toBe(ROYALTY_CHECK_TEXTS.openWarnings(1));
  });

  it('resolves the other by unmatching its lines; the report then posts without them', async () => {
    const response = await asAdmin(`/api/admin/royalties/imports/${id}/warnings/${foreign.id}/resolve`, {
      method: 'POST',
    });
    expect(response.status).toBe(200);
    const after = await readJson(response);
    expect(after.openCount).toBe(0);
    expect(after.items.find((item: Warning) => item.id === foreign.id)).toMatchObject({
      resolvedBy: people.admin.email,
      lines: [],
    });
    const [audit] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'royalties.warning_resolve'), eq(auditLog.subjectId, id)));
    expect(audit).toMatchObject({ actorEmail: people.admin.email, after: { resolution: 'lines unmatched' } });
    const summary = await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`));
    expect(summary.matched.lines).toBe(0);
    expect(summary.unmatched.lines).toBe(15);
    const posted = await asAdmin(`/api/admin/royalties/imports/${id}/post`, { method: 'POST' });
    expect(posted.status).toBe(202);
    const done = await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`));
    expect(done).toMatchObject({ status: 'posted', postedCents: 0 });
  });

  it('posts a report whose warnings were all accepted, crediting the artist', async () => {
    const second = await stage('WARN-2', 2);
    const found = await warningsOf(second);
    for (const item of found.items as Warning[]) {
      const accepted = await asAdmin(`/api/admin/royalties/imports/${second}/warnings/${item.id}/accept`, {
        method: 'POST',
        json: {},
      });
      expect(accepted.status).toBe(200);
    }
    const posted = await asAdmin(`/api/admin/royalties/imports/${second}/post`, { method: 'POST' });
    expect(posted.status).toBe(202);
    // 694.62 GBP at 1.25 = 868.275 USD → $868.27.
    const done = await readJson(await asAdmin(`/api/admin/royalties/imports/${second}`));
    expect(done).toMatchObject({ status: 'posted', postedCents: 86_827 });
  });

  it('raises none for a release out before the sales with an ISRC the operator assigned', async () => {
    const other = await system.signedInUser({ plan: 'basic' });
    const choir = await createTestRelease(system, other.userId, { status: 'live', isrcs: ['USSM16900682'] });
    // A code this operator handed out (not typed by the artist): never another label's, whatever its registrant.
    await system.db.insert(assignedCodes).values({
      kind: 'isrc',
      code: 'USSM16900682',
      source: 'assigned',
      releaseId: choir.releaseId,
      trackId: choir.trackIds[0] ?? null,
    });
    const third = await stage('WARN-3', 3);
    const found = await warningsOf(third);
    // Enya's lines still warn; the choir's line (release from 2000) raises nothing.
    expect(found.items.map((item: Warning) => item.kind).sort()).toEqual([
      'foreign_isrc',
      'period_before_release',
    ]);
    expect(found.items.every((item: Warning) => item.lines.every((line) => line.lineNo < 13))).toBe(true);
  });
});

describe('a report with many warnings (issue 43: lists that grow with reports are paged)', () => {
  it('answers one page at a time, each warning with its own lines, and counts them all', async () => {
    const header =
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
    const many = await system.signedInUser({ plan: 'pro', artistName: 'Paged Artist' });
    const isrcs: string[] = [];
    for (let release = 0; release < 3; release += 1) {
      const codes = Array.from(
        { length: 10 },
        (_, track) => `GBXYZ25${String(release * 10 + track + 1).padStart(5, '0')}`,
      );
      isrcs.push(...codes);
      await createTestRelease(system, many.userId, {
        status: 'live',
        trackCount: 10,
        isrcs: codes,
        releaseDate: '2020-01-15',
        originalReleaseDate: null,
      });
    }
    // Two lines per track, each crediting a name that is none of the release's: a warning per ISRC.
    const lines = isrcs.flatMap((isrc) =>
      ['Spotify', 'Deezer'].map(
        (store) => `2025-05-02\t2025-03\t${store}\tSomeone Else\tSong\t${isrc}\t\t10\t100\tSong\tUS\t0\t0.50`,
      ),
    );
    const uploaded = await readJson(
      await asAdmin('/api/admin/royalties/imports?filename=many.tsv', {
        method: 'POST',
        body: [header, ...lines].join('\n'),
      }),
    );
    expect(uploaded).toMatchObject({ status: 'staged', errors: [] });

    const seen: string[] = [];
    for (const [page, size] of [
      [1, 12],
      [2, 12],
      [3, 6],
    ] as const) {
      const found = await readJson(
        await asAdmin(`/api/admin/royalties/imports/${uploaded.id}/warnings?page=${page}&limit=12`),
      );
      expect(found).toMatchObject({ page, pageSize: 12, total: 30, openCount: 30 });
      expect(found.items).toHaveLength(size);
      for (const item of found.items as (Omit<Warning, 'lines'> & {
        lines: { isrc: string; artist: string }[];
      })[]) {
        expect(item.kind).toBe('foreign_isrc');
        expect(item.lines.map((line) => [line.isrc, line.artist])).toEqual([
          [item.subject, 'Someone Else'],
          [item.subject, 'Someone Else'],
        ]);
        seen.push(item.subject);
      }
    }
    expect(seen.sort()).toEqual([...isrcs].sort());
    // The default page holds 25; a page size over 100 is refused.
    const first = await readJson(await asAdmin(`/api/admin/royalties/imports/${uploaded.id}/warnings`));
    expect(first).toMatchObject({ page: 1, pageSize: 25, total: 30 });
    expect(first.items).toHaveLength(25);
    const refused = await asAdmin(`/api/admin/royalties/imports/${uploaded.id}/warnings?limit=101`);
    expect(refused.status).toBe(422);
  });
});
