/** Where checked files live: an interface with a local-directory default (S3 adapter beside it). */
import type { Readable } from 'node:stream';

export type StoredObject = { sizeBytes: number };

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Moves (or copies then removes) a local file into storage under `key`. */
  putFile(key: string, localPath: string, contentType?: string): Promise<StoredObject>;
  putBuffer(key: string, body: Buffer, contentType?: string): Promise<StoredObject>;
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
