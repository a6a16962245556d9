/**
 * Opens a target's transport with its host key policy (record 153): SFTP checks the server against the
 * pinned key, or records the first key seen; used by the worker, the acknowledgement poll and the
 * admin's Test connection alike, so no path connects without the check.
 */
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { openTarget, recordFirstHostKey, type TargetRow } from './targets';
import { openTransport, type Transport } from './transport';

export function openTargetTransport(db: DbOrTx, config: Config, target: TargetRow): Promise<Transport> {
  return openTransport(openTarget(config, target).secretValue, config, {
    hostKey: {
      targetName: target.name,
      expected: target.hostKeySha256,
      recordFirst: (fingerprint) => recordFirstHostKey(db, target.id, fingerprint),
    },
  });
}
