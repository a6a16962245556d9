/**
 * Parsing and running CLI commands from the one registry in cli-commands.ts. The CLI parses (so bad
 * input is answered before any database is touched, and file paths are made absolute against its own
 * working directory); whoever owns the database (the CLI itself, or the running server through
 * cli-socket.ts) runs the parsed request with executeCliCommand.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliCommands } from './cli-commands';
import { CliError, type Command, type CommandIo, type FlagValue } from './lib/cli-error';
import type { Logger } from './lib/logger';
import type { System } from './server';

export type CliRequest = { command: string; positionals: string[]; values: Record<string, FlagValue> };
/** What the CLI prints and its exit code; stdout and stderr are printed as they are (empty: nothing). */
export type CliResult = { exitCode: number; stdout: string; stderr: string };

export function usageText(name?: string): string {
  const list = Object.entries(cliCommands)
    .map(([key, value]) => `  ${key} ${value.usage}`)
    .join('\n');
  return `${name ? `Unknown command: ${name}\n` : ''}Usage: npm run cli -- <command>\n${list}`;
}

const lookup = (name: string | undefined): Command | undefined =>
  name && Object.hasOwn(cliCommands, name) ? cliCommands[name] : undefined;

/** Parses argv (command name first) into a request, or the result to print when it is bad input. */
export function parseCliArgs(argv: string[], cwd: string): { request: CliRequest } | { result: CliResult } {
  const [name, ...rest] = argv;
  const command = lookup(name);
  if (!name || !command) return { result: { exitCode: 2, stdout: '', stderr: usageText(name) } };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      result: {
        exitCode: 2,
        stdout: '',
        stderr: `${message}\nUsage: npm run cli -- ${name} ${command.usage}`,
      },
    };
  }
  const positionals = [...parsed.positionals];
  const values: Record<string, FlagValue> = { ...parsed.values };
  for (const index of command.paths?.positionals ?? []) {
    const value = positionals[index];
    if (value) positionals[index] = path.resolve(cwd, value);
  }
  for (const option of command.paths?.options ?? []) {
    const value = values[option];
    if (typeof value === 'string' && value !== '') values[option] = path.resolve(cwd, value);
  }
  return { request: { command: name, positionals, values } };
}

/**
 * Checks a request that came from outside this process (the socket): the command exists and every
 * flag is one of its options with the right type. Returns the bad-input result, or null when fine.
 */
export function checkCliRequest(request: CliRequest): CliResult | null {
  const command = lookup(request.command);
  if (!command) return { exitCode: 2, stdout: '', stderr: usageText(request.command) };
  for (const [key, value] of Object.entries(request.values)) {
    const option = command.options?.[key];
    const type = Array.isArray(value) ? 'array' : typeof value;
    if (value !== undefined && (!option || option.type !== type)) {
      const problem = !option
        ? `Unknown option '--${key}'`
        : option.type === 'boolean'
          ? `Option '--${key}' does not take a value`
          : `Option '--${key}' needs a value`;
      return {
        exitCode: 2,
        stdout: '',
        stderr: `${problem}\nUsage: npm run cli -- ${request.command} ${command.usage}`,
      };
    }
  }
  return null;
}

/** Runs a parsed request on `system`'s database; never throws (an unexpected error is exit code 1). */
export async function executeCliCommand(
  system: System,
  request: CliRequest,
  logger?: Logger,
  io?: CommandIo,
): Promise<CliResult> {
  const bad = checkCliRequest(request);
  if (bad) return bad;
  const command = lookup(request.command) as Command;
  try {
    const output = await command.run(system, request.positionals, request.values, io);
    return { exitCode: 0, stdout: output, stderr: '' };
  } catch (error) {
    if (error instanceof CliError)
      return { exitCode: error.exitCode, stdout: '', stderr: `Error: ${error.message}` };
    logger?.error({ err: error, command: request.command }, 'CLI command failed');
    return {
      exitCode: 1,
      stdout: '',
      stderr: `Error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
