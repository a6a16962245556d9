/**
 * A store's SFTP server for journeys: the server tests' own OpenSSH `sshd` (test-support/sftp.ts) on a
 * loopback port with a temporary host key and user key (never the system service), restartable with a
 * new host key. The server under test runs on this machine as the same user, so it can log in with the
 * user key.
 */
import { startSftpServer } from '../../apps/server/src/test-support/sftp';

export type JourneySshd = {
  url: string;
  privateKey: string;
  /** The current host key's fingerprint as `ssh-keygen -l` prints it (`SHA256:…`). */
  fingerprint: () => string;
  restartWithNewHostKey: () => Promise<void>;
  stop: () => Promise<void>;
};

export async function startSshd(): Promise<JourneySshd> {
  const server = await startSftpServer();
  return {
    url: server.url(),
    privateKey: server.privateKey,
    fingerprint: server.hostKeyFingerprint,
    restartWithNewHostKey: () => server.restart({ newHostKey: true }),
    stop: server.stop,
  };
}
