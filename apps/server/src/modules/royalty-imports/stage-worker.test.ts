/**
 * The staging worker (records 207, 214): a report parsed in a worker thread stages exactly what the same
 * report parsed in the importing thread stages (lines, amounts shared from summaries, identities, totals,
 * warnings, a YouTube report's claims), on PGlite and PostgreSQL. The worker path normally starts at
 * 100,000 lines; ROYALTY_STAGE_WORKER_MIN_LINES lowers it, here to 0 (every import in a worker) beside an
 * import whose limits keep it in this thread. Worker starts are counted, so each path is known to be taken.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rows } from '../../lib/sql';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { deleteImport, importRoyaltyFile } from './service';
import { readLimitsOf } from './source';

const started = vi.hoisted(() => ({ workers: 0 }));
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:worker_threads')>();
  class CountedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      started.workers += 1;
    }
  }
  return { ...actual, Worker: CountedWorker };
});

const ISRCS = ['QZWRK2600001', 'QZWRK2600002', 'QZWRK2600003'];
/** More than two batches of 10,000: the worker runs ahead of the writes and waits for them. */
const SALES_LINES = 25_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'royalty-stage-worker-'));

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem({ ROYALTY_STAGE_WORKER_MIN_LINES: '0' });
  const artist = await system.signedInUser({ plan: 'pro' });
  // Two of the three ISRCs are known; the third track's lines stay unmatched.
  await createTestRelease(system, artist.userId, { status: 'live', trackCount: 2, isrcs: ISRCS.slice(0, 2) });
});
afterAll(async () => {
  await system.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A DSR (Basic Audio) with two summary records whose revenue is shared among their lines (decision 111). */
function dsr(): string {
  const usages = [0, 0];
  const sales: string[] = [];
  for (let line = 1; line <= SALES_LINES; line++) {
    const summary = line % 2;
    const streams = 1 + ((line * 7919) % 500);
    usages[summary] = (usages[summary] as number) + streams;
    sales.push(
      `SU02.02\t1\tS${summary + 1}\tT${line}\t\tA${1 + (line % 3)}\ttrue\t${streams}\t\t\tOnDemandStream`,
    );
  }
  const blocks = [
    'RE01.02\t1\tR1\trel1\t\t\t\tWorker Artist\t\tAlbum\t\tAlbum\tLabel\t\t\t',
    ...ISRCS.map(
      (isrc, i) =>
        `AS02.03\t1\tA${i + 1}\tdsp${i + 1}\t${isrc}\tTrack ${i + 1}\t\tWorker Artist\t\tPT3M\tSoundRecording\t\t\t\t\t\t\t\t\t\t\ttrue`,
    ),
    ...sales,
  ];
  const summaries = ['US', 'DE'].map(
    (country, s) =>
      `SY01.02\tS${s + 1}\tWorkerStore\t\tSubscriptionModel\tOnDemandStream\t${country}\tWorker Premium\t${usages[s]}\t\tUSD\t${((usages[s] as number) * 0.0037).toFixed(2)}\t\tUSD\t1`,
  );
  const total = 1 + summaries.length + blocks.length + 1;
  return [
    'HEAD\tdsrf/1.1/1.4.1/1.3\tBasicAudioProfile\t1.3\tWORKER-1\t2026-04-10T09:00:00Z\t1\t1\t2026-01-01\t2026-03-31\tPADPIDA99999999013\tWorker Stream\tWorkerStream\tPADPIDA99999999021\tTunedrop\t',
    ...summaries,
    ...blocks,
    `FOOT\t${total}\t${total}\t${summaries.length}\t1\t1`,
  ].join('\n');
}

/** A YouTube Content ID report: claims by ISRC on two videos, an unknown asset, a refund. */
function youtube(): string {
  const lines = [
    'adjustment_type,day,country,video_id,channel_id,asset_id,isrc,video_title,channel_display_name,owned_views,partner_revenue',
  ];
  for (let i = 0; i < 12_000; i++) {
    const video = `vidWORKER0${i % 3}`;
    const isrc = i % 5 === 0 ? '' : (ISRCS[i % 2] as string);
    lines.push(
      `None,2026-03-${String(1 + (i % 28)).padStart(2, '0')},${i % 3 === 0 ? 'US' : 'FR'},${video},UCworkerchannel000000000,A90000000000${String(i % 4).padStart(4, '0')},${isrc},Video ${i % 2},Channel,${1 + (i % 100)},${(0.000137 * (1 + (i % 97))).toFixed(6)}`,
    );
  }
  lines.push(
    `Reversal,2026-03-29,US,vidWORKER00,UCworkerchannel000000000,,${ISRCS[0]},Video 0,Channel,0,-0.250000`,
  );
  return lines.join('\n');
}

type Snapshot = {
  summary: Record<string, unknown>;
  lines: Record<string, unknown>[];
  claims: Record<string, unknown>[];
};

/** Imports the file in this thread (limits keep it under the worker's threshold) or in a worker, reads back what it staged, then deletes it. */
async function importAndRead(file: string, format: 'dsr' | 'youtube', inWorker: boolean): Promise<Snapshot> {
  const before = started.workers;
  const limits = readLimitsOf(system.config);
  const summary = await importRoyaltyFile(system, {
    filePath: file,
    fileName: path.basename(file),
    format,
    limits: inWorker ? limits : { ...limits, stageWorkerMinLines: Number.MAX_SAFE_INTEGER },
  });
  expect(started.workers - before).toBe(inWorker ? 1 : 0);
  const lines = await rows<Record<string, unknown>>(
    system.db,
    sql`select line_no, line_key, summary_id, isrc, upc, title, artist, store, country, period, usage_type,
               units::text as units, amount::text as amount, royalty_bearing, track_id, release_id, user_id,
               line_identity::text as line_identity
          from royalty_import_lines where import_id = ${summary.id} order by line_no`,
  );
  const claims = await rows<Record<string, unknown>>(
    system.db,
    sql`select c.track_id, c.video_id, c.asset_id, u.views::text as views, u.amount::text as amount, u.lines
          from content_id_claim_usage u join content_id_claims c on c.id = u.claim_id
         where u.import_id = ${summary.id} order by c.track_id, c.video_id`,
  );
  await deleteImport(system.db, summary.id);
  const { id: _id, createdAt: _createdAt, ...rest } = summary;
  return { summary: rest, lines, claims };
}

describe('staging in a worker thread', () => {
  it('stages a DSR exactly as the importing thread does: lines, shared amounts, identities, totals', async () => {
    const file = path.join(
      dir,
      'DSR_PADPIDA99999999021_PADPIDA99999999013_WorkerStream_2026-Q1__1of1_20260410T090000.tsv',
    );
    fs.writeFileSync(file, dsr());
    const inThread = await importAndRead(file, 'dsr', false);
    const inWorker = await importAndRead(file, 'dsr', true);
    expect(inThread.summary).toMatchObject({ status: 'staged', lineCount: SALES_LINES, errors: [] });
    expect(inThread.lines).toHaveLength(SALES_LINES);
    // Two thirds of the lines are of known ISRCs; the amounts are the summaries' shares, to the cent.
    expect(inThread.summary.matched).toMatchObject({ lines: Math.round((SALES_LINES * 2) / 3) });
    expect(inWorker.summary).toEqual(inThread.summary);
    expect(inWorker.lines).toEqual(inThread.lines);
  });

  it('stages a YouTube report exactly as the importing thread does, with its claims', async () => {
    const file = path.join(dir, 'youtube-2026-03.csv');
    fs.writeFileSync(file, youtube());
    const inThread = await importAndRead(file, 'youtube', false);
    const inWorker = await importAndRead(file, 'youtube', true);
    expect(inThread.summary).toMatchObject({ status: 'staged', format: 'youtube', errors: [] });
    expect(inThread.claims).toHaveLength(6);
    expect(inWorker.summary).toEqual(inThread.summary);
    expect(inWorker.lines).toEqual(inThread.lines);
    expect(inWorker.claims).toEqual(inThread.claims);
  });
});
