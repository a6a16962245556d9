/**
 * The files a catalogue source names (record 200): resolved inside the import folder only (no absolute
 * paths, no `..`, no symlink out), size-limited, checked by content like uploads (WAV header, cover
 * pixels) and hashed while streamed when the source gives a hash. Nothing is read whole into memory
 * except the cover (under 10 MB), which sharp decodes anyway.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { LIMITS } from '@tunedrop/shared';
import { CoverError, type CoverInfo, checkCover, readWavHeader, WavError, type WavInfo } from '../catalogue';
import type { SourceFile } from './source';

export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export const IMPORT_FILE_MESSAGES = {
  outside: (name: string) => `The file ${name} is outside the import folder; it is refused.`,
  notRelative: (name: string) => `The file ${name} is not a path inside the import folder; it is refused.`,
  missing: (name: string) => `The file ${name} is not in the folder.`,
  tooLarge: (name: string, limit: string) => `The file ${name} is larger than ${limit}.`,
  flac: (name: string) =>
    `${name} is FLAC: Tunedrop stores and delivers WAV only (the builder's rule); export this release with WAV files.`,
  hashMismatch: (name: string, algorithm: string) =>
    `${name} does not match the ${algorithm.toUpperCase()} the message gives for it (damaged or a different file).`,
} as const;

/** Resolves a source path inside `root` (the import folder), refusing anything that leaves it. */
export async function resolveInside(root: string, base: string, name: string): Promise<string> {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // not percent-encoded: taken as written
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(decoded) || path.isAbsolute(decoded) || decoded.includes('\0'))
    throw new ImportFileError(IMPORT_FILE_MESSAGES.notRelative(name));
  const realRoot = await realpath(root);
  const candidate = path.resolve(base, decoded);
  const isInside = (p: string) => p === realRoot || p.startsWith(`${realRoot}${path.sep}`);
  if (!isInside(candidate)) throw new ImportFileError(IMPORT_FILE_MESSAGES.outside(name));
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    throw new ImportFileError(IMPORT_FILE_MESSAGES.missing(name));
  }
  // A symlink inside the folder may still point outside it.
  if (!isInside(real)) throw new ImportFileError(IMPORT_FILE_MESSAGES.outside(name));
  const info = await stat(real);
  if (!info.isFile()) throw new ImportFileError(IMPORT_FILE_MESSAGES.missing(name));
  return real;
}

/** Streams the file through the hash the source names; refuses a mismatch. */
async function checkHash(filePath: string, file: SourceFile): Promise<void> {
  if (!file.hash) return;
  const hash = createHash(file.hash.algorithm);
  await pipeline(createReadStream(filePath), hash);
  if (hash.digest('hex') !== file.hash.value)
    throw new ImportFileError(IMPORT_FILE_MESSAGES.hashMismatch(file.path, file.hash.algorithm));
}

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${Number((bytes / 1024 ** 3).toFixed(2))} GB`
    : `${Number((bytes / 1024 ** 2).toFixed(2))} MB`;

export type CheckedAudio = { path: string; name: string; sizeBytes: number; wav: WavInfo };
export type CheckedCover = { path: string; name: string; sizeBytes: number; cover: CoverInfo };

export async function checkAudioFile(
  root: string,
  base: string,
  file: SourceFile,
  maxBytes: number,
): Promise<CheckedAudio> {
  const filePath = await resolveInside(root, base, file.path);
  const { size } = await stat(filePath);
  if (size > maxBytes)
    throw new ImportFileError(IMPORT_FILE_MESSAGES.tooLarge(file.path, formatBytes(maxBytes)));
  const handle = await open(filePath, 'r');
  try {
    const magic = Buffer.alloc(4);
    await handle.read(magic, 0, 4, 0);
    if (magic.toString('latin1') === 'fLaC' || file.codec?.toUpperCase() === 'FLAC')
      throw new ImportFileError(IMPORT_FILE_MESSAGES.flac(file.path));
  } finally {
    await handle.close();
  }
  let wav: WavInfo;
  try {
    wav = await readWavHeader(filePath);
  } catch (error) {
    if (error instanceof WavError) throw new ImportFileError(`${file.path}: ${error.message}`);
    throw error;
  }
  await checkHash(filePath, file);
  return { path: filePath, name: path.basename(filePath), sizeBytes: size, wav };
}

export async function checkCoverFile(root: string, base: string, file: SourceFile): Promise<CheckedCover> {
  const filePath = await resolveInside(root, base, file.path);
  const { size } = await stat(filePath);
  if (size >= LIMITS.coverArtMaxBytes)
    throw new ImportFileError(IMPORT_FILE_MESSAGES.tooLarge(file.path, formatBytes(LIMITS.coverArtMaxBytes)));
  await checkHash(filePath, file);
  try {
    return {
      path: filePath,
      name: path.basename(filePath),
      sizeBytes: size,
      cover: await checkCover(filePath),
    };
  } catch (error) {
    if (error instanceof CoverError) throw new ImportFileError(`${file.path}: ${error.message}`);
    throw error;
  }
}
