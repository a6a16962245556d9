/**
 * SFTP targets (ssh2-sftp-client): writes pipelined on the raw channel so a stream is not bound by one
 * round trip per chunk, and the server's host key checked before any credential is sent (record 153).
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import { hostKeyChangedMessage } from '@tunedrop/shared/schemas/delivery';
import SftpClient from 'ssh2-sftp-client';
import type { TargetSecret } from './targets';
import {
  HostKeyChangedError,
  type HostKeyPolicy,
  join,
  sshFingerprint,
  type Transport,
  UnreadableFileError,
} from './transport';

type RawSftp = {
  open(p: string, flags: string, cb: (err: Error | undefined, handle: Buffer) => void): void;
  write(h: Buffer, b: Buffer, o: number, l: number, pos: number, cb: (err?: Error) => void): void;
  close(h: Buffer, cb: (err?: Error) => void): void;
  /** OpenSSH's statvfs@openssh.com extension (absent on servers without it). */
  ext_openssh_statvfs?(
    p: string,
    cb: (err: Error | undefined, stats: { frsize: number; bavail: number }) => void,
  ): void;
  _maxWriteLen?: number;
};

/**
 * SFTP answers a write to a full disk with the generic SSH_FX_FAILURE ("Failure"); the free space of the
 * folder tells the admin what actually happened.
 */
async function explainWriteFailure(sftp: RawSftp, remote: string, error: unknown): Promise<unknown> {
  if (!(error instanceof Error) || !/^Failure$/i.test(error.message.trim()) || !sftp.ext_openssh_statvfs)
    return error;
  const free = await new Promise<number | null>((resolve) =>
    sftp.ext_openssh_statvfs?.(path.posix.dirname(remote), (err, stats) =>
      resolve(err ? null : stats.frsize * stats.bavail),
    ),
  );
  if (free === null || free > 1024 * 1024) return error;
  return new Error(`No space left on the target (${free} bytes free in ${path.posix.dirname(remote)})`);
}

/** Writes a stream with up to `depth` SFTP write requests in flight (ssh2's own stream waits for each). */
async function pipelinedPut(
  sftp: RawSftp,
  remote: string,
  body: Readable,
  connection: { lost: Promise<void>; isLost: () => boolean },
  depth = 8,
): Promise<number> {
  const { lost } = connection;
  const gone = () => new Error('The connection to the SFTP server was lost');
  const handle = await new Promise<Buffer>((resolve, reject) =>
    sftp.open(remote, 'w', (err, h) => (err ? reject(err) : resolve(h))),
  );
  let position = 0;
  let inFlight = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const settle = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  // As large as the server takes in one request (OpenSSH: ~256 KB), so ssh2 never splits a write serially.
  const CHUNK = Math.max(32 * 1024, Math.min(sftp._maxWriteLen ?? 32 * 1024, 255 * 1024));
  // Requests made after the connection dropped are never answered: every wait also ends when it drops.
  const waitForSlot = () => Promise.race([new Promise<void>((r) => (wake = r)), lost]);
  const send = async (piece: Buffer) => {
    if (failure) throw failure;
    while (inFlight >= depth && !connection.isLost()) await waitForSlot();
    if (connection.isLost()) throw gone();
    if (failure) throw failure;
    inFlight += 1;
    sftp.write(handle, piece, 0, piece.length, position, (err) => {
      inFlight -= 1;
      if (err && !failure) failure = err;
      settle();
    });
    position += piece.length;
  };
  try {
    // Small stream chunks (64 KB from a file) are gathered into full-size requests.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const raw of body) {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= CHUNK) {
        const [first] = pending;
        const all = pending.length === 1 && first ? first : Buffer.concat(pending, pendingBytes);
        await send(all.subarray(0, CHUNK));
        const rest = all.subarray(CHUNK);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
      }
    }
    if (pendingBytes > 0) await send(Buffer.concat(pending, pendingBytes));
    while (inFlight > 0 && !connection.isLost()) await waitForSlot();
    if (failure) throw failure;
    if (connection.isLost()) throw gone();
  } finally {
    // A request on a connection that is gone is never answered (ssh2 only fails those already sent).
    await Promise.race([new Promise<void>((resolve) => sftp.close(handle, () => resolve())), lost]);
    body.destroy();
  }
  return position;
}

/**
 * Reads a stream to its end. ssh2's read stream closes its remote handle after its last chunk, and when
 * the connection drops before the server answers that close, it emits 'error' ("No response from
 * server") after the end, with nobody reading any more: without a listener, Node ends the whole process.
 * An error after the end changes nothing that was read, so it is ignored.
 */
export function readStreamFully(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let isSettled = false;
    stream.on('data', (chunk: Buffer | string) => {
      const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      chunks.push(piece);
      total += piece.length;
    });
    stream.once('end', () => {
      isSettled = true;
      resolve(Buffer.concat(chunks, total));
    });
    stream.on('error', (error: Error) => {
      if (isSettled) return;
      isSettled = true;
      reject(error);
    });
  });
}

