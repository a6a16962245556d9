/**
 * The pure part of staging a report's lines (decision 114, records 186, 207, 214): the catalogue's codes
 * each line is matched against, its amount shared from its summary while the file streams, its identity,
 * and the COPY text of each batch. Touches no database but to load the codes.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../lib/sql';
import { StreamingAllocator } from './amounts';
import { type CopyColumn, copyRow } from './copy-in';
import { lineIdentity } from './overlap';
import { normaliseIsrc, normaliseUpc, type ParsedLine, type ParseReport } from './parse-common';

/** The absolute amounts of a report as it streams (an upper bound in the report currency) and its largest. */
export type AmountTally = { absTotal: number; largest: { line: number; amount: string; abs: number } | null };

export function tallyAmount(tally: AmountTally, line: number, amount: string): void {
  const abs = Math.abs(Number(amount));
  tally.absTotal += abs;
  if (!tally.largest || abs > tally.largest.abs) tally.largest = { line, amount, abs };
}

export type Target = { trackId: string | null; releaseId: string; userId: string };

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

export type CodeTargets = Awaited<ReturnType<typeof loadCodeTargets>>;

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
