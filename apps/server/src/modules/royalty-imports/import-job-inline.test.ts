/**
 * The import job is the one way a report is read (issue 36, record 276): the CLI waiting, tests and benches
 * queue it as an upload does and run it in their own process, or wait for the worker that took it first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { royaltyImports } from '../../db/schema';
import { fetchNext } from '../../lib/job-tables';
import { rows } from '../../lib/sql';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { createStuckImport } from '../../test-support/royalty-jobs';
import { importJob } from './jobs';
import { importRoyaltyFile, queueLocalFile, runImport, runQueuedImport } from './service';
import { readLimitsOf } from './source';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const ISRC = 'QZINL2500001';
const statement = (store: string, count = 3) =>
  [
    HEADER,
    ...Array.from(
      { length: count },
      () => `2025-05-02\t2025-03\t${store}\tInline\tSong\t${ISRC}\t\t10\t100\tSong\tUS\t0\t0.25`,
    ),
  ].join('\n');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-inline-'));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

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

type JobRow = { state: string; retryCount: number };
const jobsOf = (importId: string) =>
  rows<JobRow>(
    system.db,
    sql`select state, retry_count from pgboss.job where name = ${importJob.name} and singleton_key = ${importId}`,
  );

describe('importRoyaltyFile (the CLI waiting, tests, benches)', () => {
  const importFile = (file: string) =>
    importRoyaltyFile(system, {
      filePath: file,
      fileName: path.basename(file),
      format: 'auto',
      limits: readLimitsOf(system.config),
    });

  it('queues the import job and completes it in this process; the caller keeps its file', async () => {
    const file = write('waiting.tsv', statement('Deezer'));
    const summary = await importFile(file);
    expect(summary).toMatchObject({ status: 'staged', lineCount: 3 });
    expect(await jobsOf(summary.id)).toEqual([{ state: 'completed', retryCount: 0 }]);
    const [row] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, summary.id));
    // Measured as it was copied (record 251): the total is the file's lines, the header included.
    expect(row).toMatchObject({ status: 'staged', phase: 'ready', linesTotal: 4, fileKey: null });
    expect(fs.existsSync(file)).toBe(true);
    expect(await rows(system.db, sql`select 1 from job_runs`)).toEqual([]);
  });

  it("completes the job with a failed import, as a worker's run would, when the file cannot be read", async () => {
    const file = write('long.tsv', `${statement('Napster', 1)}\n${'x'.repeat(100 * 1024)}`);
    const summary = await importFile(file);
    expect(summary.status).toBe('failed');
    expect(summary.errors.join(' ')).toContain('longer than 64 KiB');
    const [failed] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, summary.id));
    expect(failed).toMatchObject({ status: 'failed', fileKey: null });
    expect(await jobsOf(summary.id)).toEqual([{ state: 'completed', retryCount: 0 }]);
  });
});

describe('runQueuedImport', () => {
  it('waits for the worker that took the job first, and returns once the import is staged', async () => {
    const limits = readLimitsOf(system.config);
    const accepted = await queueLocalFile(system, {
      filePath: write('worker.tsv', statement('Tidal')),
      fileName: 'worker.tsv',
      format: 'auto',
      limits,
    });
    // A worker fetches it before this process does.
    const taken = await fetchNext(system.db, importJob.name);
    expect(taken).toBeDefined();
    const waiting = runQueuedImport(system, accepted.id, limits);
    // The worker's run (the handler's function); the caller returns once it has staged the report.
    await runImport(system, accepted.id, limits);
    await waiting;
    const [row] = await system.db.select().from(royaltyImports).where(eq(royaltyImports.id, accepted.id));
    expect(row).toMatchObject({ status: 'staged', phase: 'ready', lineCount: 3 });
    // It did not run it a second time: the worker's run is still the one (active until the worker ends it).
    expect(await jobsOf(accepted.id)).toEqual([{ state: 'active', retryCount: 0 }]);
  });

  it('refuses to wait for an import whose job is gone (retries used up)', async () => {
    const stuck = await createStuckImport(system, { fileName: 'stuck.tsv', content: statement('Qobuz') });
    await expect(runQueuedImport(system, stuck.id, readLimitsOf(system.config))).rejects.toThrow(
      'The import stopped before it was read',
    );
  });
});
