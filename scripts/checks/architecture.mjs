#!/usr/bin/env node
// ARCHITECTURE.md stays true to the code (issue 37): every server module (`modules/<name>`) and web
// feature (`features/<name>`) is named in it in backticks, and every function, class or type it names in
// backticks (`camelCase`, `camelCase()`, `PascalCase` of two words or more) is declared in the code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, workTreeFiles } from './files.mjs';

const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
const backticked = [...doc.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
const problems = [];

const dirs = (path) =>
  readdirSync(join(root, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
// A module is named by `<name>`, or by a path through it (`modules/<name>/…`, `features/<name>`).
const isNamed = (kind, name) =>
  backticked.some(
    (token) =>
      token === name ||
      token === `${kind}/${name}` ||
      token.includes(`${kind}/${name}/`) ||
      token.endsWith(`${kind}/${name}`),
  );
for (const name of dirs('apps/server/src/modules')) {
  if (!isNamed('modules', name))
    problems.push(`server module modules/${name} is not named in ARCHITECTURE.md`);
}
for (const name of dirs('apps/web/src/features')) {
  if (!isNamed('features', name))
    problems.push(`web feature features/${name} is not named in ARCHITECTURE.md`);
}

const identifier =
  /^(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*(?:\(\))?|[a-z][a-z0-9]*\(\)|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)$/;
const names = new Set(
  backticked.filter((token) => identifier.test(token)).map((token) => token.replace('()', '')),
);
const sources = workTreeFiles()
  .filter(
    (path) => /^(apps|packages)\/[^/]+\/src\/.*\.(ts|tsx)$/.test(path) && !/\.(test|spec)\.tsx?$/.test(path),
  )
  .map((path) => {
    try {
      return readFileSync(join(root, path), 'utf8');
    } catch {
      return ''; // deleted in the work tree, not yet in the index
    }
  })
  .join('\n');
for (const name of names) {
  const declared = new RegExp(
    // A function, variable, class, type, interface or enum; a method or object member (`name(`, `name:`);
    `(?:function\\*?|const|let|var|class|type|interface|enum)\\s+${name}\\b|^\\s*(?:async\\s+|static\\s+|readonly\\s+)*${name}\\s*[(<:]` +
      // or imported from a package (a Node or library function the text names: `createGunzip`)
      `|^import\\s+(?:type\\s+)?\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'(?!\\.)`,
    'm',
  );
  if (!declared.test(sources))
    problems.push(`ARCHITECTURE.md names \`${name}\`, which no source file declares`);
}

if (problems.length > 0) {
  console.error(`architecture: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
