/**
 * Module boundaries (record 092), read from the import statements of every source file:
 * - a module (modules/<name>/) may import another module only through that module's public entry
 *   points listed below, never its routes or other internals (tests may reach further for set-up);
 * - infra/ and db/ import no module at all, not even through lib/ or deps.ts (they know no business
 *   rule);
 * - lib/ imports no module except through deps.ts's types (the request context carries the deps).
 * The composition roots (app.ts, server.ts, main*.ts, cli*.ts, deps.ts) may import anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** What other modules may import from each module (file names without .ts). */
export const PUBLIC_ENTRY_POINTS: Record<string, readonly string[]> = {
  'admin-releases': [],
  auth: ['service', 'auth'],
  builder: ['files'],
  ddex: ['index'],
  delivery: ['service', 'worker'],
  releases: ['service', 'mails'],
  splits: ['posting', 'statement'],
  wallet: ['service', 'balance', 'payment-crypto', 'audit'],
};

const srcDir = path.dirname(fileURLToPath(import.meta.url));
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Relative imports of a file, resolved to source files under src/ ('a/b' for src/a/b.ts). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (!specifier.startsWith('.')) continue;
    const resolved = path.relative(srcDir, path.resolve(path.dirname(file), specifier));
    found.push(resolved.replace(/\\/g, '/').replace(/\.(ts|mts)$/, ''));
  }
  return found;
}

const files = sourceFiles(srcDir).map((file) => ({
  file,
  id: path
    .relative(srcDir, file)
    .replace(/\\/g, '/')
    .replace(/\.(ts|mts)$/, ''),
  isTest: /\.test\.ts$/.test(file) || file.includes(`${path.sep}test-support${path.sep}`),
}));
const graph = new Map(files.map((entry) => [entry.id, importsOf(entry.file)]));
const moduleOf = (id: string) => /^modules\/([^/]+)\//.exec(id)?.[1] ?? null;

const testIds = new Set(files.filter((entry) => entry.isTest).map((entry) => entry.id));

/** Non-test module files importing another module's file that is not one of its public entry points. */
function crossModuleViolations(imports: Map<string, string[]>, tests: Set<string>): string[] {
  const violations: string[] = [];
  for (const [id, targets] of imports) {
    const own = moduleOf(id);
    if (!own || tests.has(id)) continue;
    for (const target of targets) {
      const other = moduleOf(target);
      if (!other || other === own) continue;
      const file = target.slice(`modules/${other}/`.length);
      if (!(PUBLIC_ENTRY_POINTS[other] ?? []).includes(file)) violations.push(`${id} → ${target}`);
    }
  }
  return violations;
}

/** Every file reachable from `id` through relative imports (type-only imports included). */
function reachable(id: string, seen = new Set<string>()): Set<string> {
  for (const next of graph.get(id) ?? []) {
    if (seen.has(next)) continue;
    seen.add(next);
    reachable(next, seen);
  }
  return seen;
}

describe('module boundaries', () => {
  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(graph.get('app')).toContain('modules/auth/routes');
  });

  it('a module imports another module only through its public entry points', () => {
    expect(crossModuleViolations(graph, testIds)).toEqual([]);
  });

  it('infra/ and db/ reach no module, directly or through lib/ and deps.ts', () => {
    const violations: string[] = [];
    for (const entry of files) {
      if (!/^(infra|db)\//.test(entry.id) || entry.isTest) continue;
      for (const target of reachable(entry.id)) {
        if (target.startsWith('modules/')) violations.push(`${entry.id} ⇒ ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('infra/ and db/ tests import no module either', () => {
    const violations = files
      .filter((entry) => /^(infra|db)\//.test(entry.id) && entry.isTest)
      .flatMap((entry) =>
        (graph.get(entry.id) ?? [])
          .filter((target) => target.startsWith('modules/'))
          .map((target) => `${entry.id} → ${target}`),
      );
    expect(violations).toEqual([]);
  });

  it('lib/ imports no module directly', () => {
    const violations = files
      .filter((entry) => entry.id.startsWith('lib/') && !entry.isTest)
      .flatMap((entry) =>
        (graph.get(entry.id) ?? [])
          .filter((target) => target.startsWith('modules/'))
          .map((target) => `${entry.id} → ${target}`),
      );
    expect(violations).toEqual([]);
  });

  it('catches a violation (the check itself works)', () => {
    const probe = new Map([
      ['modules/wallet/probe', ['modules/releases/routes', 'modules/releases/service', 'lib/errors']],
      ['modules/wallet/probe.test', ['modules/releases/routes']],
    ]);
    expect(crossModuleViolations(probe, new Set(['modules/wallet/probe.test']))).toEqual([
      'modules/wallet/probe → modules/releases/routes',
    ]);
  });
});
