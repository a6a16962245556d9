// The files the checks read: tracked and new (not ignored) files of the work tree, paths from the root.
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function workTreeFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split('\0').filter(Boolean);
}

/** Source that ships: the apps' and packages' `src`, the server build and the scripts; no tests. */
export function isProductionSource(path) {
  if (!/\.(ts|tsx|mjs|cjs|js)$/.test(path)) return false;
  if (/\.(test|spec)\.tsx?$/.test(path) || /(^|\/)test-support\//.test(path)) return false;
  return (
    /^(apps|packages)\/[^/]+\/src\//.test(path) ||
    /^apps\/[^/]+\/[^/]+\.mjs$/.test(path) ||
    /^scripts\//.test(path)
  );
}
