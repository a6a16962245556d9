/**
 * A real OpenSSH SFTP server for tests (ARCHITECTURE pitfalls): our own `sshd` on a random loopback
 * port with a temporary host key and user key, never the system service; and a small fake store that
 * reads what was delivered and writes acknowledgements into the release's `acknowledgements/` folder.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { el, renderXml } from '../modules/ddex';

export type SftpServer = {
  port: number;
  user: string;
  /** The folder deliveries land in (the SFTP root used in target URLs). */
  root: string;
  privateKey: string;
  privateKeyFile: string;
  /** The current host key's fingerprint as `ssh-keygen -l` prints it (`SHA256:…`). */
  hostKeyFingerprint: () => string;
  url: (subPath?: string) => string;
  /** What sshd logged so far (LogLevel DEBUG1: every authentication request is a `userauth-request` line). */
  log: () => string;
  /** Kills sshd and every session process it forked (SIGKILL): connections drop mid-transfer. */
  kill: () => void;
  /** Starts sshd again on the same port; `newHostKey` first replaces its host key with a new one. */
  restart: (options?: { newHostKey?: boolean }) => Promise<void>;
  stop: () => Promise<void>;
};

/** A free loopback port: any, or one in `TUNEDROP_TEST_PORTS=from-to` when set (shared test machines). */
export async function freePort(): Promise<number> {
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

async function waitForPort(port: number, timeoutMs: number, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`sshd exited (${child.exitCode}): ${fs.readFileSync(log, 'utf8')}`);
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (isOpen) return;
    if (Date.now() > deadline)
      throw new Error(`sshd did not listen on ${port}: ${fs.readFileSync(log, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const SSHD = '/usr/sbin/sshd';

function generateKey(file: string) {
  fs.rmSync(file, { force: true });
  fs.rmSync(`${file}.pub`, { force: true });
  const result = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  if (result.status !== 0) throw new Error(`ssh-keygen failed: ${result.stderr}`);
}

/** `SHA256:…` of a public key file, as OpenSSH prints it. */
export function fingerprintOf(publicKeyFile: string): string {
  const result = spawnSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKeyFile], { encoding: 'utf8' });
  const match = /SHA256:[A-Za-z0-9+/]+/.exec(result.stdout);
  if (!match) throw new Error(`ssh-keygen -l failed: ${result.stderr}`);
  return match[0];
}

/** Every process below `pid` (sshd forks one or two per connection), deepest last. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  let children: string;
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    return out;
  }
  for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
    out.push(child, ...descendants(child));
  }
  return out;
}

export async function startSftpServer(): Promise<SftpServer> {
  if (!fs.existsSync(SSHD)) throw new Error(`${SSHD} is missing: apt-get install -y openssh-server`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-sshd-'));
  const root = path.join(dir, 'store');
  fs.mkdirSync(root);
  fs.mkdirSync('/run/sshd', { recursive: true });
  const hostKey = path.join(dir, 'host_key');
  generateKey(hostKey);
  generateKey(path.join(dir, 'user_key'));
  fs.copyFileSync(path.join(dir, 'user_key.pub'), path.join(dir, 'authorized_keys'));
  const port = await freePort();
  const user = os.userInfo().username;
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
      'MaxStartups 100',
      'LogLevel DEBUG1',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  const log = path.join(dir, 'sshd.log');
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(SSHD, ['-D', '-f', config, '-E', log], { stdio: 'ignore' });
    await waitForPort(port, 10_000, child, log);
  };
  const kill = () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    for (const pid of [child.pid, ...descendants(child.pid)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    kill();
    await exited;
  };
  await launch();
  const privateKeyFile = path.join(dir, 'user_key');
  return {
    port,
    user,
    root,
    privateKey: fs.readFileSync(privateKeyFile, 'utf8'),
    privateKeyFile,
    hostKeyFingerprint: () => fingerprintOf(`${hostKey}.pub`),
    url: (subPath = '') => `sftp://${user}@127.0.0.1:${port}${path.join(root, subPath)}`,
    log: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''),
    kill,
    async restart(options = {}) {
      await halt();
      if (options.newHostKey) generateKey(hostKey);
      await launch();
    },
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------ the fake store

export type DeliveredPackage = {
  /** Folder relative to the store root, e.g. `N_0614141000012_20261123101500123`. */
  folder: string;
  xmlFile: string;
  xml: string;
  messageId: string;
  resources: string[];
};

/** Reads the store's folder as a DSP would: every release folder whose XML is complete. */
export function readDeliveries(root: string): DeliveredPackage[] {
  const out: DeliveredPackage[] = [];
  const visit = (folder: string) => {
    const abs = path.join(root, folder);
    for (const name of fs.readdirSync(abs)) {
      if (
        name.endsWith('.xml') &&
        !name.startsWith('BatchComplete_') &&
        fs.statSync(path.join(abs, name)).isFile()
      ) {
        const xml = fs.readFileSync(path.join(abs, name), 'utf8');
        const resourcesDir = path.join(abs, 'resources');
        out.push({
          folder,
          xmlFile: path.join(folder, name),
          xml,
          messageId: /<MessageId>([^<]+)<\/MessageId>/.exec(xml)?.[1] ?? '',
          resources: fs.existsSync(resourcesDir) ? fs.readdirSync(resourcesDir).sort() : [],
        });
      }
    }
  };
  for (const top of fs.readdirSync(root).sort()) {
    const abs = path.join(root, top);
    if (!fs.statSync(abs).isDirectory()) continue;
    visit(top);
    for (const sub of fs.readdirSync(abs)) {
      if (
        sub !== 'resources' &&
        sub !== 'acknowledgements' &&
        fs.statSync(path.join(abs, sub)).isDirectory()
      ) {
        visit(path.join(top, sub));
      }
    }
  }
  return out;
}

export function ackXml(options: {
  messageId: string;
  upc?: string | null;
  status?: string;
  releaseStatus?: string;
  errorText?: string;
  /** The store's words in MessageStatus/Information (a rejection's detail). */
  information?: string;
  ackId?: string;
  storeDpid?: string;
  senderDpid?: string;
  createdAt?: string;
}): string {
  const isOk = !options.status || options.status === 'FileOK';
  return renderXml(
    el(
      'ern-c-sftp:AcknowledgementMessage',
      { 'xmlns:ern-c-sftp': 'http://ddex.net/xml/ern-c-sftp/18', AvsVersionId: '4' },
      el(
        'MessageHeader',
        el('MessageId', options.ackId ?? `ACK-${options.messageId}`),
        el('MessageSender', el('PartyId', options.storeDpid ?? 'PADPIDA2009101501Y')),
        el('MessageRecipient', el('PartyId', options.senderDpid ?? 'PADPIDA2013042401U')),
        el('MessageCreatedDateTime', options.createdAt ?? '2026-11-23T10:15:00Z'),
      ),
      el(
        'ReleaseStatus',
        el('ReleaseId', options.upc ? el('ICPN', options.upc) : el('ProprietaryId', { Namespace: 'x' }, 'x')),
        el(
          'ReleaseStatus',
          options.releaseStatus ??
            (isOk ? 'SuccessfullyIngestedByReleaseDistributor' : 'ProcessingErrorAtReleaseDistributor'),
        ),
        options.errorText ? el('ErrorText', options.errorText) : null,
        el(
          'Acknowledgement',
          el('MessageType', 'NewReleaseMessage'),
          el('MessageId', options.messageId),
          el(
            'MessageStatus',
            el('Status', options.status ?? 'FileOK'),
            options.information ? el('Information', options.information) : null,
          ),
        ),
      ),
    ),
  );
}

/** Writes an acknowledgement where the choreography puts it: `<ackFolder>/acknowledgements/ACK_<id>_<time>.xml`. */
export function writeAck(root: string, ackFolder: string, messageId: string, text: string): string {
  const dir = path.join(root, ackFolder, 'acknowledgements');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `ACK_${messageId}_${new Date().toISOString().replace(/[-:TZ.]/g, '')}.xml`);
  fs.writeFileSync(file, text);
  return file;
}

/** The fake store: acknowledges every package not yet acknowledged, accepting or rejecting it. */
export function storeAcknowledgeAll(
  root: string,
  decide: (pkg: DeliveredPackage) => { status?: string; errorText?: string } = () => ({}),
): DeliveredPackage[] {
  const handled: DeliveredPackage[] = [];
  for (const pkg of readDeliveries(root)) {
    const ackFolder = pkg.folder.includes('/') ? (pkg.folder.split('/')[0] as string) : pkg.folder;
    const ackDir = path.join(root, ackFolder, 'acknowledgements');
    if (fs.existsSync(ackDir) && fs.readdirSync(ackDir).some((name) => name.includes(pkg.messageId)))
      continue;
    const upc = /<ICPN>(\d+)<\/ICPN>/.exec(pkg.xml)?.[1] ?? null;
    writeAck(root, ackFolder, pkg.messageId, ackXml({ messageId: pkg.messageId, upc, ...decide(pkg) }));
    handled.push(pkg);
  }
  return handled;
}
