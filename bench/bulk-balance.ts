/**
 * Bulk balance update: a 10,000-row CSV parsed (the shared parser), verified (one request, one query)
 * and applied (one request, one transaction), against the naive way of one verify and one apply request
 * per row, on PGlite and on PostgreSQL (DATABASE_URL or 127.0.0.1:5432). Calls the Hono app in process,
 * so the figures are app + database time without a network. Prints figures; it is not a test.
 *   node --import tsx bench/bulk-balance.ts [rows] [seconds for the naive run, default 90]
 */
import { parseBalanceCsv } from '@tunedrop/shared/schemas/admin-balances';
import { sql } from 'drizzle-orm';
import { createTestSystem, type TestSystem } from '../apps/server/src/test-support/harness';

const ROWS = Number(process.argv[2] ?? 10_000);
/** The naive run stops after this long and extrapolates (stated in the output) so the bench ends. */
const NAIVE_BUDGET_MS = Number(process.argv[3] ?? 90) * 1000;

console.info(
  `load average at start: ${(await import('node:os'))
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);

type Verified = {
  line: number;
  status: string;
  userId?: string;
  oldBalanceCents?: number;
  newBalanceCents: number;
};

async function seedUsers(system: TestSystem, count: number): Promise<{ id: string; email: string }[]> {
  await system.db.execute(sql`
    insert into "user" (id, name, email, email_verified)
    select gen_random_uuid()::text, 'Bench Artist ' || g, 'bench-' || g || '@example.com', true
      from generate_series(1, ${count}) as g`);
  await system.db.execute(sql`
    insert into profiles (id, email, full_name, artist_name)
    select id, email, name, name from "user" where email like 'bench-%'`);
  const result = (await system.db.execute(
    sql`select id, email from profiles where email like 'bench-%' order by email`,
  )) as unknown as { rows: { id: string; email: string }[] };
  return result.rows;
}

function csvFor(users: { id: string; email: string }[], round: number): string {
  const lines = ['user_id_or_email,new_balance'];
  users.forEach((user, index) => {
    const cents = ((index + 1) * 7919 + round * 101) % 500_000;
    const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    // Half by email, half by user id, as admins mix them.
    lines.push(`${index % 2 === 0 ? user.email : user.id},${amount}`);
  });
  return `${lines.join('\r\n')}\r\n`;
}

async function post<T>(system: TestSystem, cookie: string, path: string, json: unknown): Promise<T> {
  const response = await system.request(path, { method: 'POST', cookie, json });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const toApply = (rows: Verified[]) =>
  rows
    .filter((row) => row.status === 'verified')
    .map((row) => ({
      line: row.line,
      userId: row.userId as string,
      expectedOldBalanceCents: row.oldBalanceCents as number,
      newBalanceCents: row.newBalanceCents,
    }));

async function run(label: string) {
  const system = await createTestSystem();
  try {
    const users = await seedUsers(system, ROWS);
    const admin = await system.signedInUser({ roles: ['admin'] });

    // Batched: parse, one verify request, one apply request.
    const csv = csvFor(users, 1);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const parsed = parseBalanceCsv(csv);
    if (!parsed.ok) throw new Error(parsed.reason);
    const parsedAt = performance.now();
    const verified = await post<{ rows: Verified[] }>(system, admin.cookie, '/api/admin/balances/verify', {
      rows: parsed.rows.map(({ line, identifier, newBalanceCents }) => ({
        line,
        identifier,
        newBalanceCents,
      })),
    });
    const verifiedAt = performance.now();
    const applied = await post<{ applied: number }>(system, admin.cookie, '/api/admin/balances/apply', {
      rows: toApply(verified.rows),
    });
    const appliedAt = performance.now();
    const cpu = process.cpuUsage(cpuBefore);
    const batchedCpuMs = (cpu.user + cpu.system) / 1000;
    const batchedMs = appliedAt - started;
    if (applied.applied !== ROWS) throw new Error(`applied ${applied.applied} of ${ROWS}`);
    const logs = (await system.db.execute(
      sql`select count(*) as count from balance_updates_log where update_type = 'bulk_csv'`,
    )) as unknown as { rows: { count: string | number }[] };

    // Naive: one verify and one apply request per row, as the spec's original page did.
    const naiveCsv = parseBalanceCsv(csvFor(users, 2));
    if (!naiveCsv.ok) throw new Error(naiveCsv.reason);
    const naiveStarted = performance.now();
    let done = 0;
    for (const row of naiveCsv.rows) {
      const one = await post<{ rows: Verified[] }>(system, admin.cookie, '/api/admin/balances/verify', {
        rows: [{ line: row.line, identifier: row.identifier, newBalanceCents: row.newBalanceCents }],
      });
      await post(system, admin.cookie, '/api/admin/balances/apply', { rows: toApply(one.rows) });
      done += 1;
      if (performance.now() - naiveStarted > NAIVE_BUDGET_MS) break;
    }
    const naiveMeasuredMs = performance.now() - naiveStarted;
    const naiveMs = (naiveMeasuredMs / done) * ROWS;
    const ratio = naiveMs / batchedMs;

    console.info(`\n${label} (${system.database.kind}), ${ROWS.toLocaleString('en-US')} rows`);
    console.info(
      `  batched  parse ${Math.round(parsedAt - started)} ms, verify ${Math.round(verifiedAt - parsedAt)} ms, apply ${Math.round(appliedAt - verifiedAt)} ms`,
    );
    console.info(
      `  batched  total ${Math.round(batchedMs)} ms wall, ${Math.round(batchedCpuMs)} ms CPU in this process${
        system.database.kind === 'pglite'
          ? ' (app + embedded database)'
          : ' (app only; PostgreSQL runs apart)'
      }, ${Number(logs.rows[0]?.count)} bulk_csv log rows`,
    );
    console.info(
      `  naive    total ${Math.round(naiveMs)} ms${done < ROWS ? `  (extrapolated from ${done} rows measured in ${Math.round(naiveMeasuredMs)} ms)` : ''}`,
    );
    console.info(`  ratio    ${ratio.toFixed(1)}x faster batched`);
    console.info(
      `  targets  < 2 s: ${batchedMs < 2000 ? 'met' : 'NOT met'};  >= 20x: ${ratio >= 20 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await system.close();
  }
}

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
delete process.env.DATABASE_URL;
await run('PGlite');
process.env.DATABASE_URL = baseUrl;
try {
  await run('PostgreSQL');
} catch (error) {
  console.info(`\nPostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`);
}
