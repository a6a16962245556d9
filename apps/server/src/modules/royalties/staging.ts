/**
 * Staging a report's lines: each line matched in memory against the catalogue's codes, its amount
 * shared from its summary while the file streams, written by COPY in batches (decision 114) with one
 * batch in flight while a worker thread parses the next (record 207).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows, run } from '../../lib/sql';
import { StreamingAllocator } from './amounts';
import { type CopyColumn, copyRow, openCopySink } from './copy-in';
import { lineIdentity } from './overlap';
import { FormatError, type ParseOptions, parseFile } from './parse';
import { normaliseIsrc, normaliseUpc, type ParsedLine, type ParseReport } from './parse-common';
import { type ReadLimits, readChunks, SourceError } from './source';
import { type ClaimSum, YoutubeClaimCollector } from './youtube-claim-sums';

/** The absolute amounts of a report as it streams (an upper bound in the report currency) and its largest. */
export type AmountTally = { absTotal: number; largest: { line: number; amount: string; abs: number } | null };

function tallyAmount(tally: AmountTally, line: number, amount: string): void {
  const abs = Math.abs(Number(amount));
  tally.absTotal += abs;
  if (!tally.largest || abs > tally.largest.abs) tally.largest = { line, amount, abs };
}

type Target = { trackId: string | null; releaseId: string; userId: string };

/** The catalogue's codes: assigned codes (when that table exists), the tracks' ISRCs and releases' UPCs, mappings. */
export async function loadCodeTargets(
  db: Db,
): Promise<{ isrc: Map<string, Target>; upc: Map<string, Target>; asset: Map<string, Target> }> {
  const isrc = new Map<string, Target>();
  const upc = new Map<string, Target>();
  const asset = new Map<string, Target>();
  const add = (kind: string, code: string | null, target: Target) => {
    const map = kind === 'isrc' ? isrc : upc;
    const key = kind === 'isrc' ? normaliseIsrc(code) : normaliseUpc(code);
    if (key && !map.has(key)) map.set(key, target);
  };
  type Row = { kind: string; code: string; trackId: string | null; releaseId: string; userId: string };
  const [exists] = await rows<{ present: boolean }>(
    db,
    sql`select to_regclass('public.assigned_codes') is not null as present`,
  );
  if (exists?.present) {
    const assigned = await rows<Row>(
      db,
      sql`
        select a.kind, a.code, a.track_id, coalesce(a.release_id, t.release_id) as release_id, r.user_id
          from assigned_codes a
          left join tracks t on t.id = a.track_id
          join releases r on r.id = coalesce(a.release_id, t.release_id)`,
    );
    for (const row of assigned)
      add(row.kind, row.code, { trackId: row.trackId, releaseId: row.releaseId, userId: row.userId });
  }
  const native = await rows<Row>(
    db,
    sql`
      select 'isrc' as kind, t.isrc as code, t.id as track_id, t.release_id, r.user_id
        from tracks t join releases r on r.id = t.release_id where t.isrc is not null
      union all
      select 'upc', r.upc, null, r.id, r.user_id from releases r where r.upc is not null
      union all
      select m.kind, m.code, m.track_id, coalesce(m.release_id, t.release_id), r.user_id
        from royalty_code_mappings m
        left join tracks t on t.id = m.track_id
        join releases r on r.id = coalesce(m.release_id, t.release_id)`,
  );
  for (const row of native)
    add(row.kind, row.code, { trackId: row.trackId, releaseId: row.releaseId, userId: row.userId });
  // YouTube's asset ids of Content ID tracks (decision 193): a YouTube report line without a known ISRC.
  const assets = await rows<{ assetId: string; trackId: string; releaseId: string; userId: string }>(
    db,
    sql`
      select c.youtube_asset_id as asset_id, c.track_id, t.release_id, r.user_id
        from content_id_tracks c join tracks t on t.id = c.track_id join releases r on r.id = t.release_id
       where c.youtube_asset_id is not null`,
  );
  for (const row of assets)
    asset.set(row.assetId, { trackId: row.trackId, releaseId: row.releaseId, userId: row.userId });
  return { isrc, upc, asset };
}

