#!/usr/bin/env node
// No production file over 450 lines (issue 37): a long file is split by concern before it grows further.
// Tests, test support and generated or vendored files are not counted. The allow-list only shrinks:
// an entry that is back under the limit, or gone, fails too, so it is removed when its file is split.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProductionSource, root, workTreeFiles } from './files.mjs';

const MAX_LINES = 450;
/** Issue 36 (record 250): no file of the three royalty modules over 400 lines. */
const STRICTER = [
  { prefix: 'apps/server/src/modules/royalty-imports/', max: 400 },
  { prefix: 'apps/server/src/modules/royalty-posting/', max: 400 },
  { prefix: 'apps/server/src/modules/statements/', max: 400 },
];
const limitOf = (path) => STRICTER.find((rule) => path.startsWith(rule.prefix))?.max ?? MAX_LINES;

/** Files still over the limit whose area another change is reworking; each line says who splits it. */
const ALLOWED = new Map([]);

const isGenerated = (text) =>
  /^\s*(\/\/|\/\*+|\*)\s*(@generated|this file (is|was) (auto-?)?generated)/im.test(text.slice(0, 400));

const problems = [];
const seen = new Set();
for (const path of workTreeFiles()) {
  if (!isProductionSource(path) || !existsSync(join(root, path))) continue;
  const text = readFileSync(join(root, path), 'utf8');
  if (isGenerated(text)) continue;
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (ALLOWED.has(path)) {
    seen.add(path);
    if (lines <= MAX_LINES)
      problems.push(
        `${path}: ${lines} lines, now under ${MAX_LINES}: remove it from ALLOWED in scripts/checks/file-size.mjs`,
      );
  } else if (lines > limitOf(path)) {
    problems.push(`${path}: ${lines} lines (at most ${limitOf(path)}; split it by concern)`);
  }
}
for (const path of ALLOWED.keys()) {
  if (!seen.has(path))
    problems.push(`${path}: allowed in scripts/checks/file-size.mjs but no longer there: remove it`);
}
if (problems.length > 0) {
  console.error(`file-size: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
