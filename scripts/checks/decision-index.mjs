#!/usr/bin/env node
// The decision index (docs/decisions/README.md) stays sorted by number and complete (issue 37): every
// record file has its row, every row names a file that exists, and the rows go up by number, so a new
// record is put in its place, not appended after the last one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './files.mjs';

const dir = join(root, 'docs/decisions');
const rows = [...readFileSync(join(dir, 'README.md'), 'utf8').matchAll(/^\| \[(\d{3})\]\(([^)]+)\)/gm)].map(
  (match) => ({ number: Number(match[1]), name: match[1], file: match[2] }),
);
const problems = [];
rows.forEach((row, index) => {
  const before = rows[index - 1];
  if (before && before.number >= row.number)
    problems.push(`record ${row.name} comes after ${before.name}: sort the rows by number`);
  if (!existsSync(join(dir, row.file))) problems.push(`record ${row.name}: ${row.file} does not exist`);
});
const listed = new Set(rows.map((row) => row.file));
for (const file of readdirSync(dir).filter((name) => /^\d{3}-.+\.md$/.test(name))) {
  if (!listed.has(file)) problems.push(`${file} has no row in docs/decisions/README.md`);
}
if (problems.length > 0) {
  console.error(`decision-index: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
