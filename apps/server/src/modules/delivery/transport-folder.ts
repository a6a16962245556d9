/**
 * A local or mounted folder as a delivery target (`file://`), for tests and stores reached by a share.
 * The store writes into this folder too, so nothing in it is trusted (record 226): no path is followed
 * out of the folder through a link (every folder used is resolved and must stay inside the target's real
 * folder; files are opened with O_NOFOLLOW and checked again through the descriptor), and only regular
 * files under the caller's size cap are read.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { byteCounter, errorField, type Transport, UnreadableFileError } from './transport';

const { O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_TRUNC, O_WRONLY } = fs.constants;

/** Whether `inner` is `outer` or inside it (both absolute and resolved). */
export const isInside = (outer: string, inner: string) => {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** The real path of `p`, or of its nearest existing ancestor joined with the rest (a folder not made yet). */
export async function realPathOrAncestor(p: string): Promise<string> {
  try {
    return await fsp.realpath(p);
  } catch (error) {
    if (errorField(error, 'code') !== 'ENOENT') throw error;
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(await realPathOrAncestor(parent), path.basename(p));
  }
}

export function fileTransport(root: string): Transport {
  const abs = (p: string) => path.join(root, p);
  let realRoot: string | null = null;
  const outside = (p: string) =>
    new UnreadableFileError(`${p} leads out of the target's folder through a link; it was not used.`);
  /** `p` resolved (through the links of its folders): refused unless it stays inside the target's folder. */
  const contained = async (p: string): Promise<string> => {
    realRoot ??= await fsp.realpath(root);
    const real = await realPathOrAncestor(abs(p));
    if (!isInside(realRoot, real)) throw outside(p);
    return real;
  };
  /** The folder of `p` resolved and contained, and `p`'s own name in it (never itself resolved). */
  const inFolder = async (p: string) => path.join(await contained(path.dirname(p)), path.basename(p));
  /** Where an open descriptor really is (Linux): catches a folder swapped for a link after the check. */
  const checkDescriptor = async (fd: number, p: string) => {
    const real = await fsp.readlink(`/proc/self/fd/${fd}`).catch(() => null);
    if (real !== null && realRoot && !isInside(realRoot, real)) throw outside(p);
  };
  return {
    async ensureDir(dir) {
      await fsp.mkdir(await contained(dir), { recursive: true });
      await contained(dir);
    },
    async putStream(file, body) {
      const handle = await fsp.open(await inFolder(file), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o644);
      try {
        await checkDescriptor(handle.fd, file);
      } catch (error) {
        await handle.close();
        throw error;
      }
      const counter = byteCounter();
      // The stream closes the handle when it finishes or fails.
      await pipeline(body, counter, handle.createWriteStream());
      return counter.bytes;
    },
    async putText(file, text) {
      const target = await inFolder(file);
      const tmp = `${target}.part`;
      const handle = await fsp.open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o644);
      try {
        await checkDescriptor(handle.fd, file);
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      await fsp.rename(tmp, target);
    },
    async list(dir) {
      let folder: string;
      try {
        folder = await contained(dir);
        const entries = await fsp.readdir(folder, { withFileTypes: true });
        // lstat: a link is listed as what it is (neither a folder nor a regular file), never followed.
        return Promise.all(
          entries.map(async (entry) => {
            const stats = await fsp.lstat(path.join(folder, entry.name)).catch(() => null);
            return {
              name: entry.name,
              isDir: stats?.isDirectory() ?? false,
              size: stats?.isFile() ? stats.size : 0,
            };
          }),
        );
      } catch (error) {
        if (errorField(error, 'code') === 'ENOENT') return [];
        throw error;
      }
    },
    async readBytes(file, maxBytes) {
      let handle: fsp.FileHandle;
      try {
        // O_NONBLOCK: a FIFO planted in the folder must not hang the read.
        handle = await fsp.open(await inFolder(file), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      } catch (error) {
        const code = errorField(error, 'code');
        if (code === 'ELOOP' || code === 'EMLINK')
          throw new UnreadableFileError(`${path.basename(file)} is a link, not a file; it was not read.`);
        throw error;
      }
      try {
        await checkDescriptor(handle.fd, file);
        const stats = await handle.stat();
        if (!stats.isFile()) throw new UnreadableFileError(`${path.basename(file)} is not a regular file.`);
        if (stats.size > maxBytes)
          throw new UnreadableFileError(
            `${path.basename(file)} is ${stats.size} bytes, over the limit of ${maxBytes}; it was not read.`,
          );
        const buffer = Buffer.alloc(maxBytes + 1);
        const { bytesRead } = await handle.read(buffer, 0, maxBytes + 1, 0);
        if (bytesRead > maxBytes)
          throw new UnreadableFileError(`${path.basename(file)} grew over the limit of ${maxBytes} bytes.`);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async remove(file) {
      // rm of a link removes the link, never what it points at.
      await fsp.rm(await inFolder(file), { force: true });
    },
    canRenameFolders: true,
    async rename(from, to) {
      const source = await inFolder(from);
      const destination = await inFolder(to);
      // fs.rename would replace an empty folder of that name; refuse like SFTP does.
      if (
        await fsp.lstat(destination).then(
          () => true,
          () => false,
        )
      )
        throw new Error(`${to} already exists`);
      await fsp.rename(source, destination);
    },
    async removeTree(dir) {
      // rm -r unlinks the links it meets inside; the folder itself must be inside the target's folder.
      await fsp.rm(await inFolder(dir), { recursive: true, force: true });
    },
    async close() {},
  };
}
