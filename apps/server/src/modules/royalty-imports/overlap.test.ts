/**
 * Overlap protection (issue 25, decision 186) through the API on the test database (PGlite, or PostgreSQL
 * with DATABASE_URL): a cumulative re-export credits only its new lines, identical lines of one file each
 * count, a re-sent DSR is known by its SalesTransactionIds, including posted lines takes a confirmation
 * that is audited, and the database refuses a line posted twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, profiles } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { postImport, royaltiesCliCommands } from '../royalty-posting';

const UNLIMITED = path.resolve(
  __dirname,
  '../../../../../vendor/ddex/dsr/samples',
  'DSR_PADPIDA00123456743_PADPIDA0123456766K_UnlimitedMusicMonthly_2020-06-01--2020-06-30__1of1_20200703T075930.tsv',
);
const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const ISRC = 'QZOVL2500001';
const OTHER = 'QZOVL2500002';
/** A DistroKid line: a cumulative export repeats earlier months' lines as they were. */
const sale = (
  store: string,
  country: string,
  quantity: string,
  amount: string,
  isrc = ISRC,
  month = '2025-10',
) =>
  `2025-11-05\t${month}\t${store}\tOverlap\tSong\t${isrc}\t\t${quantity}\t100\tSong\t${country}\t0\t${amount}`;
const statement = (...lines: string[]) => `${[HEADER, ...lines].join('\n')}\n`;

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let artist: { userId: string; cookie: string; email: string };

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  artist = await system.signedInUser({ plan: 'basic' });
  await createTestRelease(system, artist.userId, {
    status: 'live',
    trackCount: 2,
    isrcs: [ISRC, OTHER],
    releaseDate: '2019-01-01',
  });
});
afterAll(async () => {
  await system.close();
});

