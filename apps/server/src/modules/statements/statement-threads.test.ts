/**
 * Statements built in a worker thread (record 208): the thread's CSV and PDF are those the event loop
 * builds, and a statement that fails in the thread rejects with an error naming it instead of hanging.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { StatementData } from './statement-compose';
import { closeStatementThreads, runStatementJob } from './statement-threads';
import type { StatementJob } from './statement-worker';

const data: StatementData = {
  period: '2026-03',
  artistProfile: null,
  account: { name: 'Ada', email: 'ada@example.com', openingCents: 0, closingCents: 1500 },
  log: [
    {
      id: '1',
      updateType: 'royalty_import',
      cents: 1200,
      day: '2026-03-02',
      notes: null,
      royaltyImportId: 'i1',
      withdrawalStatus: null,
    },
    {
      id: '2',
      updateType: 'manual',
      cents: 300,
      day: '2026-03-03',
      notes: null,
      royaltyImportId: null,
      withdrawalStatus: null,
    },
  ],
  postings: [
    { grossCents: 1200, splitOutCents: 0, splitInCents: 0, feeCents: 0, feePercent: null, importId: 'i1' },
  ],
  profileAmounts: [],
  found: [
    {
      salesPeriod: '2026-01',
      store: 'Spotify',
      country: 'US',
      usageType: 'stream',
      releaseTitle: 'Звезда',
      upc: null,
      trackTitle: '夜の音楽',
      isrc: 'QZSCR2600001',
      units: '10',
      amount: '12.004',
      lines: 2,
      artistProfileId: null,
    },
  ],
  shareSources: [],
  receivedLines: [],
  issuer: { legalName: 'Label Ltd', address: '1 Road\nTown' },
};

afterAll(closeStatementThreads);

describe('statements in a worker thread', () => {
  it('gives the same CSV, summary and PDF text as the event loop', async () => {
    const csvJob: StatementJob = { kind: 'csv', data, expenses: [] };
    const threaded = await runStatementJob(csvJob, 1);
    expect(threaded).toBe(await runStatementJob(csvJob, 0));
    expect(threaded).toContain('夜の音楽');
    expect(await runStatementJob({ kind: 'summary', data }, 1)).toEqual(
      await runStatementJob({ kind: 'summary', data }, 0),
    );
    const pdf = await runStatementJob({ kind: 'pdf', data, expenses: [], productName: 'Tunedrop' }, 1);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);
  });

  it('rejects with an error naming the statement when the thread fails, and keeps serving', async () => {
    const broken = { ...data, log: null } as unknown as StatementData;
    await expect(runStatementJob({ kind: 'csv', data: broken, expenses: [] }, 1)).rejects.toThrow(
      /The csv statement of 2026-03 failed in its worker thread: .+/,
    );
    expect(await runStatementJob({ kind: 'csv', data, expenses: [] }, 1)).toContain('Label Ltd');
  });
});
