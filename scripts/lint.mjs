#!/usr/bin/env node
// `npm run lint`: every check runs, each prints its own findings, and the run fails if any failed
// (so a format slip does not hide a boundary violation). Checks: Biome (lint and format), the module
// and feature boundaries (dependency-cruiser, record 168), no cycle between modules or features (record
// 262, on the same dependency graph, cruised once), raw SQL only in lib/sql.ts (record 167), balances written
// only with their journal legs (record 279), releases and
// tracks written by the catalogue core only (record 261), decimal arithmetic only in the money module
// (record 263), and the drift guards of scripts/checks/ (record
// 265): file size, ARCHITECTURE.md true to the code, a front door (index.ts) for every module and feature,
// the decision index sorted by number, complete and one short line a row, records of at most 3,000
// characters (decision-length, its allow-list only shrinks), knip.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);
const scratch = mkdtempSync(join(tmpdir(), 'tunedrop-lint-'));
const graph = join(scratch, 'dependencies.json');
const CHECKS = [
  ['biome', bin('biome'), ['check', '.']],
  // The dependency graph, written once for the two checks after it (its own findings are theirs to print).
  [
    'dependency-graph',
    bin('depcruise'),
    [
      'apps/server/src',
      'apps/web/src',
      'packages/shared/src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
      '--output-to',
      graph,
    ],
    { allowStatus: true },
  ],
  ['boundaries', bin('depcruise-fmt'), ['--output-type', 'err', '--exit-code', graph]],
  ['module-cycles', process.execPath, ['scripts/check-module-cycles.mjs', graph]],
  ['raw-sql', process.execPath, ['scripts/check-raw-sql.mjs']],
  ['catalogue-writer', process.execPath, ['scripts/check-catalogue-writer.mjs']],
  // Balances written only where their journal legs are written (issue 36, record 279).
  ['balance-writer', process.execPath, ['scripts/check-balance-writer.mjs']],
  ['file-size', process.execPath, ['scripts/checks/file-size.mjs']],
  ['architecture', process.execPath, ['scripts/checks/architecture.mjs']],
  ['front-doors', process.execPath, ['scripts/checks/front-doors.mjs']],
  ['decision-index', process.execPath, ['scripts/checks/decision-index.mjs']],
  ['decision-length', process.execPath, ['scripts/checks/decision-length.mjs']],
  // Decimal sums, products and roundings only in packages/shared/src/money (record 263).
  ['decimal-arithmetic', process.execPath, ['scripts/checks/decimal-arithmetic.mjs']],
  // Unused files, exports and dependencies, and imports of undeclared packages (knip.jsonc, record 265).
  ['knip', bin('knip'), ['--no-progress']],
];

const failed = [];
for (const [name, command, args, options] of CHECKS) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  // depcruise exits with its violation count; the boundaries step reports and fails on those.
  const isFailure = options?.allowStatus ? result.status === null || result.error : result.status !== 0;
  // A tool added to the devDependencies since the last install (knip, record 265) is not there yet.
  if (result.error?.code === 'ENOENT') console.error(`${name}: ${command} is not installed: run npm ci`);
  if (isFailure) failed.push(name);
}
rmSync(scratch, { recursive: true, force: true });
if (failed.length > 0) {
  console.error(`lint failed: ${failed.join(', ')}`);
  process.exit(1);
}