async function upload(body: Buffer | string, query: Record<string, string>) {
  const search = new URLSearchParams(query);
  const response = await system.request(`/api/admin/royalties/imports?${search}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
  expect(response.status).toBe(202);
  return readJson(await afterJobs(system, response, people.admin.cookie));
}

async function post(importId: string) {
  const response = await afterJobs(
    system,
    await system.request(`/api/admin/royalties/imports/${importId}/post`, {
      method: 'POST',
      cookie: people.admin.cookie,
    }),
    people.admin.cookie,
  );
  return readJson(response);
}

async function balance(): Promise<number> {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, artist.userId));
  return row?.balanceCents ?? 0;
}

describe('a cumulative re-export of a posted statement', () => {
  const october = [sale('Spotify', 'US', '1000', '3.20'), sale('Apple Music', 'DE', '10', '0.10')];
  let postedOn = '';

  it('marks the lines already posted, says how many and how much, and credits only the new line', async () => {
    const first = await upload(statement(...october), { filename: 'october.tsv' });
    expect(first).toMatchObject({ status: 'staged', overlap: null, matched: { lines: 2, amount: '3.3' } });
    const posted = await post(first.id);
    expect(posted).toMatchObject({ status: 'posted', postedCents: 330 });
    const before = await balance();

    const again = await upload(statement(...october, sale('Deezer', 'FR', '7', '0.07')), {
      filename: 'october-reexport.tsv',
    });
    expect(again.status).toBe('staged');
    expect(again.overlap).toMatchObject({
      lines: 2,
      amount: '3.3',
      reports: [{ importId: first.id, fileName: 'october.tsv', lines: 2, amount: '3.3' }],
      included: null,
    });
    expect(again.overlap.reports[0].postedAt).toBe(posted.postedAt);
    postedOn = String(posted.postedAt).slice(0, 10);
    // Ready to post: only the new line, for one artist.
    expect(again.matched).toEqual({ lines: 1, amount: '0.07' });
    expect(again.matchedArtists).toBe(1);

    const result = await post(again.id);
    expect(result).toMatchObject({ status: 'posted', postedCents: 7 });
    expect(await balance()).toBe(before + 7);
    const [earned] = await system.db
      .execute<{ n: string | number }>(
        sql`select count(*) as n from royalty_earnings where import_id = ${again.id}`,
      )
      .then((r) => (r as unknown as { rows: { n: string | number }[] }).rows);
    expect(Number(earned?.n)).toBe(1);
  });

  it('is named by royalties:import at the command line too', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-overlap-')), 'october-cli.tsv');
    fs.writeFileSync(file, statement(...october, sale('Tidal', 'NO', '2', '0.02')));
    const output = await royaltiesCliCommands['royalties:import']?.run(system, [file], {});
    expect(output).toContain('Matched 1 line(s), unmatched 0, refused 0.');
    expect(output).toContain(`Left out: 2 line(s), 3.3 USD, already posted in october.tsv on ${postedOn}.`);
  });
});

describe('identical lines of one file', () => {
  const twin = sale('Tidal', 'NO', '3', '0.03', OTHER, '2025-09');

  it('count each: two identical lines post twice; a re-export with a third posts only the third', async () => {
    const before = await balance();
    const first = await upload(statement(twin, twin), { filename: 'september.tsv' });
    expect(first).toMatchObject({ overlap: null, matched: { lines: 2, amount: '0.06' } });
    await post(first.id);
    expect(await balance()).toBe(before + 6);

    const again = await upload(statement(twin, twin, twin), { filename: 'september-reexport.tsv' });
    expect(again.overlap).toMatchObject({ lines: 2, amount: '0.06' });
    expect(again.matched).toEqual({ lines: 1, amount: '0.03' });
    await post(again.id);
    expect(await balance()).toBe(before + 9);
  });
});

describe('a re-sent DSR', () => {
  it('is known by sender, period and SalesTransactionId even under a new MessageId', async () => {
    const original = fs.readFileSync(UNLIMITED, 'utf8');
    const first = await upload(original, { filename: 'unlimited.tsv', rate: '1.25' });
    expect(first).toMatchObject({ status: 'staged', format: 'dsr', overlap: null });
    await post(first.id);

    // The same sales under another MessageId (a re-sent report): not the same file, not the same message.
    const head = original.split('\n')[0] as string;
    const cells = head.split('\t');
    cells[4] = `${cells[4]}-RESENT`;
    const resent = original.replace(head, cells.join('\t'));
    const again = await upload(resent, { filename: 'unlimited-resent.tsv', rate: '1.25' });
    expect(again.status).toBe('staged');
    expect(again.overlap).toMatchObject({
      lines: 15,
      amount: '5000',
      reports: [{ fileName: 'unlimited.tsv' }],
    });
    expect(again.matched.lines).toBe(0);
    expect(again.unmatched.lines).toBe(0);
    // Posting it books nothing again: no earnings, no unmatched line, nothing credited.
    const before = await balance();
    expect(await post(again.id)).toMatchObject({ status: 'posted', postedCents: 0 });
    expect(await balance()).toBe(before);
    const [counted] = await system.db
      .execute(
        sql`select (select count(*) from royalty_earnings where import_id = ${again.id}) as earnings,
                   (select count(*) from royalty_posted_lines where import_id = ${again.id}) as posted`,
      )
      .then((r) => (r as unknown as { rows: { earnings: string | number; posted: string | number }[] }).rows);
    expect({ earnings: Number(counted?.earnings), posted: Number(counted?.posted) }).toEqual({
      earnings: 0,
      posted: 0,
    });
  });
});

describe('including lines already posted', () => {
  it('needs an explicit confirmation by an admin, is audited and then credits them', async () => {
    const lines = [sale('Spotify', 'GB', '400', '1.20', ISRC, '2025-08')];
    const first = await upload(statement(...lines), { filename: 'august.tsv' });
    await post(first.id);
    const again = await upload(statement(...lines, sale('Napster', 'GB', '1', '0.01', ISRC, '2025-08')), {
      filename: 'august-reexport.tsv',
    });
    expect(again.overlap).toMatchObject({ lines: 1, amount: '1.2' });
    const include = (json: unknown, cookie = people.admin.cookie) =>
      system.request(`/api/admin/royalties/imports/${again.id}/include-overlap`, {
        method: 'POST',
        json,
        cookie,
      });

    expect((await include({ confirm: true }, people.artist.cookie)).status).toBe(403);
    expect((await include({})).status).toBe(422);

    const response = await include({ confirm: true });
    expect(response.status).toBe(200);
    const summary = await readJson(response);
    expect(summary.overlap).toMatchObject({
      lines: 0,
      included: { lines: 1, amount: '1.2', by: people.admin.email },
    });
    expect(summary.matched).toEqual({ lines: 2, amount: '1.21' });
    const audits = await system.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'royalties.overlap_override'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorEmail: people.admin.email,
      subjectType: 'royalty_report',
      subjectId: again.id,
      subjectLabel: 'august-reexport.tsv',
      after: { included: { lines: 1, amount: '1.2' } },
    });
    // Nothing left to include: a second confirmation is refused.
    expect((await include({ confirm: true })).status).toBe(409);

    const before = await balance();
    await post(again.id);
    expect(await balance()).toBe(before + 121);
  });
});

describe('a line first held in suspense', () => {
  it('is known when a re-export matches it after its code was assigned: paid once', async () => {
    const unknown = 'QZOVL2500099';
    const { trackIds } = await createTestRelease(system, artist.userId, {
      status: 'live',
      isrcs: [null],
      releaseDate: '2019-01-01',
    });
    const held = sale('Spotify', 'FR', '100', '0.50', unknown, '2025-06');
    const first = await upload(statement(held), { filename: 'june.tsv' });
    expect(first.unmatched).toEqual({ lines: 1, amount: '0.5' });
    await post(first.id);
    const before = await balance();
    const assigned = await system.request('/api/admin/royalties/suspense/assign', {
      method: 'POST',
      json: { code: unknown, kind: 'isrc', trackId: trackIds[0] },
      cookie: people.admin.cookie,
    });
    expect(assigned.status).toBe(200);
    expect(await balance()).toBe(before + 50);

    // The code is remembered: the re-export matches the held line, which was posted (to suspense) already.
    const again = await upload(statement(held, sale('Deezer', 'FR', '1', '0.04', unknown, '2025-06')), {
      filename: 'june-reexport.tsv',
    });
    expect(again.overlap).toMatchObject({ lines: 1, amount: '0.5', reports: [{ fileName: 'june.tsv' }] });
    expect(again.matched).toEqual({ lines: 1, amount: '0.04' });
    await post(again.id);
    expect(await balance()).toBe(before + 54);
  });
});

describe('the database constraint', () => {
  it('refuses a line posted twice: two reports staged before either was posted', async () => {
    const lines = [sale('Spotify', 'SE', '500', '2.00', OTHER, '2025-07')];
    const a = await upload(statement(...lines), { filename: 'july-a.tsv' });
    const b = await upload(statement(...lines, sale('Qobuz', 'SE', '1', '0.05', OTHER, '2025-07')), {
      filename: 'july-b.tsv',
    });
    // Neither is posted yet: nothing is marked.
    expect(b.overlap).toBeNull();
    expect(b.matched.lines).toBe(2);
    await post(a.id);
    const before = await balance();

    await expect(postImport(system.db, b.id, { admin: null })).rejects.toMatchObject({
      code: 'posted_twice',
      status: 409,
      message:
        '1 line(s) of this report were posted by another report meanwhile; they are now marked already posted and left out. Check the summary and post again.',
    });
    expect(await balance()).toBe(before);
    const marked = await readJson(
      await system.request(`/api/admin/royalties/imports/${b.id}`, { cookie: people.admin.cookie }),
    );
    expect(marked).toMatchObject({
      status: 'staged',
      overlap: { lines: 1, amount: '2', reports: [{ fileName: 'july-a.tsv' }] },
      matched: { lines: 1, amount: '0.05' },
    });
    expect(marked.progress).toMatchObject({ phase: 'ready', linesPosted: 0 });

    await post(b.id);
    expect(await balance()).toBe(before + 5);
  });

  it('is the primary key of royalty_posted_lines, whatever the code does', async () => {
    const [row] = await system.db
      .execute<{ line_identity: string }>(sql`select line_identity from royalty_posted_lines limit 1`)
      .then((r) => (r as unknown as { rows: { line_identity: string }[] }).rows);
    await expect(
      system.db.execute(
        sql`insert into royalty_posted_lines (line_identity, import_id, line_no)
            values (${row?.line_identity}, gen_random_uuid(), 1)`,
      ),
    ).rejects.toThrow();
  });
});
