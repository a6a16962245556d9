#!/usr/bin/env node
// The decision index (docs/decisions/README.md) stays sorted by number and complete (issue 37): every
// record file has its row, every row names a file that exists, and the rows go up by number, so a new
// record is put in its place, not appended after the last one. Each row is one line of a short decision
// (at most 200 characters) and a short status (at most 80): the record says the rest.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './files.mjs';

const dir = join(root, 'docs/decisions');
const MAX_DECISION = 200;
const MAX_STATUS = 80;
const index = readFileSync(join(dir, 'README.md'), 'utf8');
const rows = [...index.matchAll(/^\| \[(\d{3})\]\(([^)]+)\)/gm)].map((match) => ({
  number: Number(match[1]),
  name: match[1],
  file: match[2],
}));
const problems = [];
// The table's lines after its header and separator: each one a whole row (a record, its decision, its status).
const tableLines = index
  .split('\n')
  .filter((line) => line.startsWith('|'))
  .slice(2);
for (const line of tableLines) {
  const cells = line
    .trim()
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());
  const name = /^\[(\d{3})\]/.exec(cells[0] ?? '')?.[1];
  if (!name || cells.length !== 3 || !line.trim().endsWith('|')) {
    problems.push(`a row of the index is not one line of record, decision and status: ${line.slice(0, 60)}…`);
    continue;
  }
  const [, decision, status] = cells;
  if ([...decision].length > MAX_DECISION)
    problems.push(
      `record ${name}: its decision is ${[...decision].length} characters in the index (at most ${MAX_DECISION})`,
    );
  if ([...status].length > MAX_STATUS)
    problems.push(
      `record ${name}: its status is ${[...status].length} characters in the index (at most ${MAX_STATUS})`,
    );
}
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
