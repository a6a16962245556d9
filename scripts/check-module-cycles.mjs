#!/usr/bin/env node
// Fails on a cycle between modules (record 262): dependency-cruiser's graph (the JSON `npm run lint` writes,
// given as the one argument) collapsed to `modules/<name>` on the server and `features/<name>` on the web,
// then every strongly connected component of two or more is printed with the file imports behind each edge.
// The file-level `no-circular` rule cannot see these: builder -> content-id -> delivery -> releases ->
// builder was a knot of five modules whose files never formed a loop. Tests and test set-up may reach across
// for fixtures, as in `.dependency-cruiser.cjs`, so their imports are not edges.
// Run by `npm run lint`.
import { readFileSync } from 'node:fs';

/**
 * Module edges that may stay in a cycle for now, each `from -> to` with why. A new cycle fails lint; an
 * allowed edge that is no longer in a cycle fails too, so the list only shrinks. Add one only with a
 * decision record and a plan to remove it.
 */
const ALLOWED_EDGES = new Map([]);

const TESTS = /\.test\.tsx?$|^apps\/server\/src\/test-support\/|^apps\/server\/src\/main-e2e\.ts$/;
const UNITS = [
  [/^apps\/server\/src\/modules\/([^/]+)\//, 'modules'],
  [/^apps\/web\/src\/features\/([^/]+)\//, 'features'],
];

/** The module or feature a file belongs to, or null when it is in neither. */
function unitOf(path) {
  for (const [pattern, kind] of UNITS) {
    const match = pattern.exec(path);
    if (match) return `${kind}/${match[1]}`;
  }
  return null;
}

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: check-module-cycles.mjs <dependency-cruiser json>');
  process.exit(2);
}
const { modules } = JSON.parse(readFileSync(file, 'utf8'));

/** `from -> to` to the file imports that make the edge. */
const edges = new Map();
const next = new Map();
for (const module of modules) {
  if (TESTS.test(module.source)) continue;
  const from = unitOf(module.source);
  if (!from) continue;
  for (const dependency of module.dependencies) {
    const to = unitOf(dependency.resolved);
    if (!to || to === from) continue;
    const key = `${from} -> ${to}`;
    if (!edges.has(key)) {
      edges.set(key, []);
      next.set(from, [...(next.get(from) ?? []), to]);
    }
    edges.get(key).push(`${module.source} -> ${dependency.resolved}`);
  }
}

// Tarjan's strongly connected components over the collapsed graph.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
const visit = (unit) => {
  index.set(unit, index.size);
  low.set(unit, index.get(unit));
  stack.push(unit);
  onStack.add(unit);
  for (const to of next.get(unit) ?? []) {
    if (!index.has(to)) {
      visit(to);
      low.set(unit, Math.min(low.get(unit), low.get(to)));
    } else if (onStack.has(to)) low.set(unit, Math.min(low.get(unit), index.get(to)));
  }
  if (low.get(unit) === index.get(unit)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== unit);
    if (component.length > 1) components.push(component.sort());
  }
};
for (const unit of next.keys()) if (!index.has(unit)) visit(unit);

let failed = false;
const stale = new Set(ALLOWED_EDGES.keys());
for (const component of components) {
  const members = new Set(component);
  const inside = [...edges.entries()].filter(([key]) => {
    const [from, to] = key.split(' -> ');
    return members.has(from) && members.has(to);
  });
  for (const [key] of inside) stale.delete(key);
  if (inside.every(([key]) => ALLOWED_EDGES.has(key))) continue;
  failed = true;
  console.error(`Module cycle: ${component.join(', ')}`);
  for (const [key, imports] of inside) {
    console.error(`  ${key}${ALLOWED_EDGES.has(key) ? ' (allowed for now)' : ''}`);
    for (const line of imports.slice(0, 3)) console.error(`      ${line}`);
    if (imports.length > 3) console.error(`      … and ${imports.length - 3} more`);
  }
}
for (const key of stale) {
  failed = true;
  console.error(`Allowed module edge no longer in a cycle: ${key} (remove it from ALLOWED_EDGES)`);
}
if (failed) {
  console.error(
    'A module (or web feature) that needs another which needs it back: move what both need down (the ' +
      'catalogue core, lib/, a new module) or pass it in as a parameter (record 262).',
  );
  process.exit(1);
}
console.info(
  `check-module-cycles: no cycle among ${next.size} modules and features` +
    (ALLOWED_EDGES.size > 0 ? ` beyond the ${ALLOWED_EDGES.size} allowed edges` : ''),
);
