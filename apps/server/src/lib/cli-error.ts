/**
 * What a module needs to hand its CLI commands over to the registry (cli-commands.ts) without importing
 * the CLI: the error a command throws to answer with an exit code, and the shape of a command.
 */
import type { RequestDeps } from './context';
import type { JobEngine } from './jobs';

/** The running system a command works on (server.ts's System). */
export interface CommandSystem extends RequestDeps {
  jobs: JobEngine;
  stop: () => Promise<void>;
}

/** A command's answer to bad input or a refused action: printed as `Error: message`, exit code as given. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export type FlagValue = string | boolean | (string | boolean)[] | undefined;
/**
 * One CLI command. On PGlite a running server executes it (the CLI hands it over a socket in
 * DATA_DIR, see cli-socket.ts), so `run` must use only `system` and its arguments, never the CLI
 * process's working directory: list every argument that is a file path in `paths`, and the CLI
 * makes it absolute before handing it over.
 */
export type Command = {
  usage: string;
  options?: Record<string, { type: 'string' | 'boolean' }>;
  /** Arguments that are file paths (positional indexes and option names), resolved against the CLI's cwd. */
  paths?: { positionals?: number[]; options?: string[] };
  run: (
    system: CommandSystem,
    positionals: string[],
    flags: Record<string, FlagValue>,
    io?: CommandIo,
  ) => Promise<string>;
};

/**
 * The CLI's own stderr while a command runs in the CLI process (absent when a server runs it for the
 * CLI over the socket): long commands draw their progress there.
 */
export type CommandIo = { stderr: NodeJS.WriteStream };
