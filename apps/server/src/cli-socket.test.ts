/**
 * The server's CLI socket in-process: commands from the one registry run on the server's database and
 * answer what the CLI prints; file paths are made absolute on the CLI side; bad requests get a clear
 * non-zero answer; only the owner can open it; closing lets a command in flight finish and answer.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from './cli-commands';
import { parseCliArgs } from './cli-run';
import { type CliSocket, cliSocketFile, sendCliRequest, startCliSocket } from './cli-socket';
import { createLogger } from './lib/logger';
import { createTestSystem, type TestSystem } from './test-support/harness';

let system: TestSystem;
let socket: CliSocket;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-cli-socket-'));

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
      await new Promise((resolve) => setTimeout(resolve, 300));
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

  it('lets a command in flight finish and answer when the server closes the socket, then removes it', async () => {
    const answer = handOver(['test:slow']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await socket.close();
    expect(await answer).toEqual({ exitCode: 0, stdout: 'slow done', stderr: '' });
    expect(fs.existsSync(cliSocketFile(dataDir))).toBe(false);
    expect(await handOver(['audit:balances'])).toBe('no-server');
  });
});
