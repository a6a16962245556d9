/**
 * Royalty posting with the issue 25 books (record 189): posts N staged lines (default 1,000,000; 200
 * artists, 1,000 releases, 10,000 tracks) through the server's own postImport, in this process, and times
 * it up to the commit, beside baselines measured in the same run on the same database:
 *   - baseline: a report whose lines all match, every fee 0 (no fee line, nothing to suspense): the
 *     posting as it was before the fee and the suspense account (the overlap identity is written by both);
 *   - full: the same number of lines with 5% unmatched (booked line by line to suspense), a 15% fee on
 *     every artist (fee first, then splits: 30% of the tracks split three ways), the overlap identity;
 *   - raw: one INSERT … SELECT of the same staged rows into a bare table (no key, index or trigger): the
 *     floor of writing a million rows.
 *   - journal-free: the full posting without its journal transaction (issue 36, record 277): the posting as
 *     it was before the journal, for the ratio with / without the journal (target ≤ 1.2×).
 * Each posting runs twice, alternating, rolled back before commit and undone; the best of each is printed
 * with the ratio full / baseline (target ≤ 1.2×). PGlite and PostgreSQL (a scratch database). On PostgreSQL
 * the full posting also runs as it did before record 204 (chunks sized by wall time), for after / before
 * in the same run, and the issue 29 target (1,000,000 lines ≤ 3 s) is printed. Not a test.
 *   node --import tsx bench/royalty-posting.ts [--lines 1000000] [--db pglite|postgres|both] [--db-prefix journal_bench]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { negateDecimal, sumDecimalsAtScale } from '@tunedrop/shared/money';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client';
import { firstRow } from '../apps/server/src/lib/sql';
import { type JournalEntryInput, recordTransaction } from '../apps/server/src/modules/ledger';
import { postImport } from '../apps/server/src/modules/royalty-posting/posting';
import { openBenchDatabase } from './lib/bench-database';
import { seedArtists, seedSplits } from './lib/bench-seed';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    db: { type: 'string', default: 'both' },
    // The scratch PostgreSQL database's name prefix (each session's helpers use their own).
    'db-prefix': { type: 'string', default: 'journal_bench' },
  },
});
const LINES = Number(values.lines);
const TRACKS = 10_000;
const TRACKS_PER_RELEASE = 10;
const RELEASES = TRACKS / TRACKS_PER_RELEASE;
const ARTISTS = 200;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-bench-posting-'));
const releaseUuid = (expression: string) =>
  `('00000000-0000-4000-8000-' || lpad(to_hex(${expression}), 12, '0'))::uuid`;

async function seedCatalogue(database: Database): Promise<void> {
  const { db } = database;
  await seedArtists(database, ARTISTS);
  await db.execute(
    sql.raw(`
    insert into releases (id, user_id, title, genre, release_date, copyright_holder, publishing_holder,
                          copyright_year, publishing_year, status)
    select ${releaseUuid('g')}, 'bench-' || ((g - 1) % ${ARTISTS} + 1),
           'Album ' || g, 'Pop', '2020-01-01', 'x', 'x', 2020, 2020, 'live'
      from generate_series(1, ${RELEASES}) g`),
  );
  await db.execute(
    sql.raw(`
    insert into tracks (release_id, position, title, isrc, file_key, original_file_name, file_size_bytes)
    select ${releaseUuid(`(k - 1) / ${TRACKS_PER_RELEASE} + 1`)}, (k - 1) % ${TRACKS_PER_RELEASE} + 1, 'Track ' || k,
           'ZZBEN' || lpad(k::text, 7, '0'), 'bench/' || k, k || '.wav', 1
      from generate_series(1, ${TRACKS}) k`),
  );
  await seedSplits(database, ARTISTS);
}

/** A staged report of LINES lines; every 20th line's code is unknown when `unmatched`. */
async function stageReport(database: Database, name: string, unmatched: boolean): Promise<string> {
  const { db } = database;
  const id = randomUUID();
  await db.execute(sql`
    insert into royalty_imports (id, file_name, file_sha256, format, status, phase, currency, exchange_rate,
                                 period_start, period_end, line_count, lines_total)
    values (${id}, ${name}, ${randomUUID()}, 'csv', 'staged', 'ready', 'USD', '1', '2025-01-01', '2025-01-31',
            ${LINES}, ${LINES})`);
  const unknown = unmatched ? 'g % 20 = 0' : 'false';
  await db.execute(
    sql.raw(`
    insert into royalty_import_lines
      (import_id, line_no, line_key, isrc, store, country, period, usage_type, units, amount,
       track_id, release_id, user_id)
    select '${id}', g, '${name}/' || g,
           case when ${unknown} then 'ZZUNK' || lpad((g % 5000)::text, 7, '0') else 'ZZBEN' || lpad(k::text, 7, '0') end,
           'Store' || (g % 25), 'C' || (g % 50), '2025-01', 'stream', 1 + g % 500, (g % 9973) * 0.000137,
           case when ${unknown} then null else t.id end,
           case when ${unknown} then null else t.release_id end,
           case when ${unknown} then null else r.user_id end
      from generate_series(1, ${LINES}) g
      cross join lateral (select (g - 1) % ${TRACKS} + 1 as k) kk
      join tracks t on t.isrc = 'ZZBEN' || lpad(kk.k::text, 7, '0')
      join releases r on r.id = t.release_id`),
  );
  await db.execute(sql`analyze royalty_import_lines`);
  return id;
}

