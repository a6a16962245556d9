#!/usr/bin/env node
// Fails when server production code writes an artist's balance or pending balance anywhere but the two
// writers (issue 36, record 279): `modules/wallet/balance.ts` (`applyBalanceChanges` and the withdrawal
// moves, each writing its journal legs in the same database transaction) and the bulk CSV apply of
// `modules/admin-balances/service.ts` (one set-based UPDATE for the file, its `bulk_adjustment` journal
// transaction in the same database transaction), so no cached figure moves without its journal transaction. Refused: a query
// builder's `.set({ balanceCents | pendingBalanceCents ... })` or `.values({ ... })` naming them, and raw
// SQL that assigns `balance_cents =` or `pending_balance_cents =`. Tests and test-support are not
// production code. Run by `npm run lint`.
import ts from 'typescript';
import { findInServerSource } from './checks/server-source.mjs';

const WRITERS = new Set(['modules/wallet/balance.ts', 'modules/admin-balances/service.ts']);
const FIELDS = new Set(['balanceCents', 'pendingBalanceCents']);
const RAW_ASSIGN = /(^|[^a-z_])(pending_)?balance_cents"?\s*=(?!=)/i;

const namesABalance = (argument) =>
  argument !== undefined &&
  ts.isObjectLiteralExpression(argument) &&
  argument.properties.some(
    (property) =>
      (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
      ts.isIdentifier(property.name) &&
      FIELDS.has(property.name.text),
  );

const isBuilderWrite = (node) =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  ['set', 'values'].includes(node.expression.name.text) &&
  namesABalance(node.arguments[0]);

const isRawWrite = (node) => {
  if (ts.isNoSubstitutionTemplateLiteral(node)) return RAW_ASSIGN.test(node.text);
  if (!ts.isTemplateExpression(node)) return false;
  return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].some((text) =>
    RAW_ASSIGN.test(text),
  );
};

const offenders = findInServerSource({
  skip: (path) => WRITERS.has(path),
  mayOffend: (text) => /balanceCents|balance_cents/.test(text),
  isOffending: (node) => isBuilderWrite(node) || isRawWrite(node),
});

if (offenders.length > 0) {
  console.error(
    `A balance written outside wallet/balance.ts (${offenders.length}): call applyBalanceChanges, which ` +
      'writes the journal legs with it (issue 36, record 279).',
  );
  for (const offender of offenders) console.error(`  ${offender}`);
  process.exit(1);
}
console.info('check-balance-writer: balances are written by their two writers only, with their journal legs');
