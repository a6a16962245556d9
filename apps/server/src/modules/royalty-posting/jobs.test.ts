/**
 * Royalty imports as jobs (issue 24, decision records 161 and 162) on the test database (PGlite, or
 * PostgreSQL with DATABASE_URL): the upload answers 202 with the id, the job moves the import through
 * its phases with progress, a failed parse fails the import with its line and the file can come again,
 * a double posting request posts once, and a run killed between chunks (staging or posting) or at any
 * step of an import (record 220) completes once when retried: no duplicate lines, exact totals.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, royaltyImports } from '../../db/schema';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { runRoyaltyJobs } from '../../test-support/royalty-jobs';
import { type ImportStep, runImport } from '../royalty-imports';
import { runPosting } from './posting';
import { postInTransaction } from './posting-settle';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const ISRC = 'QZJOB2500001';
const sale = (amount: string, store = 'Spotify') =>
  `2025-05-02\t2025-03\t${store}\tJobs\tSong\t${ISRC}\t\t10\t100\tSong\tUS\t0\t${amount}`;
/** `count` lines of 0.01 USD each, tagged by `store` so each file differs. */
const statement = (count: number, store: string) =>
  [HEADER, ...Array.from({ length: count }, () => sale('0.01', store))].join('\n');

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
});

const upload = (body: string) =>
  system.request('/api/admin/royalties/imports?filename=jobs.tsv', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie: people.admin.cookie,
  });
const asAdmin = (url: string, method = 'GET') => system.request(url, { method, cookie: people.admin.cookie });
const rowOf = async (id: string) =>
  (await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id)))[0];
const balanceOf = async () =>
  (await system.db.select().from(profiles).where(eq(profiles.id, artistId)))[0]?.balanceCents ?? 0;
const countOf = async (table: 'royalty_import_lines' | 'royalty_earnings', id: string) => {
  const result = await system.db.execute(
    sql`select count(*)::int as n, count(distinct line_no)::int as d from ${sql.raw(table)} where import_id = ${id}`,
  );
  return (result as unknown as { rows: { n: number; d: number }[] }).rows[0];
};

