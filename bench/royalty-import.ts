/**
 * Royalty import throughput: generates a DDEX DSR Basic Audio file of N sales lines (default 1,000,000;
 * 10,000 tracks in 1,000 release blocks, 25 stores × 50 countries = 1,250 summary records, a usage
 * period of 3 months), seeds a catalogue (200 artists; 95% of the ISRCs known), then times in this
 * process (the server's code, in-process):
 *   - import (hash, parse, match, stage, totals and checks) → lines/s and the process's peak RSS growth;
 *   - posting (one transaction: earnings lines, postings, balances, log rows, mails) → seconds, twice:
 *     without splits and with 30% of the tracks split three ways (owner and two accepted payees, issue 17 /
 *     record 317), two runs each, alternating, the best of each reported; target: with ≤ 1.5 × without;
 *   - beside them, in the same run, a raw COPY of the same staged rows into a bare table (psql \copy on
 *     PostgreSQL, COPY FROM '/dev/blob' on PGlite) → lines/s, and the import / COPY ratio.
 * Targets on PostgreSQL: import ≥ 100,000 lines/s and ≥ 50% of raw COPY; posting ≤ 10 s; RSS growth < 200 MB.
 * With --registrant (an ISRC registrant set in Settings, none of the bench's ISRCs its own, and the report
 * crediting "Bench Artist", none of the catalogue's names: a sanity warning per matched track, issue 43
 * finding 3), the sanity-warnings step is timed alone after the import (goal ≤ 5 s on PostgreSQL), beside
 * the baseline: the per-warning scan it replaced, timed on a few warnings and multiplied by their number;
 * then the admin's warnings list, one page with its lines.
 * It is not a test.
 *   node --import tsx bench/royalty-import.ts [--lines 1000000] [--db pglite|postgres|both] [--posting no]
 *     [--registrant QZTDR] [--db-prefix tunedrop_bench] [--storage local|s3]
 *   (postgres: DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a scratch database is made)
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client';
import { createS3Storage } from '../apps/server/src/infra/storage/s3-storage';
import { refreshWarnings } from '../apps/server/src/modules/royalty-imports/report-warnings';
import { listWarnings } from '../apps/server/src/modules/royalty-imports/report-warnings-list';
import { importRoyaltyFile } from '../apps/server/src/modules/royalty-imports/service';
import { postImport } from '../apps/server/src/modules/royalty-posting/posting';
import { type S3TestServer, startS3TestServer } from '../apps/server/src/test-support/s3-server';
import { importDeps, openBenchDatabase } from './lib/bench-database';
import { seedArtists, seedSplits } from './lib/bench-seed';
import { baselineWarningSeconds } from './lib/warnings-baseline';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    db: { type: 'string', default: 'both' },
    /** 'no' times the import and the raw COPY only (the postings take minutes at a million lines). */
    posting: { type: 'string', default: 'yes' },
    /** The scratch PostgreSQL database's name prefix (a helper's own prefix on a shared server). */
    'db-prefix': { type: 'string', default: 'tunedrop_bench' },
    /** The operator's ISRC registrant: the sanity-warnings step is timed (see above). */
    registrant: { type: 'string', default: '' },
    /** 's3': the report goes into a bucket on s3rver on loopback (record 310) instead of a local folder. */
    storage: { type: 'string', default: 'local' },
  },
});
const LINES = Number(values.lines);
const TRACKS = 10_000;
const TRACKS_PER_RELEASE = 10;
const RELEASES = TRACKS / TRACKS_PER_RELEASE;
const ARTISTS = 200;
const STORES = Array.from({ length: 25 }, (_, i) => `Store${String(i + 1).padStart(2, '0')}`);
const COUNTRIES = [
  'US',
  'GB',
  'DE',
  'FR',
  'ES',
  'IT',
  'NL',
  'BE',
  'SE',
  'NO',
  'DK',
  'FI',
  'PL',
  'PT',
  'IE',
  'AT',
  'CH',
  'CZ',
  'HU',
  'RO',
  'GR',
  'TR',
  'CA',
  'MX',
  'BR',
  'AR',
  'CL',
  'CO',
  'PE',
  'AU',
  'NZ',
  'JP',
  'KR',
  'IN',
  'ID',
  'PH',
  'TH',
  'VN',
  'MY',
  'SG',
  'ZA',
  'NG',
  'EG',
  'MA',
  'KE',
  'IL',
  'AE',
  'SA',
  'UA',
  'HK',
];
const MB = 1024 * 1024;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-royalty-'));
const isrcOf = (track: number) => `ZZBEN${String(track).padStart(7, '0')}`;

