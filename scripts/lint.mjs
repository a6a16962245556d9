#!/usr/bin/env node
// `npm run lint`: every check runs, each prints its own findings, and the run fails if any failed
// (so a format slip does not hide a boundary violation). Checks: Biome (lint and format), the module
// and feature boundaries (dependency-cruiser, record 168), raw SQL only in lib/sql.ts (record 167).
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);
const CHECKS = [
  ['biome', bin('biome'), ['check', '.']],
  [
    'boundaries',
    bin('depcruise'),
    [
      'apps/server/src',
      'apps/web/src',
      'packages/shared/src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
    ],
  ],
  ['raw-sql', process.execPath, ['scripts/check-raw-sql.mjs']],
];

const failed = [];
for (const [name, command, args] of CHECKS) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(`lint failed: ${failed.join(', ')}`);
  process.exit(1);
}
