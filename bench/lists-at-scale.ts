/**
 * Lists at scale (issue 19): the same requests at 1,000 and at 100,000 releases (one label account holding
 * a fifth of them: 20,000 at 100,000; the rest over one artist per ten releases), seeded set-based with
 * generate_series, one track each. Times the review tabs with their counts, review search, My Songs (first
 * page and a page after a cursor) and the admin user list (tab and search), each the median of repeated
 * in-process requests (app + database, no network), and prints both figures with their ratio; the target
 * is <= 1.5x, read beside the ratio of /api/health (which does not grow with the data: this run's noise).
 * Both sizes are set up first and their runs alternate, so both see the same load and warm-up. Then the
 * review list's p99 with 50 clients in flight at once (target <= 50 ms), beside /api/health's p99 in the
 * same conditions. Titles are two or three words drawn from a word list (not "Release N", whose shared
 * prefix made every title match a part of any search), and five pending releases at every size are called
 * "Northern Aurora Sessions": a search for one release finds the same five rows at 1,000 and 100,000, as
 * an admin looking for a title does; a second search for a common word shows what a broad one costs.
 * PostgreSQL with DATABASE_URL, else PGlite. Prints figures; it is not a test.
 *   node --import tsx bench/lists-at-scale.ts [small=1000] [large=100000] [runs=15]
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { createTestSystem, type TestSystem } from '../apps/server/src/test-support/harness';
import { TITLE_WORDS as WORDS } from './lib/release-titles';

const SMALL = Number(process.argv[2] ?? 1000);
const LARGE = Number(process.argv[3] ?? 100_000);
const RUNS = Number(process.argv[4] ?? 15);
/** Concurrent clients and requests for the review list's p99 (in-process: the app and its database, no network). */
const CLIENTS = 50;
const LOAD_REQUESTS = 1_000;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};
const median = (values: number[]) => quantile(values, 0.5);

async function seed(system: TestSystem, releases: number, labelId: string) {
  const artists = Math.max(1, Math.floor(releases / 10));
  await system.db.execute(sql`
    insert into "user" (id, name, email, email_verified)
    select 'ls-' || g, 'Scale Artist ' || g, 'scale-' || g || '@example.com', true
      from generate_series(1, ${artists}) as g`);
  await system.db.execute(sql`
    insert into profiles (id, email, full_name, artist_name)
    select id, email, name, name from "user" where id like 'ls-%'`);
  await system.db.execute(sql`
    insert into releases (id, user_id, title, primary_artists, primary_artists_data, genre, release_date,
                          copyright_holder, publishing_holder, copyright_year, publishing_year,
                          distribution_stores, status, created_at)
    select gen_random_uuid(),
           case when g % 5 = 0 then ${labelId} else 'ls-' || (g % ${artists} + 1) end,
           case when g % 6 = 0 and g <= 30 then 'Northern Aurora Sessions'
                else initcap(w.words[1 + (g * 7919) % ${WORDS.length}] || ' ' || w.words[1 + ((g / 7) * 31 + g) % ${WORDS.length}]
                             || case when g % 3 = 0 then ' ' || w.words[1 + (g * 131) % ${WORDS.length}] else '' end) end,
           array['Scale Artist ' || (g % ${artists} + 1)],
           jsonb_build_array(jsonb_build_object('name', 'Scale Artist ' || (g % ${artists} + 1))),
           'Pop', date '2026-12-01', 'Holder', 'Holder', 2026, 2026, array['spotify'],
           (array['pending', 'processing', 'approved', 'live', 'rejected', 'taken_down'])[g % 6 + 1],
           timestamptz '2020-01-01' + g * interval '1 minute'
      from generate_series(1, ${releases}) as g,
           (select array(select jsonb_array_elements_text(${JSON.stringify(WORDS)}::jsonb)) as words) as w`);
  await system.db.execute(sql`
    insert into tracks (release_id, position, title, duration_ms, file_key, original_file_name, file_size_bytes)
    select id, 1, 'Track 1', 180000, user_id || '/' || id || '/track.wav', 'track.wav', 1000 from releases`);
  await system.db.execute(sql`analyze`);
}

type Sized = {
  system: TestSystem;
  label: string;
  admin: string;
  cursor: string | null;
};

async function setUp(releases: number): Promise<Sized> {
  const system = await createTestSystem();
  const label = await system.signedInUser({ artistName: 'Big Label' });
  const admin = await system.signedInUser({ roles: ['admin'] });
  const seedStarted = performance.now();
  await seed(system, releases, label.userId);
  console.info(
    `  seeded ${releases.toLocaleString('en-US')} releases in ${Math.round(performance.now() - seedStarted)} ms`,
  );
  const first = (await (await system.request('/api/releases?limit=20', { cookie: label.cookie })).json()) as {
    nextCursor: string | null;
  };
  return { system, label: label.cookie, admin: admin.cookie, cursor: first.nextCursor };
}

