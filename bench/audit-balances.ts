/**
 * `audit:balances` at scale (issue 19): seeds N users (default 100,000) with consistent money (two log
 * rows each: a 10.00 credit then a 4.00 withdrawal, balance 6.00, earnings 10.00), breaks 3 of them, and
 * times auditBalances (modules/wallet/audit.ts) beside a baseline in the same run: one plain scan summing
 * the same two tables. PGlite and PostgreSQL (DATABASE_URL or 127.0.0.1:5432). Prints figures; not a test.
 *   node --import tsx bench/audit-balances.ts [users=100000]
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { auditBalances } from '../apps/server/src/modules/wallet/audit';
import { createTestSystem } from '../apps/server/src/test-support/harness';

const USERS = Number(process.argv[2] ?? 100_000);
const TARGET_MS = 2000;

async function run(label: string) {
  const system = await createTestSystem();
  try {
    const seedStarted = performance.now();
    await system.db.execute(sql`
      insert into "user" (id, name, email, email_verified)
      select 'audit-' || g, 'Audit ' || g, 'audit-' || g || '@example.com', true
        from generate_series(1, ${USERS}) as g`);
    await system.db.execute(sql`
      insert into profiles (id, email, full_name, artist_name, balance_cents, total_earnings_cents)
      select id, email, name, name, 600, 1000 from "user" where id like 'audit-%'`);
    await system.db.execute(sql`
      insert into balance_updates_log
        (user_id, user_email, old_balance_cents, new_balance_cents, earnings_delta_cents, update_type, created_at)
      select id, email, 0, 1000, 1000, 'bulk_csv', timestamp '2026-01-01' from "user" where id like 'audit-%'
      union all
      select id, email, 1000, 600, 0, 'manual', timestamp '2026-02-01' from "user" where id like 'audit-%'`);
    // Three broken accounts, so the audit has something to find.
    await system.db.execute(sql`
      update profiles set balance_cents = balance_cents + 1 where id in ('audit-1', 'audit-2', 'audit-3')`);
    await system.db.execute(sql`analyze`);
    const seedMs = performance.now() - seedStarted;

    const baselineStarted = performance.now();
    await system.db.execute(sql`
      select (select sum(balance_cents) from profiles), (select sum(new_balance_cents) from balance_updates_log)`);
    const baselineMs = performance.now() - baselineStarted;

    const auditStarted = performance.now();
    const audit = await auditBalances(system.db);
    const auditMs = performance.now() - auditStarted;

    console.info(
      `\n${label}: ${USERS.toLocaleString('en-US')} users, ${(USERS * 2).toLocaleString('en-US')} log rows (seeded in ${Math.round(seedMs)} ms)`,
    );
    console.info(`  baseline: one scan summing both tables  ${Math.round(baselineMs)} ms`);
    console.info(
      `  audit:balances                          ${Math.round(auditMs)} ms (${(auditMs / baselineMs).toFixed(1)}x baseline), checked ${audit.checked}, ${audit.mismatches.length} mismatches (3 expected)`,
    );
    console.info(`  target <= ${TARGET_MS} ms: ${auditMs <= TARGET_MS ? 'met' : 'NOT met'}`);
  } finally {
    await system.close();
  }
}

console.info(
  `load average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')} on ${os.cpus().length} CPUs`,
);
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
delete process.env.DATABASE_URL;
await run('PGlite');
process.env.DATABASE_URL = baseUrl;
try {
  await run('PostgreSQL');
} catch (error) {
  console.info(`\nPostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`);
}
process.exit(0);
