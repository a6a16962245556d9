/** Guards record 096: dates are formatted only in lib/format.ts, with its one locale rule. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceDir = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('date formatting', () => {
  it('happens only in lib/format.ts', () => {
    const offenders = sourceFiles(sourceDir)
      .filter((file) => path.relative(sourceDir, file) !== path.join('lib', 'format.ts'))
      .filter((file) =>
        /Intl\.DateTimeFormat|toLocaleDateString|toLocaleTimeString/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(sourceDir, file));
    expect(offenders).toEqual([]);
  });
});