/** Deterministic pseudo-random numbers (LCG), so every run reads the same file. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function writeDsr(file: string): Promise<void> {
  const next = random(42);
  const summaries = STORES.length * COUNTRIES.length;
  const usages = new Array<number>(summaries).fill(0);
  // Blocks first (to a temporary file), so the summary records can state their usage totals.
  const blocksFile = `${file}.blocks`;
  const out = fs.createWriteStream(blocksFile);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  let physical = 0;
  let line = 0;
  let buffer = '';
  const perRelease = Math.ceil(LINES / RELEASES);
  for (let release = 1; release <= RELEASES && line < LINES; release++) {
    buffer += `RE01.02\t${release}\tR1\trel${release}\t\t\t\tBench Artist\t\tAlbum ${release}\t\tAlbum\tBench Label\t\t\t\n`;
    physical += 1;
    for (let t = 1; t <= TRACKS_PER_RELEASE; t++) {
      const track = (release - 1) * TRACKS_PER_RELEASE + t;
      buffer += `AS02.03\t${release}\tA${t}\tdsp${track}\t${isrcOf(track)}\tTrack ${track}\t\tBench Artist\t\tPT3M\tSoundRecording\t\t\t\t\t\t\t\t\t\t\ttrue\n`;
      physical += 1;
    }
    for (let i = 0; i < perRelease && line < LINES; i++) {
      line += 1;
      const summary = Math.floor(next() * summaries);
      const streams = 1 + Math.floor(next() * 500);
      usages[summary] = (usages[summary] as number) + streams;
      const t = 1 + (i % TRACKS_PER_RELEASE);
      buffer += `SU02.02\t${release}\tS${summary + 1}\tT${line}\t\tA${t}\ttrue\t${streams}\t\t\tOnDemandStream\n`;
      physical += 1;
      if (buffer.length > 1 << 20) {
        await write(buffer);
        buffer = '';
      }
    }
  }
  await write(buffer);
  await new Promise<void>((resolve) => out.end(resolve));

  const head = `HEAD\tdsrf/1.1/1.4.1/1.3\tBasicAudioProfile\t1.3\tBENCH-${randomUUID()}\t2025-04-10T09:00:00Z\t1\t1\t2025-01-01\t2025-03-31\tPADPIDA99999999013\tBench Stream\tBenchStream\tPADPIDA99999999021\tTunedrop\t\n`;
  let top = head;
  for (let s = 0; s < summaries; s++) {
    const store = STORES[Math.floor(s / COUNTRIES.length)];
    const country = COUNTRIES[s % COUNTRIES.length];
    const net = ((usages[s] as number) * 0.0037).toFixed(2);
    top += `SY01.02\tS${s + 1}\t${store}\t\tSubscriptionModel\tOnDemandStream\t${country}\t${store} Premium\t${usages[s]}\t\tUSD\t${net}\t\tUSD\t1\n`;
  }
  const total = 1 + summaries + physical + 1;
  fs.writeFileSync(file, top);
  await new Promise<void>((resolve, reject) => {
    const input = fs.createReadStream(blocksFile);
    const output = fs.createWriteStream(file, { flags: 'a' });
    input.pipe(output);
    output.on('finish', resolve);
    output.on('error', reject);
  });
  fs.appendFileSync(file, `FOOT\t${total}\t${total}\t${summaries}\t${RELEASES}\t${RELEASES}`);
  fs.rmSync(blocksFile);
}

async function seedCatalogue(database: Database): Promise<void> {
  const { db } = database;
  await seedArtists(database, ARTISTS);
  await db.execute(sql`
    insert into releases (id, user_id, title, genre, release_date, copyright_holder, publishing_holder,
                          copyright_year, publishing_year, status)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'bench-' || ((g - 1) % ${ARTISTS} + 1),
           'Album ' || g, 'Pop', '2025-01-01', 'x', 'x', 2025, 2025, 'live'
      from generate_series(1, ${RELEASES}) g`);
  // 95% of the ISRCs are in the catalogue; the rest wait in the unmatched queue.
  await db.execute(sql`
    insert into tracks (release_id, position, title, isrc, file_key, original_file_name, file_size_bytes)
    select ('00000000-0000-4000-8000-' || lpad(to_hex((k - 1) / ${TRACKS_PER_RELEASE} + 1), 12, '0'))::uuid,
           (k - 1) % ${TRACKS_PER_RELEASE} + 1, 'Track ' || k,
           case when k % 20 <> 0 then 'ZZBEN' || lpad(k::text, 7, '0') end,
           'bench/' || k, k || '.wav', 1
      from generate_series(1, ${TRACKS}) k`);
}

const COLUMNS =
  'line_no, line_key, summary_id, isrc, upc, title, artist, store, country, period, usage_type, units, amount, royalty_bearing, track_id, release_id, user_id';

/** A bare table with the staged rows' columns and no key, index or constraint. */
const BARE_TABLE = `create table bench_copy (line_no int, line_key text, summary_id text, isrc text, upc text,
  title text, artist text, store text, country text, period text, usage_type text, units numeric, amount numeric,
  royalty_bearing boolean, track_id uuid, release_id uuid, user_id text)`;

