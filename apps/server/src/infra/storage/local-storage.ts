/**
 * Storage in a local directory ($DATA_DIR/storage). Writes land in a temp file first, then rename; the
 * clean-up job removes temp files a crash left behind (removeStaleTemporaryFiles).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { errorCode } from '../../lib/error-fields';
import { notFound } from '../../lib/errors';
import { assertSafeKey, type Storage, type StoredObject } from './storage';

/** `<name>.<uuid>.tmp`: a write in progress, or one a crash cut short. */
const TEMPORARY_FILE = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

export function createLocalStorage(root: string): Storage {
  const base = path.resolve(root);
  // Private to the server's user whatever the umask (decision 141).
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });

  const resolve = (key: string) => {
    assertSafeKey(key);
    const full = path.resolve(base, key);
    if (!full.startsWith(base + path.sep)) throw new Error(`Unsafe storage key: ${key}`);
    return full;
  };

  const commit = async (tmp: string, target: string): Promise<StoredObject> => {
    // A file moved in (a tus upload) keeps the mode it was made with.
    await fsp.chmod(tmp, 0o600);
    await fsp.rename(tmp, target);
    const stat = await fsp.stat(target);
    return { sizeBytes: stat.size };
  };

  return {
    kind: 'local',
    async putFile(key, localPath) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const tmp = `${target}.${randomUUID()}.tmp`;
      try {
        await fsp.rename(localPath, tmp);
      } catch (error) {
        // Another file system: copy, then remove the source.
        if (errorCode(error) !== 'EXDEV') throw error;
        await pipeline(fs.createReadStream(localPath), fs.createWriteStream(tmp, { mode: 0o600 }));
        await fsp.rm(localPath, { force: true });
      }
      return commit(tmp, target);
    },
    async copyFile(key, localPath) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const tmp = `${target}.${randomUUID()}.tmp`;
      try {
        // A second name for the same bytes: instant, and the source stays where it was.
        await fsp.link(localPath, tmp);
      } catch (error) {
        // Another file system (or one without hard links): copy the bytes.
        const code = errorCode(error);
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
        try {
          await pipeline(fs.createReadStream(localPath), fs.createWriteStream(tmp, { mode: 0o600 }));
        } catch (copyError) {
          await fsp.rm(tmp, { force: true });
          throw copyError;
        }
      }
      return commit(tmp, target);
    },
    async putBuffer(key, body) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const tmp = `${target}.${randomUUID()}.tmp`;
      await fsp.writeFile(tmp, body, { mode: 0o600 });
      return commit(tmp, target);
    },
    async scratchFile() {
      // `.scratch` is no key (a key's segments never start with a dot).
      const dir = path.join(base, '.scratch');
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      return path.join(dir, `upload.${randomUUID()}.tmp`);
    },
    async localPath(key) {
      const target = resolve(key);
      const stat = await fsp.stat(target).catch(() => null);
      return stat?.isFile() ? target : null;
    },
    async get(key) {
      const target = resolve(key);
      const stat = await fsp.stat(target).catch(() => null);
      if (!stat?.isFile()) throw notFound('File not found');
      return { body: fs.createReadStream(target), sizeBytes: stat.size };
    },
    async sizeOf(key) {
      const stat = await fsp.stat(resolve(key)).catch(() => null);
      return stat?.isFile() ? stat.size : null;
    },
    async removeStaleTemporaryFiles(before) {
      const entries = await fsp.readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
      let removed = 0;
      for (const entry of entries) {
        if (!entry.isFile() || !TEMPORARY_FILE.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const stat = await fsp.stat(file).catch(() => null);
        if (!stat || stat.mtime >= before) continue;
        await fsp.rm(file, { force: true });
        removed += 1;
      }
      return removed;
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
