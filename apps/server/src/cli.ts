/**
 * Administration CLI on the same database as the server:
 *   user:create --email E --password P --name "Full Name" --artist "Artist" [--plan basic|pro] [--verified] [--active]
 *   role:grant E admin|moderator|free_access    role:revoke E ROLE    balance:set E 123.45
 * Further commands are registered by their modules in cli-commands.ts.
 *
 * On embedded PGlite only one process may open DATA_DIR: when a server owns it, the command is handed
 * to that server over its socket (cli-socket.ts) and the server runs it; otherwise the CLI takes the
 * DATA_DIR lock and opens the database itself. On PostgreSQL it always opens the database itself.
 */
import { type CliRequest, type CliResult, executeCliCommand, parseCliArgs } from './cli-run';
import { sendCliRequest } from './cli-socket';
import { type Config, ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { createLogger } from './lib/logger';

/** How long to wait for a server that is starting (its socket not up yet) or another CLI command. */
const WAIT_FOR_OWNER_MS = 30_000;

async function runDirectly(config: Config, request: CliRequest): Promise<CliResult> {
  const logger = createLogger('warn');
  // Loaded only here: a command handed to the server needs none of the system's modules.
  const { startSystem } = await import('./server');
  const system = await startSystem(config, logger, { runWorkers: false, lockRole: 'cli' });
  try {
    return await executeCliCommand(system, request);
  } finally {
    await system.stop();
  }
}

async function run(request: CliRequest): Promise<CliResult> {
  const config = loadConfig();
  if (config.DATABASE_URL) return runDirectly(config, request);
  const deadline = Date.now() + WAIT_FOR_OWNER_MS;
  for (;;) {
    const answer = await sendCliRequest(config.dataDir, request);
    if (answer !== 'no-server') return answer;
    try {
      return await runDirectly(config, request);
    } catch (error) {
      // The owner is a server still starting (socket not listening yet) or another CLI command.
      if (!(error instanceof DataDirLockedError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseCliArgs(argv, process.cwd());
  const result = 'result' in parsed ? parsed.result : await run(parsed.request);
  if (result.stdout) console.info(result.stdout);
  if (result.stderr) console.error(result.stderr);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError || error instanceof DataDirLockedError
        ? error.message
        : `Error: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
