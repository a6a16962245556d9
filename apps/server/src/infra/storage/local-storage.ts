/** Storage in a local directory ($DATA_DIR/storage). Writes land in a temp file first, then rename. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { notFound } from '../../lib/errors';
import { assertSafeKey, type Storage, type StoredObject } from './storage';

export function createLocalStorage(root: string): Storage {
  const base = path.resolve(root);
  fs.mkdirSync(base, { recursive: true });

  const resolve = (key: string) => {
    assertSafeKey(key);
    const full = path.resolve(base, key);
    if (!full.startsWith(base + path.sep)) throw new Error(`Unsafe storage key: ${key}`);
    return full;
  };

  const commit = async (tmp: string, target: string): Promise<StoredObject> => {
    await fsp.rename(tmp, target);
    const stat = await fsp.stat(target);
    return { sizeBytes: stat.size };
  };

  return {
    kind: 'local',
    async putFile(key, localPath) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${randomUUID()}.tmp`;
      try {
        await fsp.rename(localPath, tmp);
      } catch (error) {
        // Another file system: copy, then remove the source.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await pipeline(fs.createReadStream(localPath), fs.createWriteStream(tmp));
        await fsp.rm(localPath, { force: true });
      }
      return commit(tmp, target);
    },
    async putBuffer(key, body) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${randomUUID()}.tmp`;
      await fsp.writeFile(tmp, body);
      return commit(tmp, target);
    },
    async get(key) {
      const target = resolve(key);
      const stat = await fsp.stat(target).catch(() => null);
      if (!stat?.isFile()) throw notFound('File not found');
      return { body: fs.createReadStream(target), sizeBytes: stat.size };
    },
    async exists(key) {
      const stat = await fsp.stat(resolve(key)).catch(() => null);
      return Boolean(stat?.isFile());
    },
    async delete(key) {
      await fsp.rm(resolve(key), { force: true });
    },
  };
}
