/**
 * DDEX ERN 4.3 schema validation for tests: the official XSDs are vendored in `vendor/ddex/ern43/`, so
 * this never skips. xmllint (Debian libxml2-utils) is required; without it the test fails and says so.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export const ERN43_SCHEMA_FILE = path.join(repoRoot, 'vendor/ddex/ern43/release-notification.xsd');

/** Validates an ERN message with xmllint; returns xmllint's exit status and its report. */
export function validateErn43(xml: string): { status: number | null; report: string } {
  if (!fs.existsSync(ERN43_SCHEMA_FILE)) {
    throw new Error(`The vendored DDEX ERN 4.3 schema is missing: ${ERN43_SCHEMA_FILE}`);
  }
  if (spawnSync('xmllint', ['--version']).status !== 0) {
    throw new Error('xmllint is required for the DDEX schema tests: apt-get install libxml2-utils');
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ern-'));
  const file = path.join(directory, 'ern.xml');
  try {
    fs.writeFileSync(file, xml);
    const result = spawnSync('xmllint', ['--noout', '--schema', ERN43_SCHEMA_FILE, file], {
      encoding: 'utf8',
    });
    return { status: result.status, report: result.stderr };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/** Checks that `xml` is well-formed XML 1.0 with xmllint (no schema): exit status and report. */
export function checkWellFormed(xml: string): { status: number | null; report: string } {
  const result = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
  return { status: result.status, report: result.stderr };
}