async function rawCopy(database: Database, importId: string, url: string | null): Promise<number> {
  await database.db.execute(sql.raw(BARE_TABLE));
  const select = `select ${COLUMNS} from royalty_import_lines where import_id = '${importId}'`;
  if (url) {
    const tsv = path.join(work, 'rows.tsv');
    const out = spawnSync('psql', [url, '-qc', `\\copy (${select}) to '${tsv}'`], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(out.stderr);
    const started = performance.now();
    const copy = spawnSync('psql', [url, '-qc', `\\copy bench_copy from '${tsv}'`], { encoding: 'utf8' });
    if (copy.status !== 0) throw new Error(copy.stderr);
    return (performance.now() - started) / 1000;
  }
  type Client = { query: (q: string, p?: unknown[], o?: { blob?: Blob }) => Promise<{ blob?: Blob }> };
  const client = (database.db as unknown as { $client: Client }).$client;
  const exported = await client.query(`copy (${select}) to '/dev/blob'`);
  const started = performance.now();
  await client.query(`copy bench_copy from '/dev/blob'`, [], { blob: exported.blob as Blob });
  return (performance.now() - started) / 1000;
}

/** The 1, 5 and 15 minute load averages, printed beside every figure (a shared machine). */
const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

function rssSampler() {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      return (peak - baseline) / MB;
    },
  };
}

