/**
 * The server's CLI socket in-process: commands from the one registry run on the server's database and
 * answer what the CLI prints; file paths are made absolute on the CLI side; bad requests get a clear
 * non-zero answer; only the owner can open it; closing lets a command in flight finish and answer.
 * Issue 22, finding 11: neither end uses a run/ folder another user owns or may write into, a request
 * without the server's token is refused, idle connections are closed and their number is capped.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliCommands } from './cli-commands';
import { parseCliArgs } from './cli-run';
import {
  type CliSocket,
  CliSocketError,
  cliSocketFile,
  cliTokenFile,
  sendCliRequest,
  startCliSocket,
} from './cli-socket';
import { createLogger } from './lib/logger';
import { createTestSystem, type TestSystem } from './test-support/harness';

let system: TestSystem;
let socket: CliSocket;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-socket-'));

/** test:slow tells when it runs and finishes only when the test lets it (no fixed wait). */
const slow = (() => {
  let isRunning = () => {};
  let letFinish = () => {};
  const running = new Promise<void>((resolve) => {
    isRunning = resolve;
  });
  const mayFinish = new Promise<void>((resolve) => {
    letFinish = resolve;
  });
  return { running, isRunning: () => isRunning(), mayFinish, letFinish: () => letFinish() };
})();

beforeAll(async () => {
  system = await createTestSystem();
  // Commands defined only for this test, registered like any module's.
  cliCommands['test:read-file'] = {
    usage: 'FILE [--copy-to FILE]',
    options: { 'copy-to': { type: 'string' } },
    paths: { positionals: [0], options: ['copy-to'] },
    async run(_system, [file], flags) {
      return `${file} ${String(flags['copy-to'])} ${fs.readFileSync(file as string, 'utf8')}`;
    },
  };
  cliCommands['test:slow'] = {
    usage: '',
    async run() {
      slow.isRunning();
      await slow.mayFinish;
      return 'slow done';
    },
  };
  const started = await startCliSocket(system, dataDir, createLogger('silent'));
  if (!started) throw new Error('socket not started');
  socket = started;
});
afterAll(async () => {
  delete cliCommands['test:read-file'];
  delete cliCommands['test:slow'];
  await socket.close().catch(() => undefined);
  await system.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Parses argv as the CLI does (from `cwd`) and hands it to the server. */
async function handOver(argv: string[], cwd = process.cwd()) {
  const parsed = parseCliArgs(argv, cwd);
  if ('result' in parsed) return parsed.result;
  return sendCliRequest(dataDir, parsed.request);
}

function rawRequest(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = net.connect(cliSocketFile(dataDir));
    let answer = '';
    client.on('connect', () => client.write(line));
    client.on('data', (chunk) => {
      answer += chunk;
    });
    client.on('end', () => resolve(answer));
    client.on('error', reject);
  });
}