describe('an import as a job', () => {
  it('answers 202 with the id at once; the job reads, stages, then the posting job posts once', async () => {
    const response = await upload(statement(30, 'Deezer'));
    expect(response.status).toBe(202);
    const accepted = await readJson(response);
    expect(accepted).toMatchObject({ id: expect.any(String), progress: { phase: 'queued', linesRead: 0 } });
    // Nothing read yet: the list shows it waiting for a worker.
    const listed = (await readJson(await asAdmin('/api/admin/royalties/imports'))).items[0];
    expect(listed).toMatchObject({ id: accepted.id, progress: { phase: 'queued' } });

    const phases: string[] = [];
    await runImport(system, accepted.id, undefined, (progress) => phases.push(progress.phase));
    expect(phases[0]).toBe('reading');
    expect(phases).toContain('staging');
    expect(phases.at(-1)).toBe('ready');
    const summary = await readJson(await asAdmin(`/api/admin/royalties/imports/${accepted.id}`));
    expect(summary).toMatchObject({
      status: 'staged',
      lineCount: 30,
      totalAmount: '0.3',
      progress: { phase: 'ready', linesRead: 31, linesTotal: 31, amountRead: '0.30' },
    });

    const before = await balanceOf();
    const [first, second] = await Promise.all([
      asAdmin(`/api/admin/royalties/imports/${accepted.id}/post`, 'POST'),
      asAdmin(`/api/admin/royalties/imports/${accepted.id}/post`, 'POST'),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const refused = await readJson(first.status === 409 ? first : second);
    expect(refused.error.message).toBe('This report is already being posted.');
    expect((await rowOf(accepted.id))?.phase).toBe('posting');
    await runRoyaltyJobs(system);
    await runRoyaltyJobs(system);
    expect(await balanceOf()).toBe(before + 30);
    expect(await rowOf(accepted.id)).toMatchObject({ status: 'posted', phase: 'posted', linesPosted: 30 });
    const third = await asAdmin(`/api/admin/royalties/imports/${accepted.id}/post`, 'POST');
    expect(third.status).toBe(409);
    expect(await countOf('royalty_earnings', accepted.id)).toEqual({ n: 30, d: 30 });
  });

  it('fails an import whose parse fails, with the line and the reason, and takes the file again', async () => {
    const text = [HEADER, sale('1.00'), `${sale('2.00')}\t${'x'.repeat(100 * 1024)}`, sale('3.00')].join(
      '\n',
    );
    const response = await upload(text);
    expect(response.status).toBe(202);
    const { id } = await readJson(response);
    await runRoyaltyJobs(system);
    const summary = await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`));
    expect(summary).toMatchObject({ status: 'failed', progress: { phase: 'failed' } });
    expect(summary.errors).toContain(
      'Line 3 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.',
    );
    expect((await asAdmin(`/api/admin/royalties/imports/${id}/post`, 'POST')).status).toBe(409);
    const again = await upload(text);
    expect(again.status).toBe(202);
  });
});

describe('a worker killed between chunks', () => {
  it('stages the rest when the job is retried: every line once, exact totals', async () => {
    const response = await upload(statement(25_000, 'Tidal'));
    const { id } = await readJson(response);
    // The "crash": the run dies once 10,000 lines are committed (the process would be killed here).
    await expect(
      runImport(system, id, undefined, (progress) => {
        if (progress.linesRead >= 10_000) throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    const partial = await countOf('royalty_import_lines', id);
    expect(partial?.n).toBeGreaterThan(0);
    expect(partial?.n).toBeLessThan(25_000);
    expect((await rowOf(id))?.phase).toBe('reading');

    await runImport(system, id);
    expect(await countOf('royalty_import_lines', id)).toEqual({ n: 25_000, d: 25_000 });
    expect(await rowOf(id)).toMatchObject({ status: 'staged', phase: 'ready', lineCount: 25_000 });
    const summary = await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`));
    expect(summary.totalAmount).toBe('250');
  });

  it('posts the rest when the posting job is retried: every earnings line once, the exact cents', async () => {
    const { id } = await readJson(await upload(statement(12_000, 'Napster')));
    await runRoyaltyJobs(system);
    const before = await balanceOf();
    expect((await asAdmin(`/api/admin/royalties/imports/${id}/post`, 'POST')).status).toBe(202);
    let chunks = 0;
    await expect(
      runPosting(system.db, id, {
        admin: null,
        // Chunks of 4,000 lines on both databases, so the "kill" after the second chunk lands half way
        // (PostgreSQL's own chunks hold 250,000 lines, record 204); the retry below uses the defaults.
        chunkLines: 4_000,
        onProgress: () => {
          chunks += 1;
          if (chunks === 2) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    // The lines written so far belong to no posted report: the artist's balance has not moved.
    expect(await balanceOf()).toBe(before);
    expect((await countOf('royalty_earnings', id))?.n).toBeGreaterThan(0);
    const result = await runPosting(system.db, id, { admin: null });
    expect(result).toMatchObject({ postedCents: 12_000, earningsLines: 12_000 });
    expect(await countOf('royalty_earnings', id)).toEqual({ n: 12_000, d: 12_000 });
    expect(await balanceOf()).toBe(before + 12_000);
    expect(await runPosting(system.db, id, { admin: null })).toBeNull();
  });
});

describe('an import killed at each step (record 220)', () => {
  const steps: ImportStep[] = ['counted', 'read', 'checked', 'finished'];
  for (const step of steps) {
    it(`finishes on retry when killed at "${step}", with the exact total`, async () => {
      const { id } = await readJson(await upload(statement(1_200, `Kill-${step}`)));
      await expect(
        runImport(system, id, undefined, undefined, {
          atStep: (at) => {
            if (at === step) throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      if (step !== 'finished') {
        // Not ready, and saying so: posting it is refused as still being read, not as having errors.
        expect(await rowOf(id)).toMatchObject({ status: 'staging' });
        const refused = await asAdmin(`/api/admin/royalties/imports/${id}/post`, 'POST');
        expect(refused.status).toBe(409);
        expect((await readJson(refused)).error.message).toBe(
          'This report is still being read; post it once it is ready.',
        );
      }
      await runImport(system, id);
      expect(await countOf('royalty_import_lines', id)).toEqual({ n: 1_200, d: 1_200 });
      expect(await rowOf(id)).toMatchObject({
        status: 'staged',
        phase: 'ready',
        lineCount: 1_200,
        fileKey: null,
      });
      const summary = await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`));
      expect(summary.totalAmount).toBe('12');
    });
  }

  it('finishes an import an older release marked staged before its checks were done', async () => {
    const { id } = await readJson(await upload(statement(700, 'Legacy')));
    await expect(
      runImport(system, id, undefined, undefined, {
        atStep: (at) => {
          if (at === 'checked') throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    // What a run of the older release left: the status written early, the phase still checking.
    await system.db.update(royaltyImports).set({ status: 'staged' }).where(eq(royaltyImports.id, id));
    const refused = await asAdmin(`/api/admin/royalties/imports/${id}/post`, 'POST');
    expect((await readJson(refused)).error.code).toBe('not_ready');
    await runImport(system, id);
    expect(await rowOf(id)).toMatchObject({ status: 'staged', phase: 'ready', lineCount: 700 });
    expect((await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`))).totalAmount).toBe('7');
  });
});

describe('the admin page on an import whose run stopped (record 220)', () => {
  it('shows it staging with its retry time, and the admin retry finishes it; a finished one is refused', async () => {
    const { id } = await readJson(await upload(statement(300, 'Stalled')));
    await expect(
      runImport(system, id, undefined, undefined, {
        atStep: (at) => {
          if (at === 'read') throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    // pg-boss holds the crashed run's retry for later (its backoff).
    const later = new Date(Date.now() + 10 * 60_000);
    await system.db.execute(
      sql`update pgboss.job set state = 'retry', start_after = ${later.toISOString()}::timestamptz
           where name = 'royalties.import' and singleton_key = ${id}`,
    );
    const listed = (await readJson(await asAdmin('/api/admin/royalties/imports'))).items.find(
      (item: { id: string }) => item.id === id,
    );
    expect(listed).toMatchObject({ status: 'staging', retry: { state: 'scheduled' } });
    expect(Math.abs(new Date(listed.retry.at).getTime() - later.getTime())).toBeLessThan(1000);

    // Its retries used up: nothing is scheduled, and the admin's retry queues the job again.
    await system.db.execute(
      sql`update pgboss.job set state = 'failed' where name = 'royalties.import' and singleton_key = ${id}`,
    );
    const stuck = await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`));
    expect(stuck).toMatchObject({ status: 'staging', retry: { state: 'none', at: null } });
    const retried = await asAdmin(`/api/admin/royalties/imports/${id}/retry`, 'POST');
    expect(retried.status).toBe(202);
    expect((await readJson(retried)).retry).toBeNull();
    await runRoyaltyJobs(system);
    const done = await readJson(await asAdmin(`/api/admin/royalties/imports/${id}`));
    expect(done).toMatchObject({
      status: 'staged',
      totalAmount: '3',
      retry: null,
      progress: { phase: 'ready' },
    });

    const refused = await asAdmin(`/api/admin/royalties/imports/${id}/retry`, 'POST');
    expect(refused.status).toBe(409);
    expect((await readJson(refused)).error.message).toBe('This report is not waiting for a retry.');
  });

  it("the admin's retry of an import whose retry waits its backoff queues one job due now in its place", async () => {
    const { id } = await readJson(await upload(statement(200, 'Waiting')));
    await expect(
      runImport(system, id, undefined, undefined, {
        atStep: (at) => {
          if (at === 'read') throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const later = new Date(Date.now() + 10 * 60_000);
    await system.db.execute(
      sql`update pgboss.job set state = 'retry', start_after = ${later.toISOString()}::timestamptz
           where name = 'royalties.import' and singleton_key = ${id}`,
    );
    const retried = await asAdmin(`/api/admin/royalties/imports/${id}/retry`, 'POST');
    expect(retried.status).toBe(202);
    const jobs = await rows<{ state: string; isDue: boolean }>(
      system.db,
      sql`select state, start_after <= now() as is_due from pgboss.job
           where name = 'royalties.import' and singleton_key = ${id} order by created_on`,
    );
    expect(jobs).toEqual([
      { state: 'cancelled', isDue: false },
      { state: 'created', isDue: true },
    ]);
  });
});

describe('the journal-free posting of the bench (record 277)', () => {
  it('is refused unless the posting is rolled back by beforeCommit', async () => {
    await expect(
      postInTransaction(system.db, '00000000-0000-4000-8000-000000000277', {
        admin: null,
        withoutJournal: true,
      }),
    ).rejects.toThrow('withoutJournal is only for a bench whose beforeCommit rolls the posting back');
  });
});
