#!/usr/bin/env node
// One decimal module (issue 36, record 263): every decimal sum, product and rounding of server and web goes
// through packages/shared/src/money, so no private adder can come back. Outside it, production code may read
// and write decimal text (parseScaled, formatScaled and the named functions) but may not do the arithmetic
// itself: no addScaled, rescale or roundScaled, no scaled decimal built by hand (`{ units: …, scale: … }`),
// no powers of ten in BigInt, no cents turned into dollars by dividing by 100 and no hand-made "12.34"
// (`% 100` padded to two digits), no fraction padded by hand to parse a decimal. SQL text is not checked
// (numeric arithmetic in the database is exact).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProductionSource, root, workTreeFiles } from './files.mjs';

const MONEY = /^packages\/shared\/src\/money(\.ts|\/)/;
const RULES = [
  [
    /\b(addScaled|rescale|roundScaled)\s*\(/,
    'scaled-unit arithmetic: use sumDecimals, addDecimal, multiplyDecimal, roundDecimal…',
  ],
  [/\{\s*units\s*:[^}]*\bscale\s*:/, 'a scaled decimal built by hand: use the money module'],
  [/\b10n\s*\*\*/, 'a power of ten in BigInt (decimal scaling): use the money module'],
  [
    /[cC]ents\s*\)?\s*\/\s*100\b(?!\.\d)/,
    'cents divided by 100: use centsToDecimal, centsToAmount or formatCents',
  ],
  [
    /\w*(cents|Cents|hundredths|amount|Amount)\w*\s*%\s*100\b/,
    'hand-made two-decimal text: use centsToDecimal',
  ],
  [/\bfraction\w*\.padEnd\(/, 'a decimal fraction parsed by hand: use decimalToUnits or parseScaled'],
];

/** The code of a line outside template literals that hold SQL (sql`…`), comments left out. */
function codeLines(text) {
  const out = [];
  let inSql = false;
  let inComment = false;
  text.split('\n').forEach((raw, index) => {
    let line = raw;
    if (inComment) {
      const end = line.indexOf('*/');
      if (end < 0) return;
      line = line.slice(end + 2);
      inComment = false;
    }
    if (inSql) {
      // The SQL ends at a backtick that is not part of an interpolation's nested template.
      if (!/`/.test(line)) return;
      line = line.slice(line.lastIndexOf('`') + 1);
      inSql = false;
    }
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) {
      if (/^\s*\/\*/.test(line) && !line.includes('*/')) inComment = true;
      return;
    }
    const sqlStart = line.search(/sql`/);
    if (sqlStart >= 0) {
      const rest = line.slice(sqlStart + 4);
      if ((rest.match(/`/g) ?? []).length % 2 === 0) inSql = true;
      line = line.slice(0, sqlStart);
    }
    out.push([index + 1, line.replace(/\/\/.*$/, '')]);
  });
  return out;
}

const problems = [];
for (const path of workTreeFiles()) {
  if (!isProductionSource(path) || MONEY.test(path) || path.startsWith('scripts/')) continue;
  if (!/\.(ts|tsx)$/.test(path)) continue;
  let text;
  try {
    text = readFileSync(join(root, path), 'utf8');
  } catch {
    continue;
  }
  for (const [number, line] of codeLines(text)) {
    for (const [pattern, message] of RULES) {
      if (pattern.test(line)) problems.push(`${path}:${number}: ${message}\n    ${line.trim()}`);
    }
  }
}
if (problems.length > 0) {
  console.error(
    `check-decimal-arithmetic: decimal arithmetic outside packages/shared/src/money (record 263):`,
  );
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.info('check-decimal-arithmetic: decimal arithmetic only in packages/shared/src/money');