describe('CLI socket', () => {
  it('is reachable only by the owner: the directory is 0700 and the socket 0600', () => {
    expect(fs.statSync(path.dirname(socket.path)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(socket.path).mode & 0o777).toBe(0o600);
    expect(fs.statSync(socket.path).isSocket()).toBe(true);
  });

  it('runs a registry command on the server database and answers what to print', async () => {
    const user = await system.signedInUser({ plan: 'basic' });
    expect(await handOver(['balance:set', user.email, '7.50'])).toEqual({
      exitCode: 0,
      stdout: `Balance of ${user.email}: $0.00 -> $7.50`,
      stderr: '',
    });
    const wallet = await system.request('/api/wallet', { cookie: user.cookie });
    expect(((await wallet.json()) as { balanceCents: number }).balanceCents).toBe(750);
    expect(await handOver(['role:grant', user.email, 'emperor'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'Error: role must be one of admin, moderator, free_access',
    });
  });

  it('makes file path arguments absolute on the CLI side, so the server reads the file the user named', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-cwd-'));
    fs.mkdirSync(path.join(cwd, 'reports'));
    fs.writeFileSync(path.join(cwd, 'reports', 'may.csv'), 'isrc,amount');
    const result = await handOver(['test:read-file', 'reports/may.csv', '--copy-to', 'out.csv'], cwd);
    expect(result).toEqual({
      exitCode: 0,
      stdout: `${path.join(cwd, 'reports', 'may.csv')} ${path.join(cwd, 'out.csv')} isrc,amount`,
      stderr: '',
    });
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('answers requests it cannot run with a clear message and a non-zero exit code', async () => {
    expect(await sendCliRequest(dataDir, { command: 'codes:imagine', positionals: [], values: {} })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'Error: the running server does not know codes:imagine; restart it to use this command',
    });
    const unknownFlag = await sendCliRequest(dataDir, {
      command: 'audit:balances',
      positionals: [],
      values: { all: true },
    });
    expect(unknownFlag !== 'no-server' && unknownFlag.stderr).toContain("Unknown option '--all'");
    const wrongType = await sendCliRequest(dataDir, {
      command: 'user:create',
      positionals: [],
      values: { verified: 'yes' },
    });
    expect(wrongType).toMatchObject({ exitCode: 2, stdout: '' });
    expect(wrongType !== 'no-server' && wrongType.stderr).toContain(
      "Option '--verified' does not take a value",
    );
    expect(JSON.parse(await rawRequest('{"command": 42}\n'))).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'Error: malformed request on the CLI socket',
    });
  });

  it('runs only requests carrying the token the server wrote to its private run/cli.token', async () => {
    const tokenFile = cliTokenFile(dataDir);
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    const user = await system.signedInUser({ plan: 'basic' });
    const request = { command: 'balance:set', positionals: [user.email, '9.99'], values: {} };
    for (const token of ['', 'x'.repeat(43), `${fs.readFileSync(tokenFile, 'utf8')}x`]) {
      expect(JSON.parse(await rawRequest(`${JSON.stringify({ version: 2, token, ...request })}\n`))).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `Error: the server refused the command: it did not carry the token in ${tokenFile}`,
      });
    }
    const wallet = await system.request('/api/wallet', { cookie: user.cookie });
    expect(((await wallet.json()) as { balanceCents: number }).balanceCents).toBe(0);
    // The CLI's own hand-over reads the token and gets through.
    expect(await handOver(['balance:set', user.email, '9.99'])).toMatchObject({ exitCode: 0 });
  });

  it('lets a command in flight finish and answer when the server closes the socket, then removes it', async () => {
    const answer = handOver(['test:slow']);
    await slow.running;
    const closing = socket.close();
    slow.letFinish();
    await closing;
    expect(await answer).toEqual({ exitCode: 0, stdout: 'slow done', stderr: '' });
    expect(fs.existsSync(cliSocketFile(dataDir))).toBe(false);
    expect(await handOver(['audit:balances'])).toBe('no-server');
  });
});