async function timed(sized: Sized, url: string, cookie: string | undefined): Promise<number> {
  const started = performance.now();
  const response = await sized.system.request(url, cookie ? { cookie } : {});
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

/**
 * Both sizes' medians of one request, their runs alternating (small, large, small, ...) after as many
 * untimed ones, so neither size pays for JIT warm-up or the first prepare, and both see the same load.
 */
async function both(small: Sized, large: Sized, url: (sized: Sized) => string, who: 'label' | 'admin') {
  const times: [number[], number[]] = [[], []];
  for (let run = 0; run < 2 * RUNS; run += 1) {
    for (const [index, sized] of [small, large].entries()) {
      const ms = await timed(sized, url(sized), sized[who]);
      if (run >= RUNS) times[index]?.push(ms);
    }
  }
  return [median(times[0]), median(times[1])] as const;
}

/** p99 with CLIENTS requests in flight at once, each client sending its next when one returns. */
async function underLoad(sized: Sized, url: string, cookie: string | undefined) {
  const latencies: number[] = [];
  let sent = 0;
  const client = async () => {
    while (sent < LOAD_REQUESTS) {
      sent += 1;
      latencies.push(await timed(sized, url, cookie));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  return { p99: quantile(latencies, 0.99), rps: latencies.length / seconds };
}

async function measure(small: Sized, large: Sized) {
  const figures = new Map<string, readonly [number, number]>();
  const set = async (name: string, url: (sized: Sized) => string, who: 'label' | 'admin') =>
    figures.set(name, await both(small, large, url, who));
  // Baseline: a route that does not grow with the data; its ratio is this run's noise.
  await set('baseline: /api/health', () => '/api/health', 'admin');
  await set('review: pending tab + counts', () => '/api/admin/releases?tab=pending', 'admin');
  await set('review: takedown tab + counts', () => '/api/admin/releases?tab=takedown', 'admin');
  await set(
    'review: search "aurora sess" (5 releases)',
    () => '/api/admin/releases?tab=pending&q=aurora%20sess',
    'admin',
  );
  await set(
    'review: search "midnight" (common word)',
    () => '/api/admin/releases?tab=pending&q=midnight',
    'admin',
  );
  // The search pass alone, as a raw query (the database's part of the two searches above).
  for (const term of ['aurora sess', 'midnight']) {
    const times: [number[], number[]] = [[], []];
    for (let run = 0; run < 2 * RUNS; run += 1) {
      for (const [index, sized] of [small, large].entries()) {
        const started = performance.now();
        await sized.system.db.execute(sql`select count(*) from tunedrop_search_releases(${`%${term}%`})`);
        if (run >= RUNS) times[index]?.push(performance.now() - started);
      }
    }
    figures.set(`raw query: search pass "${term}"`, [median(times[0]), median(times[1])]);
  }
  await set('My Songs (label): first page', () => '/api/releases?limit=20', 'label');
  await set(
    'My Songs (label): page after cursor',
    (sized) => `/api/releases?limit=20&cursor=${encodeURIComponent(sized.cursor ?? '')}`,
    'label',
  );
  await set('admin users: all', () => '/api/admin/users', 'admin');
  await set('admin users: search "scale-42"', () => '/api/admin/users?q=scale-42', 'admin');
  // The baseline under load is /api/health in the same conditions (same app and middleware; its database
  // answer is cached for 500 ms, record 171): what is above it is the review list's own work.
  const load = new Map<string, number>();
  for (const [sized, size] of [
    [small, 'small'],
    [large, 'large'],
  ] as const) {
    await underLoad(sized, '/api/admin/releases?tab=pending', sized.admin); // warm-up, untimed
    const health = await underLoad(sized, '/api/health', undefined);
    const review = await underLoad(sized, '/api/admin/releases?tab=pending', sized.admin);
    load.set(`${size} health p99`, health.p99);
    load.set(`${size} health req/s`, health.rps);
    load.set(`${size} review p99`, review.p99);
    load.set(`${size} review req/s`, review.rps);
  }
  return { figures, load };
}

console.info(
  `${CLIENTS} clients x ${LOAD_REQUESTS} requests for the load rows\nload average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(
      ' ',
    )} on ${os.cpus().length} CPUs; ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; median of ${RUNS}`,
);
const small = await setUp(SMALL);
const large = await setUp(LARGE);
const { figures, load } = await measure(small, large);
await small.system.close();
await large.system.close();
console.info(
  `\n${'request'.padEnd(42)} ${`${SMALL.toLocaleString('en-US')}`.padStart(9)} ${`${LARGE.toLocaleString('en-US')}`.padStart(9)}  ratio  target <= 1.5x`,
);
for (const [name, [smallMs, largeMs]] of figures) {
  const ratio = largeMs / smallMs;
  console.info(
    `${name.padEnd(42)} ${`${smallMs.toFixed(1)} ms`.padStart(9)} ${`${largeMs.toFixed(1)} ms`.padStart(9)}  ${`${ratio.toFixed(1)}x`.padStart(5)}  ${name.startsWith('baseline') ? '(noise)' : ratio <= 1.5 ? 'met' : 'NOT met'}`,
  );
}
const at = (key: string) => (load.get(key) ?? Number.NaN).toFixed(1);
console.info(`\n${CLIENTS} clients in flight, ${LOAD_REQUESTS} requests each route:`);
for (const size of ['small', 'large'] as const) {
  const n = (size === 'small' ? SMALL : LARGE).toLocaleString('en-US');
  console.info(
    `  ${n.padStart(7)} releases: review pending p99 ${at(`${size} review p99`)} ms (${at(`${size} review req/s`)} req/s)` +
      ` beside /api/health p99 ${at(`${size} health p99`)} ms (${at(`${size} health req/s`)} req/s)`,
  );
}
const largeP99 = load.get('large review p99') ?? Number.NaN;
console.info(
  `  review p99 <= 50 ms at ${LARGE.toLocaleString('en-US')}: ${largeP99 <= 50 ? 'met' : 'NOT met'}`,
);
console.info(
  `load average at the end ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
process.exit(0);
