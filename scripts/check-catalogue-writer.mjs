#!/usr/bin/env node
// Fails when server production code inserts into releases, tracks, songwriters or producers anywhere but
// the catalogue core (`apps/server/src/modules/catalogue/`, record 261): the builder, the catalogue import,
// track changes, edits and updates call its `createRelease`, `insertTracks` and `replaceCredits`, so the
// copies cannot drift apart again. Parses each file with the TypeScript compiler: `db.insert(releases)`,
// `tx.insert(schema.tracks)` and raw `insert into ${songwriters}` / `insert into producers` all count;
// comments do not. Tests and test-support (fixtures) are not production code. Run by `npm run lint`.
import ts from 'typescript';
import { findInServerSource } from './checks/server-source.mjs';

const CORE = 'modules/catalogue/';
const TABLES = new Set(['releases', 'tracks', 'songwriters', 'producers']);
const RAW_INSERT = /insert\s+into\s+"?(releases|tracks|songwriters|producers)"?(\s|\(|$)/i;
const INSERT_INTO_END = /insert\s+into\s*"?$/i;

/** `releases`, `schema.releases`: the table a query-builder call names, if it is one of ours. */
const tableName = (node) => {
  if (!node) return undefined;
  const name = ts.isIdentifier(node)
    ? node.text
    : ts.isPropertyAccessExpression(node)
      ? node.name.text
      : undefined;
  return name && TABLES.has(name) ? name : undefined;
};

const isInsertCall = (node) =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  node.expression.name.text === 'insert' &&
  tableName(node.arguments[0]) !== undefined;

/** A template whose text says `insert into` just before `${table}`, or names the table itself. */
const isRawInsert = (node) => {
  if (ts.isNoSubstitutionTemplateLiteral(node)) return RAW_INSERT.test(node.text);
  if (!ts.isTemplateExpression(node)) return false;
  const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
  if (parts.some((text) => RAW_INSERT.test(text))) return true;
  return node.templateSpans.some(
    (span, index) => INSERT_INTO_END.test(parts[index]) && tableName(span.expression) !== undefined,
  );
};

const offenders = findInServerSource({
  skip: (path) => path.startsWith(CORE),
  mayOffend: (text) => /insert/i.test(text),
  isOffending: (node) => isInsertCall(node) || isRawInsert(node),
});

if (offenders.length > 0) {
  console.error(
    `Releases, tracks or credits written outside the catalogue core (${offenders.length}): call createRelease, ` +
      'insertTracks or replaceCredits from modules/catalogue (record 261).',
  );
  for (const offender of offenders) console.error(`  ${offender}`);
  process.exit(1);
}
console.info('check-catalogue-writer: releases, tracks and credits are written by the catalogue core only');
