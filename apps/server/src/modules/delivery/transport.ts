/**
 * How bytes reach a target, whatever it is: the `Transport` a package is written through (paths relative
 * to the target's root folder, always with `/`), the SFTP host-key policy (record 153), and the admin's
 * sentence for a failure. The transports are `transport-sftp.ts`, `transport-s3.ts` and
 * `transport-folder.ts`; `connect.ts` opens the one a target's URL names.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';

export type RemoteEntry = { name: string; size: number; isDir: boolean };

export interface Transport {
  ensureDir(dir: string): Promise<void>;
  /** Streams the body to `file`; resolves with the bytes written. */
  putStream(file: string, body: Readable): Promise<number>;
  /** Writes small text (an XML message) so a reader never sees it half written (temp name + rename). */
  putText(file: string, text: string): Promise<void>;
  /** Entries of a folder; [] when it does not exist. */
  list(dir: string): Promise<RemoteEntry[]>;
  /**
   * The bytes of a regular file of at most `maxBytes` (an acknowledgement); anything else (a link out of the
   * folder, a device, a larger file) is refused with an `UnreadableFileError` saying why (record 226).
   */
  readBytes(file: string, maxBytes: number): Promise<Buffer>;
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

/** A file the transport would not read, with the reason the admin is shown (record 226). */
export class UnreadableFileError extends Error {
  readonly code = 'UNREADABLE_FILE';
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
export class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

export const byteCounter = () => new ByteCounter();

/** A property of whatever was thrown (node, ssh2 and the AWS SDK put `code`, `level`, `cause` on errors). */
export const errorField = (error: unknown, name: string): unknown =>
  typeof error === 'object' && error !== null && name in error ? Reflect.get(error, name) : undefined;

export const join = (...parts: string[]) => path.posix.join(...parts.filter((p) => p !== ''));

/** A clear sentence for the admin from a connection or file error. */
export function describeTransportError(error: unknown): string {
  const code = errorField(error, 'code');
  const text = errorField(error, 'message');
  const message = typeof text === 'string' ? text : String(error);
  if (code === 'HOST_KEY_CHANGED' || code === 'TARGET_ADDRESS_REFUSED') return message;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return `Connection refused: ${message}`;
  if (code === 'ENOTFOUND' || /ENOTFOUND|getaddrinfo/.test(message)) return `Host not found: ${message}`;
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) return `Connection timed out: ${message}`;
  if (errorField(error, 'level') === 'client-authentication' || /authentication/i.test(message))
    return `Login refused (check the user, password or key): ${message}`;
  if (/permission denied|EACCES/i.test(message)) return `Permission denied on the target: ${message}`;
  if (/no space|ENOSPC|quota/i.test(message)) return `The target is full: ${message}`;
  return message;
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
