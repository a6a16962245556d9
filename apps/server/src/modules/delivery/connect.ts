/**
 * Opens a target's transport with its host key policy (record 153): SFTP checks the server against the
 * pinned key, or records the first key seen; used by the worker, the acknowledgement poll and the
 * admin's Test connection alike, so no path connects without the check, nor past the address rules (record 227).
 */
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { allowedAddresses, checkTargetFolder, guardedLookup } from './target-address';
import { openTarget, recordFirstHostKey, type TargetRow, type TargetSecret } from './targets';
import type { HostKeyPolicy, Transport } from './transport';
import { fileTransport } from './transport-folder';
import { s3Transport } from './transport-s3';
import { sftpTransport } from './transport-sftp';

export function openTargetTransport(db: DbOrTx, config: Config, target: TargetRow): Promise<Transport> {
  return openTransport(openTarget(config, target).secretValue, config, {
    hostKey: {
      targetName: target.name,
      expected: target.hostKeySha256,
      recordFirst: (fingerprint) => recordFirstHostKey(db, target.id, fingerprint),
    },
  });
}

/** The transport a target URL names: `sftp://`, `s3://`, else a folder. */
export async function openTransport(
  secret: TargetSecret,
  config: Config,
  options: { hostKey: HostKeyPolicy },
): Promise<Transport> {
  // The address rules at every connection (record 227): the folder under the root, the host's addresses
  // as they resolve now; SFTP connects to the address checked, S3 resolves through the same check.
  const url = new URL(secret.url);
  if (url.protocol === 'sftp:') {
    const [address] = await allowedAddresses(config, url.hostname);
    return sftpTransport(secret, { hostKey: options.hostKey, address });
  }
  if (url.protocol === 's3:') {
    if (secret.s3?.endpoint) await allowedAddresses(config, new URL(secret.s3.endpoint).hostname);
    return s3Transport(secret, config, guardedLookup(config));
  }
  return fileTransport(await checkTargetFolder(config, secret.url));
}