async function setFee(database: Database, percent: string): Promise<void> {
  // Every plan's (the bench's artists are payees of each other's splits, record 175).
  await database.db.execute(sql`
    insert into settings (key, value)
    values ('FEE_PERCENT_BASIC', ${percent}), ('FEE_PERCENT_PRO', ${percent}), ('FEE_PERCENT_PAYEE', ${percent})
    on conflict (key) do update set value = excluded.value`);
}

/** One posting timed up to its commit, then rolled back and undone (the chunks commit on their own). */
async function timedPost(
  database: Database,
  importId: string,
  how: { sizedByTime?: boolean; withoutJournal?: boolean } = {},
): Promise<{ seconds: number; feeCents: number }> {
  const { db } = database;
  let seconds = 0;
  let feeCents = 0;
  const started = performance.now();
  await postImport(db, importId, {
    admin: null,
    sizedByTime: how.sizedByTime === true,
    withoutJournal: how.withoutJournal === true,
    beforeCommit: async (tx) => {
      seconds = (performance.now() - started) / 1000;
      const row = await firstRow<{ fee: string; legs: string }>(
        tx,
        sql`select (select coalesce(sum(fee_cents), 0) from royalty_postings where import_id = ${importId})::text as fee,
                   (select count(*) from journal_entries e join journal_transactions t on t.id = e.transaction_id
                     where t.reference_type = 'royalty_import' and t.reference_id = ${importId}::text)::text as legs`,
      );
      feeCents = Number(row?.fee ?? 0);
      // The journal-free baseline wrote no journal transaction; the posting wrote its one.
      if ((Number(row?.legs ?? 0) === 0) !== (how.withoutJournal === true))
        throw new Error(
          `the posting wrote ${row?.legs} journal legs (withoutJournal: ${how.withoutJournal})`,
        );
      throw new Error('bench rollback');
    },
  }).catch((error: unknown) => {
    if (!(error instanceof Error) || error.message !== 'bench rollback') throw error;
  });
  await db.execute(sql`delete from royalty_earnings where import_id = ${importId}`);
  await db.execute(sql`delete from royalty_posted_lines where import_id = ${importId}`);
  await db.execute(sql`delete from royalty_posting_groups where import_id = ${importId}`);
  await db.execute(sql`update royalty_imports set phase = 'ready', lines_posted = 0 where id = ${importId}`);
  await db.execute(sql`vacuum analyze royalty_earnings`);
  await db.execute(sql`vacuum analyze royalty_posted_lines`);
  return { seconds, feeCents };
}

/**
 * The journal transaction alone, as a posting of this bench writes it (a leg per artist, the report's
 * receivable, fee, suspense and residue), timed inside a transaction that is rolled back: the best of
 * `times`. Under a loaded machine the postings' own spread is larger than this; it says what the journal
 * adds whatever the noise.
 */
async function journalAlone(database: Database, times: number): Promise<number> {
  const importId = randomUUID();
  const entries: JournalEntryInput[] = Array.from({ length: ARTISTS }, (_, i) => ({
    account: 'artist_payable' as const,
    subject: `bench-${i + 1}`,
    amount: '-12.34',
  }));
  entries.push(
    { account: 'fee_income', amount: '-2.18' },
    { account: 'suspense', subject: importId, amount: '-0.123456' },
    { account: 'rounding_residue', amount: '-0.0042' },
    {
      account: 'store_receivable',
      subject: importId,
      amount: sumDecimalsAtScale([
        ...entries.map((entry) => negateDecimal(entry.amount)),
        '2.18',
        '0.123456',
        '0.0042',
      ]),
    },
  );
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    await database.db
      .transaction(async (tx) => {
        const started = performance.now();
        await recordTransaction(tx, {
          kind: 'royalty_posting',
          reference: { type: 'royalty_import', id: importId },
          entries,
        });
        // The deferred balance check runs at commit: fired here so it is timed too.
        await tx.execute(sql`set constraints all immediate`);
        best = Math.min(best, (performance.now() - started) / 1000);
        throw new Error('bench rollback');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'bench rollback') throw error;
      });
  }
  return best;
}

