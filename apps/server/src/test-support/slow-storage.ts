/**
 * Storage whose reads trickle (small chunks with a pause between them), so a test can catch a delivery
 * mid-upload: kill the SFTP server, stop the worker process, or hold the transfer at a gate.
 */
import { Readable } from 'node:stream';
import type { Storage } from '../infra/storage/storage';

export type SlowOptions = {
  chunkBytes?: number;
  delayMs?: number;
  /** Called before each chunk is handed on; the chunk waits for it (a gate the test opens). */
  beforeChunk?: (index: number, key: string) => Promise<void> | void;
  /** Fails the read after this many bytes (a broken read mid-file). */
  failAfterBytes?: number;
};

export function slowStorage(storage: Storage, options: SlowOptions = {}): Storage {
  const chunkBytes = options.chunkBytes ?? 8 * 1024;
  const delayMs = options.delayMs ?? 20;
  const slow = Object.create(storage) as Storage;
  slow.get = async (key) => {
    const { body, sizeBytes } = await storage.get(key);
    async function* trickle() {
      let index = 0;
      let sent = 0;
      for await (const raw of body) {
        const buffer = raw as Buffer;
        for (let offset = 0; offset < buffer.length; offset += chunkBytes) {
          await options.beforeChunk?.(index, key);
          index += 1;
          if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
          const piece = buffer.subarray(offset, offset + chunkBytes);
          sent += piece.length;
          if (options.failAfterBytes !== undefined && sent > options.failAfterBytes)
            throw new Error('storage read failed mid-file');
          yield piece;
        }
      }
    }
    return { body: Readable.from(trickle(), { objectMode: false, highWaterMark: chunkBytes }), sizeBytes };
  };
  return slow;
}
