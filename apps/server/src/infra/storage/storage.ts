/** Where checked files live: an interface with a local-directory default (S3 adapter beside it). */
import type { Readable } from 'node:stream';

export type StoredObject = { sizeBytes: number };

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Moves (or copies then removes) a local file into storage under `key`. */
  putFile(key: string, localPath: string, contentType?: string): Promise<StoredObject>;
  /**
   * Copies a local file into storage under `key` and leaves the source in place. Atomic at the key:
   * a reader sees the whole file or nothing, and a copy cut short (even by a crash) never shows there.
   */
  copyFile(key: string, localPath: string, contentType?: string): Promise<StoredObject>;
  putBuffer(key: string, body: Buffer, contentType?: string): Promise<StoredObject>;
  /**
   * Writes a stream under `key` as it arrives, with no copy on this machine (record 310): a stream that
   * fails leaves nothing at the key. Only the bucket has it; the local directory takes a file by a rename.
   */
  putStream?(key: string, body: Readable, contentType?: string): Promise<StoredObject>;
  /** The stored object's size in bytes, or null when there is none. */
  sizeOf(key: string): Promise<number | null>;
  /**
   * Removes the temporary files of writes that never finished (a crash mid-copy) older than `before`;
   * answers how many. Only stores that keep such files implement it (the local directory).
   */
  removeStaleTemporaryFiles?(before: Date): Promise<number>;
  /**
   * A new path on the storage's own file system for a file about to be put, so that putFile moves it by a
   * rename instead of reading it again (record 251); named as a write in progress, so one a crash leaves
   * behind is removed by removeStaleTemporaryFiles. Only the local directory has one.
   */
  scratchFile?(): Promise<string>;
  /**
   * The stored object's path on this machine, for a reader that needs a file (the royalty import's parse
   * reads it there, record 251), or null when there is none. Only the local directory has one.
   */
  localPath?(key: string): Promise<string | null>;
  /** Streams the object; rejects with a not-found AppError when it is missing. */
  get(key: string): Promise<{ body: Readable; sizeBytes: number }>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are plain relative paths of safe segments: never absolute, never `..`, never empty segments. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}
