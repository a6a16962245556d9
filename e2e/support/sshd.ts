/**
 * A store's SFTP server for journeys: our own OpenSSH `sshd` on a loopback port with a temporary host
 * key and user key (never the system service), restartable with a new host key. The server under test
 * runs on this machine as the same user, so it can log in with the user key.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type JourneySshd = {
  url: string;
  privateKey: string;
  /** The current host key's fingerprint as `ssh-keygen -l` prints it (`SHA256:…`). */
  fingerprint: () => string;
  restartWithNewHostKey: () => Promise<void>;
  stop: () => Promise<void>;
};

const keygen = (file: string) => {
  fs.rmSync(file, { force: true });
  fs.rmSync(`${file}.pub`, { force: true });
  spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
};

/** A free loopback port: any, or one in `TUNEDROP_TEST_PORTS=from-to` when set (shared test machines). */
async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TUNEDROP_TEST_PORTS ?? '');
  for (let i = 0; i < 50; i++) {
    const wanted = range
      ? Number(range[1]) + Math.floor(Math.random() * (Number(range[2]) - Number(range[1])))
      : 0;
    const port = await new Promise<number | null>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(null));
      server.listen(wanted, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : null));
      });
    });
    if (port !== null) return port;
  }
  throw new Error('no free port');
}

const isListening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

export async function startSshd(): Promise<JourneySshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-e2e-sshd-'));
  const root = path.join(dir, 'store');
  fs.mkdirSync(root);
  fs.mkdirSync('/run/sshd', { recursive: true });
  const hostKey = path.join(dir, 'host_key');
  keygen(hostKey);
  keygen(path.join(dir, 'user_key'));
  fs.copyFileSync(path.join(dir, 'user_key.pub'), path.join(dir, 'authorized_keys'));
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('/usr/sbin/sshd', ['-D', '-f', config, '-E', path.join(dir, 'sshd.log')], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (!(await isListening(port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('sshd did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();
  return {
    url: `sftp://${os.userInfo().username}@127.0.0.1:${port}${root}`,
    privateKey: fs.readFileSync(path.join(dir, 'user_key'), 'utf8'),
    fingerprint: () =>
      /SHA256:[A-Za-z0-9+/]+/.exec(
        spawnSync('ssh-keygen', ['-l', '-f', `${hostKey}.pub`], { encoding: 'utf8' }).stdout,
      )?.[0] ?? '',
    async restartWithNewHostKey() {
      await halt();
      keygen(hostKey);
      await launch();
    },
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
