/**
 * The running server's command socket on the embedded database: `DATA_DIR/run/cli.sock`, a Unix
 * domain socket in a directory only the owner's user can enter (0700; the socket itself 0600). The
 * CLI sends one parsed command as a JSON line; the server runs it on its own database connection
 * (commands open their own transactions, as they do when the CLI runs them itself) and answers with
 * one JSON line: what to print and the exit code. One request per connection.
 *
 * Both ends check who they talk to (decision 142): the server refuses a `run/` folder that is not its
 * user's own 0700 folder, and the CLI refuses to send anything (a password, say) into such a folder or
 * to a socket another user owns. Node cannot read the peer's uid (no SO_PEERCRED), so the server writes
 * a random token to `run/cli.token` (0600) and only runs a request carrying it: only its user (or root)
 * can read that file. A connection that sends no request in IDLE_TIMEOUT_MS is closed, and at most
 * MAX_CONNECTIONS are open at once.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { cliCommands } from './cli-commands';
import { type CliRequest, type CliResult, executeCliCommand } from './cli-run';
import { errorCode } from './lib/error-fields';
import type { Logger } from './lib/logger';
import { privateDirProblem } from './lib/private-dir';
import type { System } from './server';

const MAX_REQUEST_BYTES = 1024 * 1024;
// sun_path is 108 bytes on Linux and 104 on macOS, including the terminating NUL.
const MAX_SOCKET_PATH_BYTES = 103;
const IDLE_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 16;
const DRAIN_MS = 10_000;
const PROTOCOL_VERSION = 2;

const requestSchema = z.object({
  version: z.literal(PROTOCOL_VERSION),
  token: z.string().max(200),
  command: z.string().max(100),
  positionals: z.array(z.string()).max(100),
  values: z.record(
    z.string(),
    z.union([z.string(), z.boolean(), z.array(z.union([z.string(), z.boolean()]))]).optional(),
  ),
});

const resultSchema = z.object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() });

export const cliSocketFile = (dataDir: string) => path.join(path.resolve(dataDir), 'run', 'cli.sock');
export const cliTokenFile = (dataDir: string) => path.join(path.resolve(dataDir), 'run', 'cli.token');

export class CliSocketError extends Error {}

/** Refuses a run/ folder (or a DATA_DIR) another user owns or may write into: they could swap the socket. */
function assertPrivateRunDir(dataDir: string): void {
  const resolved = path.resolve(dataDir);
  const problem =
    privateDirProblem(resolved, `DATA_DIR ${resolved}`) ??
    privateDirProblem(path.join(resolved, 'run'), `${path.join(resolved, 'run')}`);
  if (problem) throw new CliSocketError(`refusing to use the CLI socket: ${problem}`);
}

/** The path to bind or connect: absolute, or relative to the cwd when the absolute one is too long. */
function usableSocketPath(dataDir: string): string | null {
  const absolute = cliSocketFile(dataDir);
  if (Buffer.byteLength(absolute) <= MAX_SOCKET_PATH_BYTES) return absolute;
  const relative = path.relative(process.cwd(), absolute);
  return Buffer.byteLength(relative) <= MAX_SOCKET_PATH_BYTES ? relative : null;
}

export type CliSocket = { path: string; close: () => Promise<void> };

export type CliSocketOptions = {
  idleTimeoutMs?: number;
  maxConnections?: number;
  /** How long close() waits for commands in flight before dropping their connections. */
  drainMs?: number;
};

/**
 * Listens for CLI commands; call only while holding the DATA_DIR lock (it replaces a stale socket).
 * Throws CliSocketError when DATA_DIR or its run/ folder is not this user's private folder.
 */
