/** A local or mounted folder as a delivery target (`file://`), for tests and stores reached by a share. */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { byteCounter, errorField, type Transport } from './transport';

export function fileTransport(root: string): Transport {
  const abs = (p: string) => path.join(root, p);
  return {
    async ensureDir(dir) {
      await fsp.mkdir(abs(dir), { recursive: true });
    },
    async putStream(file, body) {
      const counter = byteCounter();
      await pipeline(body, counter, fs.createWriteStream(abs(file)));
      return counter.bytes;
    },
    async putText(file, text) {
      const tmp = `${abs(file)}.part`;
      await fsp.writeFile(tmp, text);
      await fsp.rename(tmp, abs(file));
    },
    async list(dir) {
      try {
        const entries = await fsp.readdir(abs(dir), { withFileTypes: true });
        return Promise.all(
          entries.map(async (entry) => ({
            name: entry.name,
            isDir: entry.isDirectory(),
            size: entry.isFile() ? (await fsp.stat(path.join(abs(dir), entry.name))).size : 0,
          })),
        );
      } catch (error) {
        if (errorField(error, 'code') === 'ENOENT') return [];
        throw error;
      }
    },
    async readText(file, maxBytes) {
      const handle = await fsp.open(abs(file), 'r');
      try {
        const buffer = Buffer.alloc(maxBytes);
        const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    },
    async remove(file) {
      await fsp.rm(abs(file), { force: true });
    },
    canRenameFolders: true,
    async rename(from, to) {
      // fs.rename would replace an empty folder of that name; refuse like SFTP does.
      if (
        await fsp.stat(abs(to)).then(
          () => true,
          () => false,
        )
      )
        throw new Error(`${to} already exists`);
      await fsp.rename(abs(from), abs(to));
    },
    async removeTree(dir) {
      await fsp.rm(abs(dir), { recursive: true, force: true });
    },
    async close() {},
  };
}
