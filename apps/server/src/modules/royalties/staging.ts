/**
 * Staging a report's lines: each line matched in memory against the catalogue's codes, its amount
 * shared from its summary while the file streams, written by COPY in batches (decision 114) with one
 * batch in flight while the next is parsed.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows, run } from '../../lib/sql';
import { StreamingAllocator } from './amounts';
import { type CopyColumn, copyRow, openCopySink } from './copy-in';
import { lineIdentity } from './overlap';
import { normaliseIsrc, normaliseUpc, type ParsedLine, type ParseReport } from './parse-common';
import { type ReadLimits, readChunks, SourceError } from './source';

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

type StageOptions = {
  /** Lines up to this number are staged already (by a run that was killed): parsed, not written again. */
  after: number;
  /** After each batch is written: the last line read and the sum of the amounts so far. */
  onBatch: (linesRead: number, amount: string) => Promise<void>;
};

export async function stageLines(
  db: Db,
  importId: string,
  lines: AsyncIterable<ParsedLine>,
  report: ParseReport,
  options: StageOptions,
): Promise<AmountTally> {
  const targets = await loadCodeTargets(db);
  const sink = await openCopySink(db, 'royalty_import_lines', STAGED_COLUMNS);
  const allocator = new StreamingAllocator([]);
  let knownSummaries = 0;
  const isrcOf = memo(normaliseIsrc);
  const upcOf = memo(normaliseUpc);
  const tally: AmountTally = { absTotal: 0, largest: null };
  let batch = '';
  let count = 0;
  let lastLine = 0;
  let amountSoFar = 0;
  let committed = { line: 0, amount: '0.00' };
  // One COPY in flight while the next batch is parsed; its rejection is observed at the next await.
  const copy: { inFlight: Promise<void> | null } = { inFlight: null };
  const flush = async () => {
    const text = batch;
    batch = '';
    count = 0;
    if (copy.inFlight) await copy.inFlight;
    copy.inFlight = null;
    // Only what is committed counts: a run killed now resumes after these lines.
    if (committed.line > 0) await options.onBatch(committed.line, committed.amount);
    if (text === '') {
      committed = { line: lastLine, amount: amountSoFar.toFixed(2) };
      return;
    }
    const batchEnd = { line: lastLine, amount: amountSoFar.toFixed(2) };
    const next = sink.write(text).then(() => {
      committed = batchEnd;
    });
    next.catch(() => undefined);
    copy.inFlight = next;
  };
  try {
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
      // Every line goes through the allocator and the tally above; only new lines are written.
      if (line.lineNo <= options.after) {
        count += 1;
        if (count >= BATCH) await flush();
        continue;
      }
      const identity = lineIdentity(report, line, isrc, upc);
      batch += copyRow(STAGED_COLUMNS, { importId, line, isrc, upc, target, amount, identity });
      count += 1;
      if (count >= BATCH) await flush();
    }
    await flush();
    if (copy.inFlight) await copy.inFlight;
    await options.onBatch(committed.line, committed.amount);
    const fallbacks = allocator.fallbacks();
    if (fallbacks.length > 0) {
      await run(
        db,
        sql`
        update royalty_import_lines set amount = null
         where import_id = ${importId}
           and summary_id in (select jsonb_array_elements_text(${JSON.stringify(fallbacks)}::jsonb))`,
      );
    }
  } catch (error) {
    // Nothing may write after the caller's clean-up: let the COPY in flight end first.
    await copy.inFlight?.catch(() => undefined);
    if (!(error instanceof SourceError)) throw error;
    report.errors.push(error.message);
  } finally {
    await sink.close();
  }
  for (const summary of report.summaries.values()) tallyAmount(tally, summary.line, summary.netRevenue);
  return tally;
}