/** A sales line as it is staged: the parsed line, its normalised codes, its catalogue target and amount. */
type StagedLine = {
  importId: string;
  line: ParsedLine;
  isrc: string | null;
  upc: string | null;
  target: Target | undefined;
  amount: string | null;
  /** The sale's identity before its ordinal (decision 186); lineIdentity() in overlap.ts. */
  identity?: string;
};

/** The staged columns and where each value comes from: the COPY's column list and its rows are both made from this. */
export const STAGED_COLUMNS: readonly CopyColumn<StagedLine>[] = [
  { column: 'import_id', value: (row) => row.importId },
  { column: 'line_no', value: (row) => row.line.lineNo },
  { column: 'line_key', value: (row) => row.line.lineKey },
  { column: 'summary_id', value: (row) => row.line.summaryId },
  { column: 'isrc', value: (row) => row.isrc },
  { column: 'upc', value: (row) => row.upc },
  // Titles only help an admin place an unknown code; matched lines have their track. The artist is kept
  // on matched lines too: a report crediting another artist is a sanity warning (record 187).
  { column: 'title', value: (row) => (row.target ? null : row.line.title) },
  { column: 'artist', value: (row) => row.line.artist },
  { column: 'store', value: (row) => row.line.store },
  { column: 'country', value: (row) => row.line.country },
  { column: 'period', value: (row) => row.line.period },
  { column: 'usage_type', value: (row) => row.line.usageType },
  { column: 'units', value: (row) => row.line.units },
  { column: 'amount', value: (row) => row.amount },
  { column: 'royalty_bearing', value: (row) => row.line.royaltyBearing },
  { column: 'track_id', value: (row) => row.target?.trackId ?? null },
  { column: 'release_id', value: (row) => row.target?.releaseId ?? null },
  { column: 'user_id', value: (row) => row.target?.userId ?? null },
  { column: 'line_identity', value: (row) => row.identity ?? randomUUID() },
];

/** Rows per COPY: large enough that statement overhead is small, small enough to stay a few MB. */
const BATCH = 10_000;

/** Counts the file's lines (decompressed), the total its progress is measured against. */
export async function countLines(filePath: string, limits: ReadLimits): Promise<number> {
  let count = 0;
  let bytes = 0;
  let last = 0x0a;
  /** Bytes since the last line break: a gzip bomb is one endless line, stop there instead of inflating it. */
  let lineBytes = 0;
  for await (const chunk of readChunks(filePath)) {
    bytes += chunk.length;
    // Past either bound the parse fails with the line (decision 151); the count need not go on.
    if (bytes > limits.maxDecompressedBytes) break;
    let at = chunk.indexOf(0x0a);
    lineBytes = at === -1 ? lineBytes + chunk.length : chunk.length - chunk.lastIndexOf(0x0a) - 1;
    if (at === -1 && lineBytes > limits.maxLineBytes) break;
    while (at !== -1) {
      count += 1;
      at = chunk.indexOf(0x0a, at + 1);
    }
    last = chunk[chunk.length - 1] ?? last;
  }
  return last === 0x0a ? count : count + 1;
}

/** A one-entry cache: consecutive lines mostly repeat the same resource's code. */
function memo(normalise: (value: string | null) => string | null) {
  let lastIn: string | null = null;
  let lastOut: string | null = null;
  return (value: string | null) => {
    if (value !== lastIn) {
      lastIn = value;
      lastOut = normalise(value);
    }
    return lastOut;
  };
}

/** Where a staged batch ends: its last line and the running sum of amounts (progress and resume). */
export type BatchEnd = { line: number; amount: string };

/** What staging the rows of a file found besides the rows themselves. */
export type StagedRows = {
  tally: AmountTally;
  /** Summaries whose lines are allocated in SQL after staging (their amounts are cleared). */
  fallbacks: string[];
  /**
   * Whether two lines of the file may share an identity (decision 186): false means none do, so the SQL
   * passes that number identical lines and find repeated SalesTransactionIds have nothing to find.
   */
  identitiesMayRepeat: boolean;
};

