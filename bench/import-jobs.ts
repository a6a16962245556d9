/**
 * Royalty imports as jobs (issue 24, records 161 and 162): for a DistroKid statement of N lines (default
 * 1,000,000; 10,000 tracks of 200 artists, 95% known), on PGlite and PostgreSQL:
 *   - end to end: staging (the job's code: count, parse, COPY batches, checks and totals) and posting in
 *     chunks (the job's code), seconds each;
 *   - on PGlite, while the posting runs, a probe query (`select 1`, what /api/health asks of the database)
 *     every 20 ms through the app's one connection: its p99 and max wait, for the chunked posting and
 *     beside it for the posting as one transaction (chunk = all lines: today's figure before this change);
 *     the same probe during the staging (COPY batches, then the checks and totals over the whole import).
 * PGlite serves one statement at a time, so the probe's wait is what any request waits. It is not a test.
 *   node --import tsx bench/import-jobs.ts [--lines 1000000] [--db pglite|postgres|both]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client';
import { importRoyaltyFile } from '../apps/server/src/modules/royalty-imports/service';
import { postImport } from '../apps/server/src/modules/royalty-posting/posting';
import { importDeps, openBenchDatabase } from './lib/bench-database';
import { seedArtists } from './lib/bench-seed';

const { values } = parseArgs({
  options: { lines: { type: 'string', default: '1000000' }, db: { type: 'string', default: 'both' } },
});
const LINES = Number(values.lines);
const TRACKS = 10_000;
const ARTISTS = 200;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-import-jobs-'));
const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const STORES = ['Spotify', 'Apple Music', 'Deezer', 'Tidal', 'Amazon'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'SE', 'NL'];

function writeStatement(file: string, tag: string): void {
  const fd = fs.openSync(file, 'w');
  let buffer = `${HEADER}\n`;
  for (let i = 1; i <= LINES; i++) {
    const track = (i % TRACKS) + 1;
    const cents = (i * 7919) % 1000;
    buffer += `2025-04-10\t2025-03\t${STORES[i % 5]}\t${tag}\tTrack\tZZJOB${String(track).padStart(7, '0')}\t\t${1 + (i % 50)}\t100\tSong\t${COUNTRIES[i % 8]}\t0\t${(cents / 1000).toFixed(3)}\n`;
    if (buffer.length > 1 << 20) {
      fs.writeSync(fd, buffer);
      buffer = '';
    }
  }
  fs.writeSync(fd, buffer);
  fs.closeSync(fd);
}

async function seedCatalogue(database: Database): Promise<void> {
  const { db } = database;
  await seedArtists(database, ARTISTS);
  await db.execute(sql`
    insert into releases (id, user_id, title, genre, release_date, copyright_holder, publishing_holder,
                          copyright_year, publishing_year, status)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'bench-' || ((g - 1) % ${ARTISTS} + 1),
           'Album ' || g, 'Pop', '2025-01-01', 'x', 'x', 2025, 2025, 'live'
      from generate_series(1, ${TRACKS / 10}) g`);
  await db.execute(sql`
    insert into tracks (release_id, position, title, isrc, file_key, original_file_name, file_size_bytes)
    select ('00000000-0000-4000-8000-' || lpad(to_hex((k - 1) / 10 + 1), 12, '0'))::uuid,
           (k - 1) % 10 + 1, 'Track ' || k,
           case when k % 20 <> 0 then 'ZZJOB' || lpad(k::text, 7, '0') end, 'bench/' || k, k || '.wav', 1
      from generate_series(1, ${TRACKS}) k`);
}

/**
 * Asks `select 1` every 20 ms until stopped. Each sample is the time from when the probe was due to its
 * answer: PGlite runs a statement on the main thread, so a request arriving then waits for the event loop
 * as well as for the connection.
 */
function probe(database: Database) {
  const waits: number[] = [];
  let running = true;
  const loop = (async () => {
    let due = performance.now();
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      await database.db.execute(sql`select 1`);
      const done = performance.now();
      waits.push(done - due);
      due = Math.max(due + 20, done);
    }
  })();
  return async () => {
    running = false;
    await loop;
    const sorted = [...waits].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
    return { samples: sorted.length, p99, max: sorted.at(-1) ?? 0 };
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function run(kind: 'pglite' | 'postgres') {
  const bench = await openBenchDatabase(kind, work);
  const { database } = bench;
  try {
    const deps = await importDeps(bench, work);
    await seedCatalogue(database);
    // Two reports: one posted in chunks (the job), one posted as one transaction (before, on PGlite).
    const runs: [string, number | undefined][] =
      kind === 'pglite'
        ? [
            ['chunks (about 80 ms each)', undefined],
            ['one transaction (before)', 10 * LINES],
          ]
        : [['chunks (about 80 ms each)', undefined]];
    for (const [label, chunkLines] of runs) {
      const file = path.join(work, `${randomUUID()}.tsv`);
      writeStatement(file, label);
      const started = performance.now();
      const stopStaging = kind === 'pglite' ? probe(database) : null;
      const summary = await importRoyaltyFile(deps, {
        filePath: file,
        fileName: 'b.tsv',
        format: 'auto',
      });
      const staged = performance.now();
      const stagingWaits = await stopStaging?.();
      const stop = kind === 'pglite' ? probe(database) : null;
      // Each chunk's time (between progress calls) and the last, crediting transaction's.
      const chunkTimes: number[] = [];
      let last = performance.now();
      const result = await postImport(database.db, summary.id, {
        admin: null,
        ...(chunkLines ? { chunkLines } : {}),
        onProgress: () => {
          const now = performance.now();
          chunkTimes.push(now - last);
          last = now;
        },
      });
      const posted = performance.now();
      const longest = Math.max(0, ...chunkTimes);
      const waits = await stop?.();
      fs.rmSync(file);
      console.info(
        `${kind}, posting ${label}: ${summary.lineCount.toLocaleString('en-US')} lines staged in ${seconds(staged - started)}, ` +
          `posted (${result.earningsLines.toLocaleString('en-US')} earnings lines, ${result.artists} artists) in ${seconds(posted - staged)}, ` +
          `end to end ${seconds(posted - started)}` +
          `; ${chunkTimes.length} chunk(s), longest ${longest.toFixed(0)} ms, crediting transaction ${(posted - last).toFixed(0)} ms` +
          (waits
            ? `; select 1 during the posting: p99 ${waits.p99.toFixed(0)} ms, max ${waits.max.toFixed(0)} ms (${waits.samples} samples)`
            : '') +
          (stagingWaits
            ? `; during the staging: p99 ${stagingWaits.p99.toFixed(0)} ms, max ${stagingWaits.max.toFixed(0)} ms`
            : ''),
      );
    }
  } finally {
    await bench.close();
  }
}

for (const kind of values.db === 'both'
  ? (['pglite', 'postgres'] as const)
  : [values.db as 'pglite' | 'postgres']) {
  await run(kind);
}
fs.rmSync(work, { recursive: true, force: true });
