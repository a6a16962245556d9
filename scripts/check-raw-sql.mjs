#!/usr/bin/env node
// Fails when server production code calls `.execute(` anywhere but `apps/server/src/lib/sql.ts`, the one
// typed raw-SQL helper that maps rows to camelCase (record 167). Parses each file with the TypeScript
// compiler, so comments, strings and template text never count, and `db.execute(...)`,
// `tx['execute'](...)` and `db.execute<T>(...)` all do. A prepared query-builder statement's
// `.execute()` / `.execute({ placeholder: value })` (no argument, or one object literal: its placeholders)
// is the query builder, not raw SQL, and passes. Tests and test-support are not production code.
// Run by `npm run lint`.
import ts from 'typescript';
import { findInServerSource } from './checks/server-source.mjs';

/** Files allowed to call execute(), each with why. Keep it this short. */
const ALLOWED = new Map([['lib/sql.ts', 'the helper itself']]);

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

const offenders = findInServerSource({
  skip: (path) => ALLOWED.has(path),
  mayOffend: (text) => text.includes('execute'),
  isOffending: (node) =>
    ts.isCallExpression(node) && calleeName(node) === 'execute' && !isPreparedStatementCall(node),
});

if (offenders.length > 0) {
  console.error(
    `Raw SQL outside lib/sql.ts (${offenders.length}): use rows()/firstRow()/run() from lib/sql.ts, or the query builder (record 167).`,
  );
  for (const offender of offenders) console.error(`  ${offender}`);
  process.exit(1);
}
console.info('check-raw-sql: no .execute( outside lib/sql.ts');
