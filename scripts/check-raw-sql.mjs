#!/usr/bin/env node
// Fails when server production code calls `.execute(` anywhere but `apps/server/src/lib/sql.ts`, the one
// typed raw-SQL helper that maps rows to camelCase (record 167). Parses each file with the TypeScript
// compiler, so comments, strings and template text never count, and `db.execute(...)`,
// `tx['execute'](...)` and `db.execute<T>(...)` all do. A prepared query-builder statement's
// `.execute()` / `.execute({ placeholder: value })` (no argument, or one object literal: its placeholders)
// is the query builder, not raw SQL, and passes. Tests and test-support are not production code.
// Run by `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'apps/server/src');

/** Files allowed to call execute(), each with why. Keep it this short. */
const ALLOWED = new Map([['lib/sql.ts', 'the helper itself']]);

const isProduction = (path) =>
  path.endsWith('.ts') &&
  !path.endsWith('.d.ts') &&
  !/\.test\.ts$/.test(path) &&
  !path.startsWith('test-support/') &&
  !path.includes('/test-support/');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const calleeName = (node) => {
  const callee = node.expression;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  if (ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression))
    return callee.argumentExpression.text;
  return undefined;
};

/** `statement.execute()` or `statement.execute({ ... })`: a prepared statement's placeholders, never SQL. */
const isPreparedStatementCall = (node) =>
  node.arguments.length === 0 ||
  (node.arguments.length === 1 && ts.isObjectLiteralExpression(node.arguments[0]));

const offenders = [];
for (const file of files(src)) {
  const path = relative(src, file).split('\\').join('/');
  if (!isProduction(path) || ALLOWED.has(path)) continue;
  const text = readFileSync(file, 'utf8');
  if (!text.includes('execute')) continue;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const visit = (node) => {
    if (ts.isCallExpression(node) && calleeName(node) === 'execute' && !isPreparedStatementCall(node)) {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
      offenders.push(
        `apps/server/src/${path}:${line + 1}:${character + 1}  ${node.getText(source).split('\n')[0]}`,
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (offenders.length > 0) {
  console.error(
    `Raw SQL outside lib/sql.ts (${offenders.length}): use rows()/firstRow()/run() from lib/sql.ts, or the query builder (record 167).`,
  );
  for (const offender of offenders) console.error(`  ${offender}`);
  process.exit(1);
}
console.info('check-raw-sql: no .execute( outside lib/sql.ts');