export async function startCliSocket(
  system: System,
  dataDir: string,
  logger: Logger,
  options: CliSocketOptions = {},
): Promise<CliSocket | null> {
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const drainMs = options.drainMs ?? DRAIN_MS;
  const socketPath = usableSocketPath(dataDir);
  const file = cliSocketFile(dataDir);
  if (!socketPath) {
    logger.warn(
      { socket: file },
      'DATA_DIR path too long for the CLI socket; stop the server to use the CLI',
    );
    return null;
  }
  const directory = path.dirname(file);
  assertPrivateRunDir(dataDir);
  try {
    fs.mkdirSync(directory, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  // Checked again after the mkdir: whoever made the folder first, it must be ours and private.
  assertPrivateRunDir(dataDir);
  fs.rmSync(file, { force: true });
  const token = randomBytes(32).toString('base64url');
  const tokenFile = cliTokenFile(dataDir);
  const tokenTemp = `${tokenFile}.${process.pid}.tmp`;
  fs.writeFileSync(tokenTemp, token, { mode: 0o600 });
  fs.renameSync(tokenTemp, tokenFile);
  const expectedToken = Buffer.from(token);
  const hasToken = (given: string) => {
    const buffer = Buffer.from(given);
    return buffer.length === expectedToken.length && timingSafeEqual(buffer, expectedToken);
  };

  const running = new Set<Promise<unknown>>();
  const sockets = new Set<net.Socket>();
  const refused = new Set<net.Socket>();
  const answer = (socket: net.Socket, result: CliResult) => {
    socket.end(`${JSON.stringify(result)}\n`);
    // A client that never closes its end is dropped after the idle time, not kept against the cap.
    socket.setTimeout(idleTimeoutMs, () => socket.destroy());
  };
  const handle = async (socket: net.Socket, line: string) => {
    let request: CliRequest;
    let token: string;
    try {
      const parsed = requestSchema.parse(JSON.parse(line));
      request = { command: parsed.command, positionals: parsed.positionals, values: parsed.values };
      token = parsed.token;
    } catch {
      answer(socket, { exitCode: 2, stdout: '', stderr: 'Error: malformed request on the CLI socket' });
      return;
    }
    if (!hasToken(token)) {
      logger.warn({ command: request.command }, 'refused a CLI request without the token of this server');
      answer(socket, {
        exitCode: 1,
        stdout: '',
        stderr: `Error: the server refused the command: it did not carry the token in ${tokenFile}`,
      });
      return;
    }
    if (!Object.hasOwn(cliCommands, request.command)) {
      // The CLI knows it, so the code changed after this server started.
      answer(socket, {
        exitCode: 2,
        stdout: '',
        stderr: `Error: the running server does not know ${request.command}; restart it to use this command`,
      });
      return;
    }
    logger.info({ command: request.command }, 'running a CLI command');
    answer(socket, await executeCliCommand(system, request, logger));
  };

  const server = net.createServer((socket) => {
    socket.on('error', () => undefined); // the CLI went away; its command still completes
    if (sockets.size >= maxConnections) {
      // Answered, then destroyed: a client that never closes its end would otherwise hold the connection
      // (and server.close() with it) forever (issue 43 finding 12).
      refused.add(socket);
      socket.on('close', () => refused.delete(socket));
      socket.setTimeout(idleTimeoutMs, () => socket.destroy());
      socket.resume(); // whatever it sends is read and dropped, so closing sends no reset over the answer
      const line = {
        exitCode: 1,
        stdout: '',
        stderr: `Error: the server already has ${maxConnections} CLI connections open; try again`,
      };
      socket.end(`${JSON.stringify(line)}\n`, () => socket.destroy());
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    logger.debug({ open: sockets.size }, 'CLI connection accepted');
    // Only the wait for the request is bounded: a command may run for as long as it needs.
    socket.setTimeout(idleTimeoutMs, () => socket.destroy());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(10);
      chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
      size += chunk.length;
      if (newline === -1 && size <= MAX_REQUEST_BYTES) return;
      socket.off('data', onData);
      socket.setTimeout(0);
      if (newline === -1) {
        answer(socket, { exitCode: 2, stdout: '', stderr: 'Error: request too large' });
        return;
      }
      const task = handle(socket, Buffer.concat(chunks).toString('utf8'));
      running.add(task);
      void task.finally(() => running.delete(task));
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(file, 0o600);
  server.on('error', (error) => logger.error({ err: error }, 'CLI socket error'));

  return {
    path: file,
    /**
     * Stops accepting, lets commands in flight finish and answer (for at most `drainMs`), then drops every
     * connection and removes the socket: it always returns, so a shutdown always exits.
     */
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of refused) socket.destroy();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, drainMs);
        }),
      ]);
      clearTimeout(timer);
      for (const socket of [...sockets, ...refused]) socket.destroy();
      await closed;
      fs.rmSync(file, { force: true });
      fs.rmSync(tokenFile, { force: true });
    },
  };
}

/** This user's token of the server on dataDir, or null when there is none (no server, or one starting). */
function readToken(dataDir: string): string | null {
  const file = cliTokenFile(dataDir);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  if (!stat.isFile() || stat.uid !== process.getuid?.() || stat.mode & 0o077) {
    throw new CliSocketError(`${file} is not a private file of this user; refusing to use the CLI socket`);
  }
  return fs.readFileSync(file, 'utf8');
}

/**
 * Hands a request to the server owning dataDir. Resolves 'no-server' when nobody listens (no socket,
 * or a dead server's socket file), the server's answer otherwise.
 */
export async function sendCliRequest(dataDir: string, request: CliRequest): Promise<CliResult | 'no-server'> {
  const socketPath = usableSocketPath(dataDir);
  if (!socketPath) return 'no-server';
  let socketStat: fs.Stats | undefined;
  try {
    socketStat = fs.lstatSync(cliSocketFile(dataDir), { throwIfNoEntry: false });
  } catch (error) {
    // Not even visible (another user's folder): say whose it is.
    assertPrivateRunDir(dataDir);
    throw error;
  }
  if (!socketStat) return 'no-server';
  // Nothing is sent (a password, say) unless the folder and the socket are this user's own.
  assertPrivateRunDir(dataDir);
  if (!socketStat.isSocket() || socketStat.uid !== process.getuid?.()) {
    throw new CliSocketError(
      `${cliSocketFile(dataDir)} is not a socket of this user (uid ${socketStat.uid}); refusing to send the command`,
    );
  }
  const token = readToken(dataDir);
  if (token === null) return 'no-server';
  return new Promise((resolve, reject) => {
    let isConnected = false;
    const chunks: Buffer[] = [];
    const socket = net.connect(socketPath);
    socket.on('connect', () => {
      isConnected = true;
      socket.write(`${JSON.stringify({ version: PROTOCOL_VERSION, token, ...request })}\n`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!isConnected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) resolve('no-server');
      else if (!isConnected)
        reject(new CliSocketError(`cannot reach the server's CLI socket (${error.message})`));
      else reject(new CliSocketError(`lost the connection to the server (${error.message})`));
    });
    socket.on('end', () => {
      try {
        resolve(resultSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      } catch {
        reject(
          new CliSocketError(
            'the server stopped before answering; the command may or may not have been applied (check before re-running it)',
          ),
        );
      }
    });
  });
}
