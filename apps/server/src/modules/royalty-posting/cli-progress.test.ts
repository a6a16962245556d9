/**
 * `royalties:import` progress (issue 24, decision 161): waiting, the CLI draws the import's phases and
 * lines read on its stderr (one line per phase and tenth on a non-terminal, redrawn in place on a
 * terminal); `--no-wait` queues the job and prints the id; `--post` still posts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { royaltyImports } from '../../db/schema';
import { rows } from '../../lib/sql';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { runRoyaltyJobs } from '../../test-support/royalty-jobs';
import { isPostgres } from '../royalty-imports';
import { royaltiesCliCommands } from './cli';
import { POST_CHUNK_LINES, POST_CHUNK_LINES_POSTGRES } from './posting';
import { progressText } from './progress-bar';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const ISRC = 'QZCLI2500001';
const statement = (count: number, store: string) =>
  [
    HEADER,
    ...Array.from(
      { length: count },
      () => `2025-05-02\t2025-03\t${store}\tCli\tSong\t${ISRC}\t\t10\t100\tSong\tUS\t0\t0.01`,
    ),
  ].join('\n');
const importCommand = royaltiesCliCommands['royalties:import'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-cli-progress-'));

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
  const artist = await system.signedInUser({ plan: 'basic' });
  await createTestRelease(system, artist.userId, { status: 'live', isrcs: [ISRC] });
});
afterAll(async () => {
  await system.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A stderr stand-in that records what is written. */
function fakeStderr(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = { isTTY, write: (text: string) => chunks.push(text) > 0 };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

describe('royalties:import progress', () => {
  it('prints plain progress lines on a non-terminal and posts with --post', async () => {
    const file = path.join(dir, 'plain.tsv');
    fs.writeFileSync(file, statement(25_000, 'Deezer'));
    const stderr = fakeStderr(false);
    const output = await importCommand?.run(system, [file], { post: true }, { stderr: stderr.stream });
    expect(output).toContain('25000 line(s)');
    // Through the import job, run in this process (record 276): the job is there, completed.
    const id = /Import ([0-9a-f-]{36}):/.exec(output ?? '')?.[1] as string;
    expect(
      await rows(
        system.db,
        sql`select state from pgboss.job where name = 'royalties.import' and singleton_key = ${id}`,
      ),
    ).toEqual([{ state: 'completed' }]);
    expect(output).toContain('Posted: $250.00 to 1 artist(s) from 25000 line(s)');
    const lines = stderr.text().split('\n').filter(Boolean);
    // Lines are the file's lines (the header is line 1), counted before parsing.
    expect(lines).toEqual([
      '[------------------------] 0% Reading lines: 0 of 25,001 lines, 0 so far',
      '[##########--------------] 40% Reading lines: 10,001 of 25,001 lines, 100.00 so far',
      '[###################-----] 80% Reading lines: 20,001 of 25,001 lines, 200.00 so far',
      '[########################] 100% Reading lines: 25,001 of 25,001 lines, 250.00 so far',
      '[########################] 100% Checking totals: 25,001 of 25,001 lines, 250.00 so far',
      '[########################] 100% Ready to post: 25,001 of 25,001 lines, 250.00 so far',
      // The first posting chunk: 1,000 lines on PGlite, the whole report on PostgreSQL (record 204).
      `Posting: ${(isPostgres(system.db) ? Math.min(25_000, POST_CHUNK_LINES_POSTGRES) : POST_CHUNK_LINES).toLocaleString('en-US')} line(s) posted`,
    ]);
    expect(stderr.text()).not.toContain('\r');
  });

  it('redraws one line in place on a terminal', async () => {
    const file = path.join(dir, 'tty.tsv');
    fs.writeFileSync(file, statement(50, 'Tidal'));
    const stderr = fakeStderr(true);
    await importCommand?.run(system, [file], {}, { stderr: stderr.stream });
    expect(stderr.text()).toContain('\r\x1b[2K');
    expect(stderr.text()).toContain('Ready to post');
    expect(stderr.text().endsWith('\n')).toBe(true);
  });

  it('queues the job with --no-wait and prints the id; the worker then reads it', async () => {
    const file = path.join(dir, 'queued.tsv');
    fs.writeFileSync(file, statement(10, 'Napster'));
    const output = (await importCommand?.run(system, [file], { 'no-wait': true })) ?? '';
    const id = /Import ([0-9a-f-]{36}) queued/.exec(output)?.[1] as string;
    expect(id).toBeDefined();
    expect(fs.existsSync(file)).toBe(true);
    const [queued] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id));
    expect(queued).toMatchObject({ status: 'staging', phase: 'queued' });
    await runRoyaltyJobs(system);
    const [ready] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, id));
    expect(ready).toMatchObject({ status: 'staged', phase: 'ready', lineCount: 10 });
    await expect(importCommand?.run(system, [file], { 'no-wait': true, post: true })).rejects.toThrow(
      '--post waits for the import',
    );
  });

  it('words each phase', () => {
    const base = { linesRead: 0, linesTotal: null, amountRead: '0', linesPosted: 0, postError: null };
    expect(progressText({ ...base, phase: 'queued' })).toBe('Waiting for a worker');
    expect(
      progressText({ ...base, phase: 'reading', linesRead: 5, linesTotal: 10, amountRead: '1.50' }),
    ).toBe('[############------------] 50% Reading lines: 5 of 10 lines, 1.50 so far');
  });
});
