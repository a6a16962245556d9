#!/usr/bin/env node
// Every server module and web feature has a front door (issue 37): `modules/<name>/index.ts` and
// `features/<name>/index.ts(x)`, the one file others import it through. dependency-cruiser
// (.dependency-cruiser.cjs) fails an import past it; this check fails a module or feature without one, so
// there is no module whose internals are public for want of an index.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './files.mjs';

const problems = [];
for (const [parent, kind] of [
  ['apps/server/src/modules', 'server module'],
  ['apps/web/src/features', 'web feature'],
]) {
  for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(root, parent, entry.name);
    if (!['index.ts', 'index.tsx'].some((name) => existsSync(join(dir, name))))
      problems.push(`${kind} ${parent}/${entry.name} has no index.ts (its front door)`);
  }
}
if (problems.length > 0) {
  console.error(`front-doors: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
