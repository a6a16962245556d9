/**
 * Run last, after every other journey (its own project): the journeys' shared database keeps the money
 * journal whole (issue 36). `ledger:verify` at the command line, as an operator runs it (on PGlite through
 * the running server's socket), exits 0: every transaction balanced, every balance, held share, open
 * suspense and operator figure equal to the journal, every report's identity holding.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';

test("ledger:verify holds on the journeys' database", () => {
  const result = spawnSync(process.execPath, ['apps/server/dist/cli.js', 'ledger:verify'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, ...e2eEnv.serverEnv },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const said = `${result.stdout}${result.stderr}`;
  expect(said).toContain('every check holds');
  expect(result.status).toBe(0);
});