/**
 * The 64-bit prefixes of the lines' identities seen so far (open addressing on two Uint32Arrays, about
 * 20 MB at a million lines): a repeat of a prefix says two identities may be equal (one chance in 10^7
 * at a million lines that unequal ones share it, which only costs the SQL passes run as before).
 */
class IdentityPrefixes {
  private hi = new Uint32Array(1 << 16);
  private lo = new Uint32Array(1 << 16);
  private used = new Uint8Array(1 << 16);
  private count = 0;
  repeated = false;

  add(md5Hex: string): void {
    if (this.repeated) return;
    const hi = Number.parseInt(md5Hex.slice(0, 8), 16);
    const lo = Number.parseInt(md5Hex.slice(8, 16), 16);
    if (this.insert(hi, lo)) this.repeated = true;
    else if (++this.count * 2 > this.used.length) this.grow();
  }

  /** Inserts the key; true when it was there already. */
  private insert(hi: number, lo: number): boolean {
    const mask = this.used.length - 1;
    let at = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    while (this.used[at] === 1) {
      if (this.hi[at] === hi && this.lo[at] === lo) return true;
      at = (at + 1) & mask;
    }
    this.used[at] = 1;
    this.hi[at] = hi;
    this.lo[at] = lo;
    return false;
  }

  private grow(): void {
    const { hi, lo, used } = this;
    this.hi = new Uint32Array(used.length * 2);
    this.lo = new Uint32Array(used.length * 2);
    this.used = new Uint8Array(used.length * 2);
    for (let i = 0; i < used.length; i++) if (used[i] === 1) this.insert(hi[i] as number, lo[i] as number);
  }
}

type CodeTargets = Awaited<ReturnType<typeof loadCodeTargets>>;

/**
 * A batch's COPY text as UTF-8, each row encoded as it is made (record 214): a batch kept as one string
 * grown row by row is a rope of some 200,000 pieces that survives every young-generation collection
 * until it is flushed, and copying it there took more than a quarter of the worker's time.
 */
class BatchBytes {
  private static readonly encoder = new TextEncoder();
  private bytes = new Uint8Array(1 << 22);
  private length = 0;

