/**
 * Lists at scale (issue 19): the same requests at 1,000 and at 100,000 releases (one label account holding
 * a fifth of them: 20,000 at 100,000; the rest over one artist per ten releases), seeded set-based with
 * generate_series, one track each. Times the review tabs with their counts, review search, My Songs (first
 * page and a page after a cursor) and the admin user list (tab and search), each the median of repeated
 * in-process requests (app + database, no network), and prints both figures with their ratio; the target
 * is <= 1.5x. Titles are two or three words drawn from a word list (not "Release N", whose shared
 * prefix made every title match a part of any search), and five pending releases at every size are called
 * "Northern Aurora Sessions": a search for one release finds the same five rows at 1,000 and 100,000, as
 * an admin looking for a title does; a second search for a common word shows what a broad one costs.
 * PostgreSQL with DATABASE_URL, else PGlite. Prints figures; it is not a test.
 *   node --import tsx bench/lists-at-scale.ts [small=1000] [large=100000] [runs=15]
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { createTestSystem, type TestSystem } from '../apps/server/src/test-support/harness';

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

/** Title words (none of them "northern", "aurora" or "sessions", which only the five planted titles use). */
const WORDS = [
  'midnight',
  'golden',
  'river',
  'echo',
  'summer',
  'neon',
  'silver',
  'heart',
  'city',
  'lights',
  'ocean',
  'dream',
  'fire',
  'shadow',
  'velvet',
  'paper',
  'moon',
  'wild',
  'blue',
  'electric',
  'highway',
  'storm',
  'crystal',
  'garden',
  'broken',
  'sunrise',
  'winter',
  'rain',
  'glass',
  'thunder',
  'honey',
  'stone',
  'falling',
  'waves',
  'empire',
  'ghost',
  'cherry',
  'machine',
  'paradise',
  '静か',
  'corazón',
  'nuit',
  'forever',
  'runaway',
  'satellite',
  'horizon',
  'diamond',
  'lonely',
  'starlight',
  'memory',
  'kingdom',
  'desert',
  'mirror',
  'canyon',
  'feather',
  'harbor',
  'lullaby',
  'motion',
  'orchid',
  'pulse',
];

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

async function measure(releases: number): Promise<Map<string, number>> {
  const system = await createTestSystem();
  try {
    const label = await system.signedInUser({ artistName: 'Big Label' });
    const admin = await system.signedInUser({ roles: ['admin'] });
    const seedStarted = performance.now();
    await seed(system, releases, label.userId);
    console.info(
      `  seeded ${releases.toLocaleString('en-US')} releases in ${Math.round(performance.now() - seedStarted)} ms`,
    );
    const time = async (url: string, cookie: string) => {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const started = performance.now();
        const response = await system.request(url, { cookie });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const first = (await (
      await system.request('/api/releases?limit=20', { cookie: label.cookie })
    ).json()) as {
      nextCursor: string | null;
    };
    const figures = new Map<string, number>();
    figures.set('review: pending tab + counts', await time('/api/admin/releases?tab=pending', admin.cookie));
    figures.set(
      'review: takedown tab + counts',
      await time('/api/admin/releases?tab=takedown', admin.cookie),
    );
    figures.set(
      'review: search "aurora sess" (5 releases)',
      await time('/api/admin/releases?tab=pending&q=aurora%20sess', admin.cookie),
    );
    figures.set(
      'review: search "midnight" (common word)',
      await time('/api/admin/releases?tab=pending&q=midnight', admin.cookie),
    );
    figures.set('My Songs (label): first page', await time('/api/releases?limit=20', label.cookie));
    if (first.nextCursor) {
      figures.set(
        'My Songs (label): page after cursor',
        await time(`/api/releases?limit=20&cursor=${encodeURIComponent(first.nextCursor)}`, label.cookie),
      );
    }
    // p99 under load: CLIENTS requests in flight at once, each client sending its next when one returns.
    // The baseline is /api/health in the same conditions (through the same app and middleware; its
    // database answer is cached for 500 ms, record 171), so the difference is the review list's own work.
    const underLoad = async (url: string, cookie: string | undefined) => {
      const latencies: number[] = [];
      let sent = 0;
      const client = async () => {
        while (sent < LOAD_REQUESTS) {
          sent += 1;
          const started = performance.now();
          const response = await system.request(url, cookie ? { cookie } : {});
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`${url}: ${response.status}`);
          latencies.push(performance.now() - started);
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: CLIENTS }, client));
      const seconds = (performance.now() - started) / 1000;
      return { p99: quantile(latencies, 0.99), rps: latencies.length / seconds };
    };
    const health = await underLoad('/api/health', undefined);
    const review = await underLoad('/api/admin/releases?tab=pending', admin.cookie);
    figures.set(`load: /api/health p99 (baseline)`, health.p99);
    figures.set(`load: review pending p99`, review.p99);
    figures.set(`load: review pending req/s`, review.rps);
    figures.set(`load: review p99 / health p99`, review.p99 / health.p99);
    figures.set('admin users: all', await time('/api/admin/users', admin.cookie));
    figures.set('admin users: search "scale-42"', await time('/api/admin/users?q=scale-42', admin.cookie));
    return figures;
  } finally {
    await system.close();
  }
}

console.info(
  `${CLIENTS} clients x ${LOAD_REQUESTS} requests for the load rows\nload average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(
      ' ',
    )} on ${os.cpus().length} CPUs; ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; median of ${RUNS}`,
);
const small = await measure(SMALL);
const large = await measure(LARGE);
console.info(
  `\n${'request'.padEnd(40)} ${`${SMALL.toLocaleString('en-US')}`.padStart(9)} ${`${LARGE.toLocaleString('en-US')}`.padStart(9)}  ratio  target <= 1.5x`,
);
for (const [name, smallMs] of small) {
  const largeMs = large.get(name) ?? Number.NaN;
  if (name.startsWith('load:')) {
    const unit = name.endsWith('p99') || name.endsWith('(baseline)') ? ' ms' : '';
    const target =
      name === 'load: review pending p99'
        ? `target <= 50 ms at ${LARGE.toLocaleString('en-US')}: ${largeMs <= 50 ? 'met' : 'NOT met'}`
        : '';
    console.info(
      `${name.padEnd(40)} ${`${smallMs.toFixed(1)}${unit}`.padStart(9)} ${`${largeMs.toFixed(1)}${unit}`.padStart(9)}  ${target}`,
    );
    continue;
  }
  const ratio = largeMs / smallMs;
  console.info(
    `${name.padEnd(40)} ${`${smallMs.toFixed(1)} ms`.padStart(9)} ${`${largeMs.toFixed(1)} ms`.padStart(9)}  ${`${ratio.toFixed(1)}x`.padStart(5)}  ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
  );
}
console.info(
  `load average at the end ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
process.exit(0);
