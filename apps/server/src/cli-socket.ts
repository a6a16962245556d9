/**
 * The running server's command socket on the embedded database: `DATA_DIR/run/cli.sock`, a Unix
 * domain socket in a directory only the owner's user can enter (0700; the socket itself 0600). The
 * CLI sends one parsed command as a JSON line; the server runs it on its own database connection
 * (commands open their own transactions, as they do when the CLI runs them itself) and answers with
 * one JSON line: what to print and the exit code. One request per connection.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { cliCommands } from './cli-commands';
import { type CliRequest, type CliResult, executeCliCommand } from './cli-run';
import type { Logger } from './lib/logger';
import type { System } from './server';

const MAX_REQUEST_BYTES = 1024 * 1024;
// sun_path is 108 bytes on Linux and 104 on macOS, including the terminating NUL.
const MAX_SOCKET_PATH_BYTES = 103;

const requestSchema = z.object({
  version: z.literal(1),
  command: z.string().max(100),
  positionals: z.array(z.string()).max(100),
  values: z.record(
    z.string(),
    z.union([z.string(), z.boolean(), z.array(z.union([z.string(), z.boolean()]))]).optional(),
  ),
});

const resultSchema = z.object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() });

export const cliSocketFile = (dataDir: string) => path.join(path.resolve(dataDir), 'run', 'cli.sock');

/** The path to bind or connect: absolute, or relative to the cwd when the absolute one is too long. */
function usableSocketPath(dataDir: string): string | null {
  const absolute = cliSocketFile(dataDir);
  if (Buffer.byteLength(absolute) <= MAX_SOCKET_PATH_BYTES) return absolute;
  const relative = path.relative(process.cwd(), absolute);
  return Buffer.byteLength(relative) <= MAX_SOCKET_PATH_BYTES ? relative : null;
}

export type CliSocket = { path: string; close: () => Promise<void> };

/** Listens for CLI commands; call only while holding the DATA_DIR lock (it replaces a stale socket). */
export async function startCliSocket(
  system: System,
  dataDir: string,
  logger: Logger,
): Promise<CliSocket | null> {
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
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  fs.chmodSync(directory, 0o700);
  fs.rmSync(file, { force: true });

  const running = new Set<Promise<unknown>>();
  const sockets = new Set<net.Socket>();
  const answer = (socket: net.Socket, result: CliResult) => {
    socket.end(`${JSON.stringify(result)}\n`);
  };
  const handle = async (socket: net.Socket, line: string) => {
    let request: CliRequest;
    try {
      const parsed = requestSchema.parse(JSON.parse(line));
      request = { command: parsed.command, positionals: parsed.positionals, values: parsed.values };
    } catch {
      answer(socket, { exitCode: 2, stdout: '', stderr: 'Error: malformed request on the CLI socket' });
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
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // the CLI went away; its command still completes
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(10);
      chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
      size += chunk.length;
      if (newline === -1 && size <= MAX_REQUEST_BYTES) return;
      socket.off('data', onData);
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
    /** Stops accepting, lets commands in flight finish and answer, then removes the socket. */
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...running]);
      for (const socket of sockets) socket.destroy();
      await closed;
      fs.rmSync(file, { force: true });
    },
  };
}

export class CliSocketError extends Error {}

/**
 * Hands a request to the server owning dataDir. Resolves 'no-server' when nobody listens (no socket,
 * or a dead server's socket file), the server's answer otherwise.
 */
export function sendCliRequest(dataDir: string, request: CliRequest): Promise<CliResult | 'no-server'> {
  const socketPath = usableSocketPath(dataDir);
  if (!socketPath) return Promise.resolve('no-server');
  return new Promise((resolve, reject) => {
    let isConnected = false;
    const chunks: Buffer[] = [];
    const socket = net.connect(socketPath);
    socket.on('connect', () => {
      isConnected = true;
      socket.write(`${JSON.stringify({ version: 1, ...request })}\n`);
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
