#!/usr/bin/env node
// Fails when `apps/server/src/db/schema.ts` and the migrations disagree: drizzle-kit generates a
// migration from schema.ts against a temporary copy of `apps/server/drizzle/`, and any SQL it writes
// is a change no migration makes (or a snapshot not regenerated after a hand-written migration,
// record 091). The repository's own folder is never written to. Run by `.ci/run`.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'tunedrop-check-migrations-'));
const out = join(work, 'drizzle');

/** Returns what to print and whether the check passed. */
function check() {
  cpSync(join(root, 'apps/server/drizzle'), out, { recursive: true });
  const before = new Set(readdirSync(out).filter((name) => name.endsWith('.sql')));
  const run = spawnSync(
    join(root, 'node_modules/.bin/drizzle-kit'),
    [
      'generate',
      '--dialect=postgresql',
      // Relative paths: drizzle-kit prefixes its output folder with './', breaking an absolute one.
      `--schema=${relative(work, join(root, 'apps/server/src/db/schema.ts'))}`,
      '--out=drizzle',
      '--name=check',
    ],
    // cwd is the temporary folder, so drizzle-kit reads no config file of the project's.
    { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const said = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  // drizzle-kit exits 0 even when it fails (a missing snapshot, a schema that does not load), so its
  // words decide: it either says there is nothing to do or names the migration it wrote.
  if (run.status !== 0 || !/No schema changes|Your SQL migration file/.test(said)) {
    return { ok: false, text: `${said}\ncheck-migrations: drizzle-kit generate failed\n` };
  }
  const added = readdirSync(out).filter((name) => name.endsWith('.sql') && !before.has(name));
  if (added.length === 0) {
    return { ok: true, text: 'check-migrations: schema.ts and the migrations agree (nothing to generate)\n' };
  }
  const sql = added.map((name) => readFileSync(join(out, name), 'utf8')).join('\n');
  return {
    ok: false,
    text:
      'check-migrations: schema.ts differs from the migrations; drizzle-kit would generate:\n\n' +
      `${sql}\n\n` +
      'Write a migration for the change; if one already makes it, run `npm run db:generate`, delete the\n' +
      'SQL it repeats with its journal entry and keep the snapshot (CONTRIBUTING.md, record 091).\n',
  };
}

let result;
try {
  result = check();
} finally {
  rmSync(work, { recursive: true, force: true });
}
(result.ok ? process.stdout : process.stderr).write(result.text);
process.exitCode = result.ok ? 0 : 1;