export async function sftpTransport(
  secret: TargetSecret,
  /** `address`: where to connect, the host's address the address rules checked (record 227). */
  options: { timeoutMs?: number; hostKey: HostKeyPolicy; address?: string },
): Promise<Transport> {
  const url = new URL(secret.url);
  const root = decodeURIComponent(url.pathname) || '.';
  const port = url.port ? Number(url.port) : 22;
  // Its default listeners print to the console; errors reach us through the rejected calls instead.
  const client = new SftpClient('tunedrop-delivery', {
    error: () => undefined,
    end: () => undefined,
    close: () => undefined,
  });
  let refusal: Error | null = null;
  // ssh2 calls this during the key exchange, before the user-auth service is even requested: answering
  // false drops the connection with no password or key sent.
  const hostVerifier = (key: Buffer, verify: (isTrusted: boolean) => void): undefined => {
    const received = sshFingerprint(key);
    const decide = (expected: string) => {
      if (expected === received) return verify(true);
      refusal = new HostKeyChangedError(
        hostKeyChangedMessage({
          host: port === 22 ? url.hostname : `${url.hostname}:${port}`,
          targetName: options.hostKey.targetName,
          expected,
          received,
        }),
      );
      verify(false);
    };
    if (options.hostKey.expected) decide(options.hostKey.expected);
    else
      options.hostKey.recordFirst(received).then(decide, (error: unknown) => {
        refusal = error instanceof Error ? error : new Error(String(error));
        verify(false);
      });
    return undefined;
  };
  try {
    await connectSftp(client, url, port, secret, options, hostVerifier);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw refusal ?? error;
  }
  // biome-ignore lint/suspicious/noExplicitAny: ssh2-sftp-client keeps the raw SFTPWrapper untyped on `sftp`
  const raw = (client as any).sftp as RawSftp;
  // ssh2-sftp-client keeps its SFTP session after the connection dropped, and a request made on it then
  // waits forever: every call checks first, and a transfer in progress gives up when it closes.
  let isLost = false;
  const lost = new Promise<void>((resolve) =>
    // biome-ignore lint/suspicious/noExplicitAny: the underlying ssh2 Client is untyped on `client`
    (client as any).client.once('close', () => {
      isLost = true;
      resolve();
    }),
  );
  const alive = () => {
    if (isLost) throw new Error(`The connection to ${url.hostname} was lost`);
  };
  const abs = (p: string) => join(root, p);
  return {
    async ensureDir(dir) {
      alive();
      const target = abs(dir);
      if ((await client.exists(target)) !== 'd') await client.mkdir(target, true);
    },
    async putStream(file, body) {
      alive();
      try {
        return await pipelinedPut(raw, abs(file), body, { lost, isLost: () => isLost });
      } catch (error) {
        throw await explainWriteFailure(raw, abs(file), error);
      }
    },
    async putText(file, text) {
      alive();
      const tmp = `${abs(file)}.part`;
      await client.put(Buffer.from(text, 'utf8'), tmp);
      await client.rename(tmp, abs(file));
    },
    async list(dir) {
      alive();
      const target = abs(dir);
      if ((await client.exists(target)) !== 'd') return [];
      const entries = await client.list(target);
      return entries.map((entry) => ({ name: entry.name, size: entry.size, isDir: entry.type === 'd' }));
    },
    async readBytes(file, maxBytes) {
      alive();
      // The store's server resolves its own links, within its own disk: only the kind and size matter here.
      const stats = await client.stat(abs(file));
      const name = path.posix.basename(file);
      if (!stats.isFile) throw new UnreadableFileError(`${name} is not a regular file; it was not read.`);
      if (stats.size > maxBytes)
        throw new UnreadableFileError(
          `${name} is ${stats.size} bytes, over the limit of ${maxBytes}; it was not read.`,
        );
      // At most one byte more than the limit is read, whatever the file grew to since.
      const read = await readStreamFully(
        client.createReadStream(abs(file), { start: 0, end: maxBytes }) as Readable,
      );
      if (read.length > maxBytes)
        throw new UnreadableFileError(`${name} grew over the limit of ${maxBytes} bytes.`);
      return read;
    },
    async remove(file) {
      alive();
      await client.delete(abs(file), true);
    },
    canRenameFolders: true,
    async rename(from, to) {
      // SSH_FXP_RENAME: OpenSSH refuses when the new name exists (never merges into another package).
      alive();
      await client.rename(abs(from), abs(to));
    },
    async removeTree(dir) {
      alive();
      const target = abs(dir);
      if ((await client.exists(target)) === 'd') await client.rmdir(target, true);
    },
    async close() {
      if (isLost) return;
      await client.end().catch(() => undefined);
    },
  };
}

async function connectSftp(
  client: SftpClient,
  url: URL,
  port: number,
  secret: TargetSecret,
  options: { timeoutMs?: number; address?: string },
  hostVerifier: (key: Buffer, verify: (isTrusted: boolean) => void) => undefined,
) {
  await client.connect({
    host: options.address ?? url.hostname,
    port,
    hostVerifier,
    username: decodeURIComponent(url.username),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(secret.privateKey ? { privateKey: secret.privateKey } : {}),
    readyTimeout: options.timeoutMs ?? 15_000,
    // AES-GCM first: node's native crypto; ssh2's chacha20-poly1305 (the OpenSSH default) runs in JS here.
    algorithms: {
      cipher: [
        'aes128-gcm@openssh.com',
        'aes256-gcm@openssh.com',
        'aes128-ctr',
        'aes256-ctr',
        'chacha20-poly1305@openssh.com',
      ],
    },
    retries: 0,
  });
}
