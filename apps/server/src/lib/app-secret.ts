/**
 * The generated secret used when APP_SECRET is unset (decision 141): `DATA_DIR/app-secret`, 32 random
 * bytes, mode 0600. Created atomically (written to a private temporary file, then hard-linked to its
 * name, which fails if it exists), so two processes starting together end up reading the same one.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorCode, errorMessage } from './error-fields';

export const APP_SECRET_FILE = 'app-secret';
const MIN_LENGTH = 32;

export const appSecretFile = (dataDir: string) => path.join(dataDir, APP_SECRET_FILE);

function readSecret(file: string, toError: (message: string) => Error): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw toError(`APP_SECRET: cannot read ${file} (${errorMessage(error)})`);
  }
  const secret = text.trim();
  if (secret.length < MIN_LENGTH) {
    throw toError(
      `APP_SECRET: ${file} is damaged (fewer than ${MIN_LENGTH} characters); restore it from a backup, or delete it to generate a new one (which signs everyone out and makes stored payment details unreadable)`,
    );
  }
  return secret;
}

/** Reads the generated secret, creating it when missing and `mayCreate`; errors are made by `toError`. */
export function readOrCreateAppSecret(
  dataDir: string,
  options: { mayCreate: boolean },
  toError: (message: string) => Error,
): string {
  const file = appSecretFile(dataDir);
  const existing = readSecret(file, toError);
  if (existing !== null) return existing;
  if (!options.mayCreate) {
    throw toError(
      `APP_SECRET: not set, and ${file} does not exist; run with the server's APP_SECRET, or with the DATA_DIR of a server that has started once`,
    );
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temp = path.join(dataDir, `.${APP_SECRET_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeSync(fd, `${randomBytes(32).toString('base64url')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    // Another process created it first: use theirs.
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const created = readSecret(file, toError);
  if (created === null) throw toError(`APP_SECRET: ${file} vanished while it was being created`);
  return created;
}
