/**
 * Staging a report's lines: each line matched in memory against the catalogue's codes, its amount
 * shared from its summary while the file streams, written by COPY in batches (decision 114) with one
 * batch in flight while a worker thread parses the next (record 207). This file is the writer's side.
 */
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { run } from '../../lib/sql';
import { openCopySink } from './copy-in';
import { FormatError } from './detect';
import type { ParseOptions } from './parse';
import type { ParseReport } from './parse-common';
import { type ReportSource, SourceError } from './source';
import {
  onMessage,
  type StageWorkerMessage,
  type StageWorkerReply,
  startStageJob,
  WORKER_MIN_LINES,
} from './stage-job';
import { type AmountTally, type BatchEnd, loadCodeTargets, STAGED_COLUMNS, tallyAmount } from './stage-rows';
import type { ClaimSum } from './youtube-claim-sums';

type StageOptions = {
  /** Lines up to this number are staged already (by a run that was killed): parsed, not written again. */
  after: number;
  /** After each batch is written: the last line read and the sum of the amounts so far. */
  onBatch: (linesRead: number, amount: string) => Promise<void>;
  /** Called once a DSR's HEAD is read; throwing refuses the report (nothing more is staged). */
  onHead?: ((report: ParseReport) => Promise<void>) | undefined;
  /** The file's line count (null: not known): from `workerMinLines` on, the parse runs in a worker thread. */
  linesTotal: number | null;
  /** ROYALTY_STAGE_WORKER_MIN_LINES (0: always a worker); WORKER_MIN_LINES when not given. */
  workerMinLines?: number | undefined;
};

export type StagedFile = {
  report: ParseReport;
  tally: AmountTally;
  identitiesMayRepeat: boolean;
  /** A YouTube report's claims summed by the worker (YoutubeClaimCollector.restore). */
  claims: Map<string, ClaimSum> | null;
  /** The last line staged: the count of an import whose count was not known. */
  linesRead: number;
};

/**
 * Parses and stages a file: the parse, matching, allocation and COPY text run in a worker thread
 * (stage-worker.ts), so this thread only writes the batches it is handed (one COPY in flight, the
 * worker at most two batches ahead) and keeps serving requests. A SourceError of the file (a limit,
 * a damaged gzip stream) ends staging with the message in the report's errors, as the parse would.
 */
export async function stageFile(
  db: Db,
  importId: string,
  source: { source: ReportSource; parse: Omit<ParseOptions, 'onHead'> },
  options: StageOptions,
): Promise<StagedFile> {
  const targets = await loadCodeTargets(db);
  const sink = await openCopySink(db, 'royalty_import_lines', STAGED_COLUMNS);
  const job = startStageJob(
    { importId, source: source.source, parse: source.parse, targets, after: options.after },
    // A count not known (an S3 import queued by an older release, record 310): a worker, as for a large file.
    options.linesTotal === null || options.linesTotal >= (options.workerMinLines ?? WORKER_MIN_LINES),
  );
  const worker = job.port;
  let committed: BatchEnd = { line: 0, amount: '0.00' };
  // One COPY in flight; its failure is observed before the next batch is written.
  let inFlight: Promise<void> | null = null;
  const write = async (rows: Uint8Array, end: BatchEnd) => {
    if (inFlight) await inFlight;
    inFlight = null;
    // Only what is committed counts: a run killed now resumes after these lines.
    if (committed.line > 0) await options.onBatch(committed.line, committed.amount);
    if (rows.length === 0) {
      committed = end;
      worker.postMessage({ type: 'written' } satisfies StageWorkerReply);
      return;
    }
    const next = sink.write(rows).then(() => {
      committed = end;
    });
    next.catch(() => undefined);
    inFlight = next;
    // The worker may parse the next batch while this one is written.
    worker.postMessage({ type: 'written' } satisfies StageWorkerReply);
  };
  try {
    const done = await new Promise<Extract<StageWorkerMessage, { type: 'done' | 'failed' }>>(
      (resolve, reject) => {
        // Messages are handled one after the other: a batch is written before the next is looked at.
        let chain = Promise.resolve();
        onMessage<StageWorkerMessage>(worker, (message) => {
          chain = chain.then(async () => {
            if (message.type === 'head') {
              await options.onHead?.(message.report);
              worker.postMessage({ type: 'head-accepted' } satisfies StageWorkerReply);
            } else if (message.type === 'batch') await write(message.rows, message.end);
            else resolve(message);
          });
          chain.catch(reject);
        });
        if (worker instanceof Worker) {
          worker.on('error', reject);
          worker.on('exit', (code) => reject(new Error(`the staging worker stopped (exit code ${code})`)));
        }
      },
    );
    if (inFlight) await inFlight;
    if (done.type === 'failed') {
      if (done.kind !== 'source' || !done.report) {
        const error =
          done.kind === 'source'
            ? new SourceError(done.message)
            : done.kind === 'format'
              ? new FormatError(done.message)
              : new Error(done.message);
        if (done.stack) error.stack = done.stack;
        throw error;
      }
      done.report.errors.push(done.message);
      return {
        report: done.report,
        tally: { absTotal: 0, largest: null },
        identitiesMayRepeat: true,
        claims: null,
        linesRead: committed.line,
      };
    }
    await options.onBatch(committed.line, committed.amount);
    const { report, staged } = done;
    if (staged.fallbacks.length > 0) {
      await run(
        db,
        sql`
        update royalty_import_lines set amount = null
         where import_id = ${importId}
           and summary_id in (select jsonb_array_elements_text(${JSON.stringify(staged.fallbacks)}::jsonb))`,
      );
    }
    for (const summary of report.summaries.values())
      tallyAmount(staged.tally, summary.line, summary.netRevenue);
    return {
      report,
      tally: staged.tally,
      identitiesMayRepeat: staged.identitiesMayRepeat,
      claims: done.claims,
      linesRead: committed.line,
    };
  } finally {
    // Nothing may write after the caller's clean-up: the COPY in flight ends first.
    await (inFlight as Promise<void> | null)?.catch(() => undefined);
    await job.stop();
    await sink.close();
  }
}
