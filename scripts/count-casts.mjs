#!/usr/bin/env node
// Counts type assertions (`x as T`, `<T>x`; not `as const`) in server production code, per folder, with
// the TypeScript parser (SQL aliases and comments do not count). `--list [folder]` prints each one.
// The kinds that stay, and why: docs/decisions/167-one-raw-sql-helper-enforced.md ("Casts that stay").
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'apps/server/src');
const [flag, only] = process.argv.slice(2);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const isConst = (type) =>
  ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'const';
const byFolder = new Map();
let total = 0;
for (const file of files(src)) {
  const path = relative(src, file).split('\\').join('/');
  if (!path.endsWith('.ts') || path.endsWith('.d.ts') || path.endsWith('.test.ts')) continue;
  if (path.startsWith('test-support/')) continue;
  const folder = path.startsWith('modules/') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0];
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isConst(node.type)) {
      total += 1;
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
      if (flag === '--list' && (!only || path.startsWith(only))) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        console.info(`${path}:${line + 1}  ${node.getText(source).replace(/\s+/g, ' ').slice(-90)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
if (flag !== '--list') {
  for (const [folder, count] of [...byFolder].sort((a, b) => b[1] - a[1]))
    console.info(`${count}\t${folder}`);
}
console.info(`${total}\ttotal`);
