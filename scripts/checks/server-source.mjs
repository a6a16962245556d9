// What the source checks of `npm run lint` share (check-raw-sql.mjs, check-catalogue-writer.mjs): walk the
// server's production TypeScript (tests and test-support are not production code), parse each file with the
// TypeScript compiler so comments and plain strings never count, and list the nodes a check refuses as
// `path:line:column  first line of the node`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { root } from './files.mjs';

const src = join(root, 'apps/server/src');

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

/**
 * The nodes of server production code that `isOffending(node)` refuses. `skip(path)` leaves a file out
 * (paths from apps/server/src); `mayOffend(text)` is a cheap test that skips parsing files that cannot.
 */
export function findInServerSource({ skip = () => false, mayOffend = () => true, isOffending }) {
  const offenders = [];
  for (const file of files(src)) {
    const path = relative(src, file).split('\\').join('/');
    if (!isProduction(path) || skip(path)) continue;
    const text = readFileSync(file, 'utf8');
    if (!mayOffend(text)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node) => {
      if (isOffending(node)) {
        const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
        offenders.push(
          `apps/server/src/${path}:${line + 1}:${character + 1}  ${node.getText(source).split('\n')[0]}`,
        );
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return offenders;
}