async function rawInsertSelect(database: Database, importId: string): Promise<number> {
  await database.db.execute(sql`
    create table bench_earnings (import_id uuid, line_no int, line_key text, user_id text, track_id uuid,
      release_id uuid, store text, country text, period text, usage_type text, units numeric, amount numeric,
      amount_usd numeric)`);
  const started = performance.now();
  await database.db.execute(sql`
    insert into bench_earnings
    select import_id, line_no, line_key, user_id, track_id, release_id, store, country, period, usage_type, units,
           amount, amount * 1
      from royalty_import_lines where import_id = ${importId}`);
  return (performance.now() - started) / 1000;
}

async function run(kind: 'pglite' | 'postgres') {
  const bench = await openBenchDatabase(kind, work, values['db-prefix']);
  const { database } = bench;
  try {
    const seeded = performance.now();
    await seedCatalogue(database);
    const baselineId = await stageReport(database, 'baseline.csv', false);
    const fullId = await stageReport(database, 'full.csv', true);
    const seedSeconds = (performance.now() - seeded) / 1000;

    const baseline: number[] = [];
    const full: number[] = [];
    const journalFree: number[] = [];
    const before: number[] = [];
    let feeCents = 0;
    for (let round = 0; round < 2; round++) {
      await setFee(database, '0');
      baseline.push((await timedPost(database, baselineId)).seconds);
      await setFee(database, '15');
      // The same full posting without its journal transaction (issue 36's baseline), alternating with it.
      journalFree.push((await timedPost(database, fullId, { withoutJournal: true })).seconds);
      const timed = await timedPost(database, fullId);
      full.push(timed.seconds);
      feeCents = timed.feeCents;
      // Before record 204 (PostgreSQL only; PGlite is unchanged): the same full posting in chunks sized by
      // wall time from 1,000 lines.
      if (kind === 'postgres')
        before.push((await timedPost(database, fullId, { sizedByTime: true })).seconds);
    }
    const raw = await rawInsertSelect(database, fullId);
    const journalSeconds = await journalAlone(database, 5);
    const best = (runs: number[]) => Math.min(...runs);
    const ratio = best(full) / best(baseline);
    const journalRatio = best(full) / best(journalFree);
    console.info(
      [
        `${kind}: ${LINES.toLocaleString('en-US')} staged lines per report (seeded in ${seedSeconds.toFixed(1)} s)`,
        `  baseline posting (all matched, fee 0)              ${best(baseline).toFixed(2)} s (runs ${baseline.map((s) => s.toFixed(2)).join(', ')})`,
        `  full posting (15% fee, 5% to suspense, identity)   ${best(full).toFixed(2)} s (runs ${full.map((s) => s.toFixed(2)).join(', ')}); fee booked ${(feeCents / 100).toFixed(2)} USD`,
        ...(before.length > 0
          ? [
              `  full posting as before record 204 (time-sized)    ${best(before).toFixed(2)} s (runs ${before.map((s) => s.toFixed(2)).join(', ')}); after / before = ${(best(full) / best(before)).toFixed(2)}`,
            ]
          : []),
        `  full posting without the journal (baseline)       ${best(journalFree).toFixed(2)} s (runs ${journalFree.map((s) => s.toFixed(2)).join(', ')})`,
        `  with the journal / without = ${journalRatio.toFixed(2)}x (issue 36 target <= 1.2x: ${journalRatio <= 1.2 ? 'met' : 'NOT met'}); load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
        `  the journal transaction alone (${ARTISTS + 4} legs, checked)  ${(journalSeconds * 1000).toFixed(1)} ms: (without + it) / without = ${((best(journalFree) + journalSeconds) / best(journalFree)).toFixed(3)}x`,
        `  raw INSERT … SELECT of the same rows, bare table   ${raw.toFixed(2)} s`,
        `  full / baseline = ${ratio.toFixed(2)}x (target <= 1.2x: ${ratio <= 1.2 ? 'met' : 'NOT met'}); full / raw = ${(best(full) / raw).toFixed(1)}x`,
        ...(kind === 'postgres'
          ? [
              `  issue 29: full posting of ${LINES.toLocaleString('en-US')} lines <= ${((3 * LINES) / 1_000_000).toFixed(2)} s: ${best(full) <= (3 * LINES) / 1_000_000 ? 'met' : 'NOT met'}`,
            ]
          : []),
      ].join('\n'),
    );
  } finally {
    await bench.close();
  }
}

console.info(`${os.cpus().length} CPUs`);
try {
  if (values.db === 'postgres' || values.db === 'both') await run('postgres');
  if (values.db === 'pglite' || values.db === 'both') await run('pglite');
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
