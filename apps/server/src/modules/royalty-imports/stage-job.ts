/**
 * Where the parse side of staging runs (record 207): a worker thread (stage-worker.ts) for a large file,
 * this thread for a small one, through the same job and messages; it parses the file, stages its rows
 * (stage-rows.ts) and hands each batch to the writer (staging.ts). Touches no database.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { FormatError } from './detect';
import { type ParseOptions, parseFile } from './parse';
import type { ParseReport } from './parse-common';
import { type ReportSource, SourceError } from './source';
import { type BatchEnd, type CodeTargets, type StagedRows, stageRows } from './stage-rows';
import { type ClaimSum, YoutubeClaimCollector } from './youtube-claim-sums';

export type StageWorkerInput = {
  importId: string;
  /**
   * The report: a file on this machine, or a stream (an S3 download, record 310), which reaches a worker
   * as a transferred web stream.
   */
  source: ReportSource | WebReadableStream<Uint8Array>;
  parse: Omit<ParseOptions, 'onHead'>;
  targets: CodeTargets;
  after: number;
};

/** Messages from the staging worker. */
export type StageWorkerMessage =
  | { type: 'head'; report: ParseReport }
  | { type: 'batch'; rows: Uint8Array; end: BatchEnd }
  | {
      type: 'done';
      report: ParseReport;
      staged: StagedRows;
      claims: Map<string, ClaimSum> | null;
    }
  | {
      type: 'failed';
      report: ParseReport | null;
      message: string;
      /** A SourceError (the file's bounds, a damaged gzip stream) or a FormatError keeps its kind. */
      kind: 'source' | 'format' | 'other';
      stack?: string;
    };

/** Messages to the staging worker: the HEAD was accepted; a batch was written (room for another). */
export type StageWorkerReply = { type: 'head-accepted' } | { type: 'written' };

/** Batches handed over and not yet written: the parse waits beyond this many. */
const AHEAD = 2;

/** What talks to the thread that writes: a worker's parentPort, or one end of a MessageChannel. */
export type JobPort = MessagePort | Worker;

/** Listens for the other side's messages on either kind of port. */
export function onMessage<Message>(port: JobPort, listener: (message: Message) => void): void {
  if (port instanceof Worker) port.on('message', listener);
  else port.on('message', listener);
}

/**
 * The parse side of staging (record 207), in the staging worker (stage-worker.ts) or, for a small file,
 * in this thread: parses the file, stages its rows through stageRows and hands each batch over, at most
 * AHEAD batches ahead of the writes; the DSR HEAD waits for the writer's check. Touches no database.
 */
export async function runStageJob(input: StageWorkerInput, port: JobPort): Promise<void> {
  const send = (message: StageWorkerMessage, transfer: ArrayBuffer[] = []) =>
    port.postMessage(message, transfer);
  let outstanding = 0;
  const waiting: { room: (() => void) | null; head: (() => void) | null } = { room: null, head: null };
  onMessage<StageWorkerReply>(port, (reply) => {
    if (reply.type === 'written') {
      outstanding -= 1;
      waiting.room?.();
      waiting.room = null;
    } else {
      waiting.head?.();
      waiting.head = null;
    }
  });
  let report: ParseReport | null = null;
  try {
    const source = input.source instanceof WebReadableStream ? Readable.fromWeb(input.source) : input.source;
    const parsed = await parseFile(source, {
      ...input.parse,
      onHead: (head) =>
        new Promise<void>((resolve) => {
          waiting.head = resolve;
          send({ type: 'head', report: head });
        }),
    });
    report = parsed.report;
    // A YouTube report's claims are summed as its lines stream (decision 193).
    const claims = parsed.report.format === 'youtube' ? new YoutubeClaimCollector() : null;
    const lines = claims ? claims.collect(parsed.lines) : parsed.lines;
    const staged = await stageRows(input.importId, lines, parsed.report, input.targets, {
      after: input.after,
      emit: async (rows, end) => {
        while (outstanding >= AHEAD) await new Promise<void>((resolve) => (waiting.room = resolve));
        outstanding += 1;
        send({ type: 'batch', rows, end }, [rows.buffer as ArrayBuffer]);
      },
    });
    send({ type: 'done', report: parsed.report, staged, claims: claims?.snapshot() ?? null });
  } catch (error) {
    send({
      type: 'failed',
      report,
      message: error instanceof Error ? error.message : String(error),
      kind: error instanceof SourceError ? 'source' : error instanceof FormatError ? 'format' : 'other',
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    });
  }
}

/**
 * Files from this many lines on are parsed in a worker thread; below it, a worker's start (a bundle to
 * load; under tsx and Vitest a compile of the parse modules, seconds on a loaded machine) costs more
 * than the parse, which then runs in this thread through the same job and messages.
 */
export const WORKER_MIN_LINES = 100_000;

/** Where the parse side runs: its end of the channel, and how to stop it. */
type StageJob = { port: JobPort; stop: () => Promise<void> };

export function startStageJob(input: StageWorkerInput, inWorker: boolean): StageJob {
  const { source } = input;
  /** A stream not read to its end (a failure, a refused HEAD) is closed with the job. */
  const closeSource = () => {
    if (source instanceof Readable) source.destroy();
  };
  if (!inWorker) {
    const channel = new MessageChannel();
    void runStageJob(input, channel.port2);
    return {
      port: channel.port1,
      stop: async () => {
        channel.port1.close();
        channel.port2.close();
        closeSource();
      },
    };
  }
  // A stream goes to the worker as a web stream, transferred (record 310): the worker pulls its chunks
  // as it parses, so the download waits for the parse and no copy of it is kept anywhere.
  const stream =
    source instanceof Readable ? (Readable.toWeb(source) as WebReadableStream<Uint8Array>) : null;
  const options = {
    workerData: stream ? { ...input, source: stream } : input,
    transferList: stream ? [stream as never] : [],
  };
  let worker: Worker;
  if (!import.meta.url.endsWith('.ts')) {
    // The bundle: build.mjs writes the worker's entry next to dist/main.js.
    worker = new Worker(new URL('./royalty-stage-worker.js', import.meta.url), options);
  } else {
    // Under tsx and Vitest: the TypeScript source through tsx's API (a worker has not the parent's hooks).
    const entry = new URL('./stage-worker.ts', import.meta.url).href;
    const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
    const api = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
    const boot = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
    worker = new Worker(boot, { eval: true, ...options });
  }
  return {
    port: worker,
    stop: async () => {
      await worker.terminate();
      closeSource();
    },
  };
}