/** A DATA_DIR whose run/ folder holds a listening socket that records what it receives (an impostor). */
async function impostorDataDir(): Promise<{
  dir: string;
  received: () => string;
  close: () => Promise<void>;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-impostor-'));
  fs.mkdirSync(path.join(dir, 'run'), { mode: 0o700 });
  fs.writeFileSync(cliTokenFile(dir), 'stolen-or-guessed', { mode: 0o600 });
  let received = '';
  const fake = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      received += chunk;
      socket.end('{"exitCode":0,"stdout":"Created user (faked)","stderr":""}\n');
    });
  });
  await new Promise<void>((resolve) => fake.listen(cliSocketFile(dir), resolve));
  return {
    dir,
    received: () => received,
    close: async () => {
      await new Promise((resolve) => fake.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const userCreate = {
  command: 'user:create',
  positionals: [],
  values: { email: 'admin@example.com', password: 'S3cret!Password', name: 'A', artist: 'A' },
};

describe('CLI socket ownership (issue 22, finding 11)', () => {
  it('with a run/ folder of loose mode, the CLI sends nothing and the server does not listen there', async () => {
    const impostor = await impostorDataDir();
    try {
      fs.chmodSync(path.join(impostor.dir, 'run'), 0o777);
      await expect(sendCliRequest(impostor.dir, userCreate)).rejects.toThrow(
        new CliSocketError(
          `refusing to use the CLI socket: ${path.join(impostor.dir, 'run')} has mode 0777; other users may use it (it must be 0700)`,
        ),
      );
      expect(impostor.received()).toBe('');
      await expect(startCliSocket(system, impostor.dir, createLogger('silent'))).rejects.toThrow(
        /run has mode 0777; other users may use it/,
      );
    } finally {
      await impostor.close();
    }
  });

  const isRoot = process.getuid?.() === 0;
  if (!isRoot)
    console.warn(
      '\n!!! cli-socket.test.ts: not root, the "run/ owned by another user" case is SKIPPED !!!\n',
    );
  it.skipIf(!isRoot)(
    'with a run/ folder (or socket) another user owns, the CLI sends nothing and the server refuses it',
    async () => {
      const nobody = 65534;
      const impostor = await impostorDataDir();
      try {
        // Another local user made run/ and put their socket in it (the attack in the issue).
        fs.chownSync(path.join(impostor.dir, 'run'), nobody, nobody);
        await expect(sendCliRequest(impostor.dir, userCreate)).rejects.toThrow(
          `${path.join(impostor.dir, 'run')} belongs to uid ${nobody}, not to this user (uid 0)`,
        );
        expect(impostor.received()).toBe('');
        await expect(startCliSocket(system, impostor.dir, createLogger('silent'))).rejects.toThrow(
          `belongs to uid ${nobody}, not to this user`,
        );
        // Our folder, their socket.
        fs.chownSync(path.join(impostor.dir, 'run'), 0, 0);
        fs.lchownSync(cliSocketFile(impostor.dir), nobody, nobody);
        await expect(sendCliRequest(impostor.dir, userCreate)).rejects.toThrow(
          `is not a socket of this user (uid ${nobody}); refusing to send the command`,
        );
        expect(impostor.received()).toBe('');
      } finally {
        await impostor.close();
      }
    },
  );

  it('closes connections that send no request in time, and caps how many are open', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-idle-'));
    const limited = await startCliSocket(system, dir, createLogger('silent'), {
      idleTimeoutMs: 500,
      maxConnections: 5,
    });
    if (!limited) throw new Error('socket not started');
    try {
      const outcomes = await Promise.all(
        Array.from(
          { length: 50 },
          () =>
            new Promise<{ answer: string; openMs: number }>((resolve, reject) => {
              const started = Date.now();
              let answer = '';
              const client = net.connect(cliSocketFile(dir));
              client.on('data', (chunk) => {
                answer += chunk;
              });
              client.on('close', () => resolve({ answer, openMs: Date.now() - started }));
              client.on('error', reject);
              // Never sends anything; the test gives up after 5 s (the old socket kept them all open).
              setTimeout(() => client.destroy(), 5_000).unref();
            }),
        ),
      );
      const refused = outcomes.filter((outcome) => outcome.answer !== '');
      const idle = outcomes.filter((outcome) => outcome.answer === '');
      expect(idle).toHaveLength(5);
      for (const outcome of idle) {
        expect(outcome.openMs).toBeGreaterThanOrEqual(400);
        expect(outcome.openMs).toBeLessThan(4_000);
      }
      expect(refused).toHaveLength(45);
      expect(JSON.parse(refused[0]?.answer ?? '')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'Error: the server already has 5 CLI connections open; try again',
      });
      // Once the idle ones are gone, a real command gets through.
      const parsed = parseCliArgs(['audit:balances'], process.cwd());
      if ('result' in parsed) throw new Error('parse failed');
      expect(await sendCliRequest(dir, parsed.request)).toMatchObject({ exitCode: 0 });
    } finally {
      await limited.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the connection cap', () => {
  it('drops refused connections whose client never closes, and close() returns with them open', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-cap-'));
    // The server's log says when it counted a connection against the cap.
    let accepted = 0;
    const log = {
      write(line: string) {
        if ((JSON.parse(line) as { msg?: string }).msg === 'CLI connection accepted') accepted += 1;
      },
    };
    const limited = await startCliSocket(system, dir, createLogger('debug', log), {
      idleTimeoutMs: 60_000,
      maxConnections: 2,
    });
    if (!limited) throw new Error('socket not started');
    const clients: net.Socket[] = [];
    try {
      const open = () =>
        new Promise<{ client: net.Socket; closed: Promise<string> }>((resolve, reject) => {
          // allowHalfOpen: the client keeps its end open after the server's answer (the leak of finding 12).
          const client = net.connect({ path: cliSocketFile(dir), allowHalfOpen: true });
          clients.push(client);
          let answer = '';
          client.on('data', (chunk) => {
            answer += chunk;
          });
          const closed = new Promise<string>((done) => client.on('end', () => done(answer)));
          client.on('error', () => undefined);
          client.on('connect', () => resolve({ client, closed }));
          client.on('error', reject);
        });
      // Each accepted one is counted by the server before the next connects.
      await open();
      await vi.waitFor(() => expect(accepted).toBe(1));
      await open();
      await vi.waitFor(() => expect(accepted).toBe(2));
      const refused = await Promise.all(Array.from({ length: 5 }, () => open()));
      // Each refused one is answered (its client keeps its own end open).
      for (const { closed } of refused) {
        expect(JSON.parse(await closed)).toMatchObject({ exitCode: 1 });
      }
      expect(accepted).toBe(2);
      // Two idle connections stay open (their idle time is a minute) and five refused clients never close:
      // close() still returns promptly (before, it waited on the refused ones for ever, and so did SIGTERM).
      const started = Date.now();
      await limited.close();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const client of clients) client.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
