#!/usr/bin/env node
// A decision record is one decision in at most 3,000 characters (issue 37, CONTRIBUTING.md): today's rules
// go to the docs/ page of their topic, measurements to bench/results/, and a bundle is split into records.
// The records still over the limit are allow-listed with their length when the check came in; the list
// only shrinks: a listed record may not grow, one back under the limit or gone (split, renamed) fails
// until its entry is removed, and no record numbered above 309 may be listed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './files.mjs';

const MAX_CHARACTERS = 3000;
/** The last record number when the list was made: records after it are never allowed over the limit. */
const LAST_LISTABLE = 309;
/**
 * Records over the limit, each with the most characters it may keep (its length when listed). Empty since
 * the last 55 were condensed or split (records 331-336): every record is now within the limit.
 * @type {Map<string, number>}
 */
const ALLOWED = new Map([]);

const dir = join(root, 'docs/decisions');
const problems = [];
const lengthOf = (file) => [...readFileSync(join(dir, file), 'utf8')].length;
for (const file of readdirSync(dir).filter((name) => /^\d{3}-.+\.md$/.test(name))) {
  const length = lengthOf(file);
  const allowed = ALLOWED.get(file);
  if (allowed === undefined) {
    if (length > MAX_CHARACTERS)
      problems.push(
        `${file}: ${length} characters (at most ${MAX_CHARACTERS}: one decision a record; figures to bench/results/, today's rules to docs/)`,
      );
  } else if (length <= MAX_CHARACTERS) {
    problems.push(
      `${file}: ${length} characters, now within the limit: remove it from ALLOWED in scripts/checks/decision-length.mjs`,
    );
  } else if (length > allowed) {
    problems.push(
      `${file}: ${length} characters, more than the ${allowed} it was allowed: shorten it (the list only shrinks)`,
    );
  }
}
for (const [file] of ALLOWED) {
  if (!existsSync(join(dir, file)))
    problems.push(`${file}: allowed in scripts/checks/decision-length.mjs but no longer there: remove it`);
  if (Number(file.slice(0, 3)) > LAST_LISTABLE)
    problems.push(
      `${file}: records after ${LAST_LISTABLE} cannot be allowed over ${MAX_CHARACTERS} characters`,
    );
}
if (problems.length > 0) {
  console.error(`decision-length: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