  append(row: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8.
    const room = this.length + row.length * 3;
    if (room > this.bytes.length) {
      const grown = new Uint8Array(Math.max(room, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.length += BatchBytes.encoder.encodeInto(row, this.bytes.subarray(this.length)).written;
  }

  /** The rows so far, in a buffer of their own (to be transferred), and an empty batch. */
  take(): Uint8Array {
    const rows = this.bytes.slice(0, this.length);
    this.length = 0;
    return rows;
  }
}

/**
 * The pure part of staging, run in the staging worker (stage-worker.ts): each line matched against the
 * catalogue's codes, its amount shared from its summary (decision 111), its identity computed (record
 * 186), written as COPY text in batches handed to `emit`, which resolves once the batch may be followed
 * by the next (back-pressure). Lines up to `after` are read (the allocator and the tally need them) but
 * not emitted: a killed run staged them already.
 */
export async function stageRows(
  importId: string,
  lines: AsyncIterable<ParsedLine>,
  report: ParseReport,
  targets: CodeTargets,
  options: { after: number; emit: (rows: Uint8Array, end: BatchEnd) => Promise<void> },
): Promise<StagedRows> {
  const allocator = new StreamingAllocator([]);
  let knownSummaries = 0;
  const isrcOf = memo(normaliseIsrc);
  const upcOf = memo(normaliseUpc);
  const tally: AmountTally = { absTotal: 0, largest: null };
  const identities = new IdentityPrefixes();
  const batch = new BatchBytes();
  let count = 0;
  let lastLine = 0;
  let amountSoFar = 0;
  const flush = async () => {
    const rows = batch.take();
    count = 0;
    await options.emit(rows, { line: lastLine, amount: amountSoFar.toFixed(2) });
  };
  for await (const line of lines) {
    const isrc = isrcOf(line.isrc);
    const upc = upcOf(line.upc);
    const assetId = line.youtube?.assetId;
    const target =
      (isrc ? targets.isrc.get(isrc) : undefined) ??
      (assetId ? targets.asset.get(assetId) : undefined) ??
      (upc ? targets.upc.get(upc) : undefined);
    let amount = line.amount;
    // Lines that share a summary's revenue are counted by their summary below.
    if (amount !== null) tallyAmount(tally, line.lineNo, amount);
    if (amount === null && line.summaryId !== null) {
      if (report.summaries.size !== knownSummaries) {
        // Summary records precede the sales lines; pick up any read since the last line.
        for (const summary of report.summaries.values()) allocator.add(summary);
        knownSummaries = report.summaries.size;
      }
      amount = allocator.share(line.summaryId, line.units, line.royaltyBearing);
    }
    lastLine = line.lineNo;
    if (amount !== null) amountSoFar += Number(amount);
    // Every line goes through the allocator, the tally and the identities; only new lines are written.
    const identity = lineIdentity(report, line, isrc, upc);
    identities.add(identity);
    if (line.lineNo > options.after) {
      batch.append(copyRow(STAGED_COLUMNS, { importId, line, isrc, upc, target, amount, identity }));
    }
    count += 1;
    if (count >= BATCH) await flush();
  }
  await flush();
  return { tally, fallbacks: allocator.fallbacks(), identitiesMayRepeat: identities.repeated };
}

/** What the staging worker is given (structured clone: maps and all). */
export type StageWorkerInput = {
  importId: string;
  filePath: string;
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
type JobPort = MessagePort | Worker;

/** Listens for the other side's messages on either kind of port. */
function onMessage<Message>(port: JobPort, listener: (message: Message) => void): void {
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
    const parsed = await parseFile(input.filePath, {
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

function startStageJob(input: StageWorkerInput, inWorker: boolean): StageJob {
  if (!inWorker) {
    const channel = new MessageChannel();
    void runStageJob(input, channel.port2);
    return {
      port: channel.port1,
      stop: async () => {
        channel.port1.close();
        channel.port2.close();
      },
    };
  }
  let worker: Worker;
  if (!import.meta.url.endsWith('.ts')) {
    // The bundle: build.mjs writes the worker's entry next to dist/main.js.
    worker = new Worker(new URL('./royalty-stage-worker.js', import.meta.url), { workerData: input });
  } else {
    // Under tsx and Vitest: the TypeScript source through tsx's API (a worker has not the parent's hooks).
    const source = new URL('./stage-worker.ts', import.meta.url).href;
    const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
    const api = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
    const boot = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`;
    worker = new Worker(boot, { eval: true, workerData: input });
  }
  return {
    port: worker,
    stop: async () => {
      await worker.terminate();
    },
  };
}

type StageOptions = {
  /** Lines up to this number are staged already (by a run that was killed): parsed, not written again. */
  after: number;
  /** After each batch is written: the last line read and the sum of the amounts so far. */
  onBatch: (linesRead: number, amount: string) => Promise<void>;
  /** Called once a DSR's HEAD is read; throwing refuses the report (nothing more is staged). */
  onHead?: ((report: ParseReport) => Promise<void>) | undefined;
  /** The file's line count: from `workerMinLines` on, the parse runs in a worker thread. */
  linesTotal: number;
  /** ROYALTY_STAGE_WORKER_MIN_LINES (0: always a worker); WORKER_MIN_LINES when not given. */
  workerMinLines?: number | undefined;
};

export type StagedFile = {
  report: ParseReport;
  tally: AmountTally;
  identitiesMayRepeat: boolean;
  /** A YouTube report's claims summed by the worker (YoutubeClaimCollector.restore). */
  claims: Map<string, ClaimSum> | null;
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
  source: { filePath: string; parse: Omit<ParseOptions, 'onHead'> },
  options: StageOptions,
): Promise<StagedFile> {
  const targets = await loadCodeTargets(db);
  const sink = await openCopySink(db, 'royalty_import_lines', STAGED_COLUMNS);
  const job = startStageJob(
    { importId, filePath: source.filePath, parse: source.parse, targets, after: options.after },
    options.linesTotal >= (options.workerMinLines ?? WORKER_MIN_LINES),
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
    };
  } finally {
    // Nothing may write after the caller's clean-up: the COPY in flight ends first.
    await (inFlight as Promise<void> | null)?.catch(() => undefined);
    await job.stop();
    await sink.close();
  }
}
