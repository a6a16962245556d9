/**
 * How bytes reach a target: real SFTP (ssh2-sftp-client, writes pipelined on the raw channel so a
 * stream is not bound by one round trip per chunk, the server's host key checked before any credential
 * is sent), S3 multipart (@aws-sdk/lib-storage), or a local / mounted folder. Paths are relative to the
 * target's root folder, always with `/`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { hostKeyChangedMessage } from '@tunedrop/shared/schemas/delivery';
import SftpClient from 'ssh2-sftp-client';
import type { Config } from '../../config';
import type { TargetSecret } from './targets';

export type RemoteEntry = { name: string; size: number; isDir: boolean };

export interface Transport {
  ensureDir(dir: string): Promise<void>;
  /** Streams the body to `file`; resolves with the bytes written. */
  putStream(file: string, body: Readable): Promise<number>;
  /** Writes small text (an XML message) so a reader never sees it half written (temp name + rename). */
  putText(file: string, text: string): Promise<void>;
  /** Entries of a folder; [] when it does not exist. */
  list(dir: string): Promise<RemoteEntry[]>;
  readText(file: string, maxBytes: number): Promise<string>;
  remove(file: string): Promise<void>;
  /**
   * Whether a folder can be renamed into place in one step (SFTP, a folder: yes; S3: no). When it can, a
   * package is written under a temporary name and renamed when complete (record 154).
   */
  readonly canRenameFolders: boolean;
  /** Renames `from` to `to`; fails when `to` exists. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a folder and everything in it (S3: every object under the prefix); no error when missing. */
  removeTree(dir: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SFTP server answered with another host key than the pinned one: the connection was dropped during
 * the key exchange, before authentication, so no password or key went to it (record 153).
 */
export class HostKeyChangedError extends Error {
  readonly code = 'HOST_KEY_CHANGED';
}

/** How an SFTP connection checks the server: the pinned key, or record the first one seen. */
export type HostKeyPolicy = {
  targetName: string;
  /** `SHA256:…`, or null: trust on first use. */
  expected: string | null;
  /** Records the key seen first and resolves with the pin now in force (another worker may have won). */
  recordFirst: (fingerprint: string) => Promise<string>;
};

/** SHA-256 fingerprint of an SSH public key blob, as OpenSSH prints it (`SHA256:` + unpadded base64). */
export const sshFingerprint = (key: Buffer) =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** A pass-through that counts what flows (a second 'data' listener would race the real reader). */
function byteCounter(): Transform & { bytes: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counter.bytes += chunk.length;
      callback(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

const join = (...parts: string[]) => path.posix.join(...parts.filter((p) => p !== ''));

/** A clear sentence for the admin from a connection or file error. */
export function describeTransportError(error: unknown): string {
  const e = error as { code?: string | number; message?: string; level?: string };
  const message = e?.message ?? String(error);
  if (e?.code === 'HOST_KEY_CHANGED') return message;
  if (e?.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return `Connection refused: ${message}`;
  if (e?.code === 'ENOTFOUND' || /ENOTFOUND|getaddrinfo/.test(message)) return `Host not found: ${message}`;
  if (e?.code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) return `Connection timed out: ${message}`;
  if (e?.level === 'client-authentication' || /authentication/i.test(message))
    return `Login refused (check the user, password or key): ${message}`;
  if (/permission denied|EACCES/i.test(message)) return `Permission denied on the target: ${message}`;
  if (/no space|ENOSPC|quota/i.test(message)) return `The target is full: ${message}`;
  return message;
}

// ------------------------------------------------------------------ file://

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
        if ((error as { code?: string }).code === 'ENOENT') return [];
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

// ------------------------------------------------------------------ sftp://

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
      pending.push(raw as Buffer);
      pendingBytes += (raw as Buffer).length;
      while (pendingBytes >= CHUNK) {
        const all = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
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

export async function sftpTransport(
  secret: TargetSecret,
  options: { timeoutMs?: number; hostKey: HostKeyPolicy },
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
    async readText(file, maxBytes) {
      alive();
      const data = (await client.get(abs(file))) as Buffer;
      return data.subarray(0, maxBytes).toString('utf8');
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
  options: { timeoutMs?: number },
  hostVerifier: (key: Buffer, verify: (isTrusted: boolean) => void) => undefined,
) {
  await client.connect({
    host: url.hostname,
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

// ------------------------------------------------------------------ s3://

export function s3Transport(secret: TargetSecret, config: Config): Transport {
  const url = new URL(secret.url);
  const Bucket = url.hostname;
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  const own = secret.s3 ?? {};
  const client = new S3Client({
    endpoint: own.endpoint ?? config.S3_ENDPOINT,
    region: own.region ?? config.S3_REGION ?? 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: own.accessKeyId ?? config.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: own.secretAccessKey ?? config.S3_SECRET_ACCESS_KEY ?? '',
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const key = (p: string) => join(prefix, p);
  return {
    async ensureDir() {},
    async putStream(file, body) {
      const counter = byteCounter();
      body.on('error', (error) => counter.destroy(error));
      body.pipe(counter);
      await new Upload({
        client,
        params: { Bucket, Key: key(file), Body: counter },
        partSize: 8 * 1024 * 1024,
      }).done();
      return counter.bytes;
    },
    async putText(file, text) {
      await client.send(new PutObjectCommand({ Bucket, Key: key(file), Body: text }));
    },
    async list(dir) {
      const base = `${key(dir)}/`;
      const out: RemoteEntry[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: base, Delimiter: '/', ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          if (item.Key) out.push({ name: item.Key.slice(base.length), size: item.Size ?? 0, isDir: false });
        }
        for (const p of page.CommonPrefixes ?? []) {
          if (p.Prefix)
            out.push({ name: p.Prefix.slice(base.length).replace(/\/$/, ''), size: 0, isDir: true });
        }
        token = page.NextContinuationToken;
      } while (token);
      return out;
    },
    async readText(file, maxBytes) {
      const result = await client.send(new GetObjectCommand({ Bucket, Key: key(file) }));
      const text = await (
        result.Body as Readable & { transformToString(): Promise<string> }
      ).transformToString();
      return text.slice(0, maxBytes);
    },
    async remove(file) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key(file) }));
    },
    // Objects have no folders to rename: each object appears whole when its PUT (or its multipart upload)
    // completes, so the package is written resources first and its message (or manifest) last.
    canRenameFolders: false,
    async rename() {
      throw new Error('S3 targets cannot rename a folder');
    },
    async removeTree(dir) {
      const base = `${key(dir)}/`;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: base, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          if (item.Key) await client.send(new DeleteObjectCommand({ Bucket, Key: item.Key }));
        }
        token = page.NextContinuationToken;
      } while (token);
    },
    async close() {
      client.destroy();
    },
  };
}

export async function openTransport(
  secret: TargetSecret,
  config: Config,
  options: { hostKey: HostKeyPolicy },
): Promise<Transport> {
  const url = new URL(secret.url);
  if (url.protocol === 'sftp:') return sftpTransport(secret, { hostKey: options.hostKey });
  if (url.protocol === 's3:') return s3Transport(secret, config);
  return fileTransport(decodeURIComponent(url.pathname));
}

/** Test connection: connect, make sure the root folder exists and is writable, remove the probe. */
export async function probeTransport(transport: Transport): Promise<void> {
  try {
    const probe = `.tunedrop-probe-${Date.now()}`;
    await transport.putText(probe, 'ok');
    await transport.list('');
    await transport.remove(probe);
  } finally {
    await transport.close();
  }
}

export { Readable };