async function run(kind: 'pglite' | 'postgres', file: string) {
  const bench = await openBenchDatabase(kind, work, values['db-prefix']);
  const { database } = bench;
  let s3: S3TestServer | null = null;
  try {
    const deps = await importDeps(bench, work);
    s3 = values.storage === 's3' ? await startS3TestServer() : null;
    if (s3) {
      const { S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = s3.env;
      deps.storage = createS3Storage({
        bucket: S3_BUCKET,
        endpoint: S3_ENDPOINT,
        region: S3_REGION,
        accessKeyId: S3_ACCESS_KEY_ID,
        secretAccessKey: S3_SECRET_ACCESS_KEY,
      });
    }
    await seedCatalogue(database);
    if (values.registrant) {
      await database.db.execute(
        sql`insert into settings (key, value) values ('ISRC_REGISTRANT', ${values.registrant})`,
      );
    }
    // A small warm-up import, so code loading and JIT are not counted.
    const warm = path.join(work, 'warm.tsv');
    fs.writeFileSync(
      warm,
      'HEAD\tdsrf/1.1/1.4.1/1.3\tBasicAudioProfile\t1.3\tWARM\t2025-01-01T00:00:00Z\t1\t1\t2025-01-01\t2025-01-31\tPADPIDA1\tW\t\t\t\t\nSY01.02\tS1\tW\t\tSubscriptionModel\tOnDemandStream\tUS\tW\t1\t\tUSD\t0.01\t\tUSD\t1\nRE01.02\t1\tR1\tr\t\t\t\tA\t\tT\t\t\t\t\t\t\nAS02.03\t1\tA1\td\tZZBEN0000001\tT\t\tA\t\t\tSoundRecording\nSU02.02\t1\tS1\tT1\t\tA1\ttrue\t1\t\t\t\nFOOT\t6\t6\t1\t1\t1',
    );
    await importRoyaltyFile(deps, { filePath: warm, fileName: 'warm.tsv', format: 'auto' });
    global.gc?.();

    const rss = rssSampler();
    const started = performance.now();
    const summary = await importRoyaltyFile(deps, {
      filePath: file,
      fileName: 'bench.tsv',
      format: 'auto',
    });
    const importSeconds = (performance.now() - started) / 1000;
    const rssGrowth = rss.stop();
    if (summary.status !== 'staged') throw new Error(`bench import failed: ${summary.errors.join('; ')}`);
    if (values.registrant) {
      const warned = performance.now();
      await refreshWarnings(database.db, summary.id);
      const warningsSeconds = (performance.now() - warned) / 1000;
      const baseline = await baselineWarningSeconds(database.db, summary.id, 3);
      // The admin's list of them: one page with its lines, from one scan (it was one scan per warning).
      const listed = performance.now();
      const page = await listWarnings(database.db, summary.id);
      const listSeconds = (performance.now() - listed) / 1000;
      console.info(
        [
          `${kind}: sanity warnings of ${summary.lineCount.toLocaleString('en-US')} lines, registrant ${values.registrant}, load average ${loadAverage()}`,
          `  grouped query (now)      ${warningsSeconds.toFixed(1)} s for ${baseline.warnings.toLocaleString('en-US')} warnings`,
          `  per-warning scan (before) ${baseline.perWarning.toFixed(2)} s each (${baseline.sampled} timed) × ${baseline.warnings.toLocaleString('en-US')} = ${((baseline.perWarning * baseline.warnings) / 60).toFixed(0)} min estimated`,
          `  warnings list, page 1    ${listSeconds.toFixed(1)} s for ${page.items.length} of ${page.total.toLocaleString('en-US')} warnings with their lines (it read every warning's lines, a scan each)`,
        ].join('\n'),
      );
    }

    // Postings timed up to the commit: without splits and with them, twice each, alternating; all but the
    // last are rolled back (and the tables vacuumed, so no run pays for the dead rows of the one before).
    const timedPost = async (commit: boolean) => {
      let seconds = 0;
      const started = performance.now();
      const result = await postImport(database.db, summary.id, {
        admin: null,
        beforeCommit: async () => {
          seconds = (performance.now() - started) / 1000;
          if (!commit) throw new Error('bench rollback');
        },
      }).catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'bench rollback') throw error;
        return null;
      });
      if (!commit) {
        // The earnings lines are written in chunks before the final transaction (decision 162): a rolled
        // back run leaves them and the claim behind; undo both so the next run starts from the same state.
        await database.db.execute(sql`delete from royalty_earnings where import_id = ${summary.id}`);
        await database.db.execute(sql`delete from royalty_posting_groups where import_id = ${summary.id}`);
        // The identities of posted lines (record 186): left behind, they refuse the next run as posted twice.
        await database.db.execute(sql`delete from royalty_posted_lines where import_id = ${summary.id}`);
        await database.db.execute(
          sql`update royalty_imports set phase = 'ready', lines_posted = 0 where id = ${summary.id}`,
        );
        await database.db.execute(sql`vacuum analyze royalty_earnings`);
        await database.db.execute(sql`vacuum analyze royalty_postings`);
        await database.db.execute(sql`vacuum analyze royalty_posted_lines`);
      }
      return { seconds, result };
    };
    if (values.posting === 'no') {
      const copySeconds = await rawCopy(database, summary.id, bench.url);
      const importRate = summary.lineCount / importSeconds;
      const copyRate = summary.lineCount / copySeconds;
      console.info(
        [
          `${kind}, ${values.storage} storage: ${summary.lineCount.toLocaleString('en-US')} lines (${summary.matched.lines.toLocaleString('en-US')} matched), load average ${loadAverage()}`,
          `  import   ${importSeconds.toFixed(1)} s = ${Math.round(importRate).toLocaleString('en-US')} lines/s (peak RSS growth ${rssGrowth.toFixed(0)} MB)`,
          `  raw COPY ${copySeconds.toFixed(1)} s = ${Math.round(copyRate).toLocaleString('en-US')} lines/s; import / COPY = ${((importRate / copyRate) * 100).toFixed(0)}%`,
        ].join('\n'),
      );
      return;
    }
    const plain1 = await timedPost(false);
    await seedSplits(database, ARTISTS);
    const noSplits = async () => {
      await database.db.execute(sql`update split_versions set created_at = now() + interval '1 day'`);
      const timed = await timedPost(false);
      await database.db.execute(sql`update split_versions set created_at = now() - interval '1 day'`);
      return timed;
    };
    const split1 = await timedPost(false);
    const plain2 = await noSplits();
    const split2 = await timedPost(true);
    const plainSeconds = Math.min(plain1.seconds, plain2.seconds);
    const postSeconds = Math.min(split1.seconds, split2.seconds);
    const posted = split2.result;
    if (!posted) throw new Error('the last posting did not commit');
    const copySeconds = await rawCopy(database, summary.id, bench.url);
    const importRate = summary.lineCount / importSeconds;
    const copyRate = summary.lineCount / copySeconds;
    console.info(
      [
        `${kind}, ${values.storage} storage: ${summary.lineCount.toLocaleString('en-US')} lines (${summary.matched.lines.toLocaleString('en-US')} matched), load average ${loadAverage()}`,
        `  import   ${importSeconds.toFixed(1)} s = ${Math.round(importRate).toLocaleString('en-US')} lines/s (peak RSS growth ${rssGrowth.toFixed(0)} MB)`,
        `  raw COPY ${copySeconds.toFixed(1)} s = ${Math.round(copyRate).toLocaleString('en-US')} lines/s; import / COPY = ${((importRate / copyRate) * 100).toFixed(0)}%`,
        `  posting without splits ${plainSeconds.toFixed(1)} s (runs ${plain1.seconds.toFixed(1)}, ${plain2.seconds.toFixed(1)})`,
        `  posting with 30% of tracks split three ways ${postSeconds.toFixed(1)} s (runs ${split1.seconds.toFixed(1)}, ${split2.seconds.toFixed(1)}) = ${(postSeconds / plainSeconds).toFixed(2)}× (${posted.earningsLines.toLocaleString('en-US')} earnings lines, ${posted.artists} artists, ${(posted.postedCents / 100).toFixed(2)} USD, residue ${posted.residue} USD)`,
      ].join('\n'),
    );
  } finally {
    await bench.close();
    await s3?.close();
  }
}

const file = path.join(
  work,
  'DSR_PADPIDA99999999021_PADPIDA99999999013_BenchStream_2025-Q1__1of1_20250410T090000.tsv',
);
const generated = performance.now();
await writeDsr(file);
console.info(
  `Generated ${LINES.toLocaleString('en-US')} sales lines (${(fs.statSync(file).size / MB).toFixed(0)} MB) in ${((performance.now() - generated) / 1000).toFixed(1)} s; ${os.cpus().length} CPUs`,
);
try {
  if (values.db === 'postgres' || values.db === 'both') await run('postgres', file);
  if (values.db === 'pglite' || values.db === 'both') await run('pglite', file);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
