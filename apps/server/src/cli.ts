/**
 * Administration CLI on the same database as the server:
 *   user:create --email E --password P --name "Full Name" --artist "Artist" [--plan basic|pro] [--verified] [--active]
 *   role:grant E admin|moderator|free_access    role:revoke E ROLE    balance:set E 123.45
 * Further commands are registered by their modules in cli-commands.ts.
 *
 * On embedded PGlite only one process may open DATA_DIR: when a server owns it, the command is handed
 * to that server over its socket (cli-socket.ts) and the server runs it; otherwise the CLI takes the
 * DATA_DIR lock and opens the database itself. On PostgreSQL it always opens the database itself.
 * Every command first names, on stderr, the database it works on; only the commands that set an install
 * up may create a database where there is none (decision 141).
 */
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS_THAT_MAY_CREATE_A_DATABASE } from './cli-commands';
import { type CliRequest, type CliResult, executeCliCommand, parseCliArgs } from './cli-run';
import { CliSocketError, sendCliRequest } from './cli-socket';
import { type Config, ConfigError, type ParsedConfig, parseConfig, withAppSecret } from './config';
import { AppSecretMismatchError } from './db/app-secret-check';
import { DataDirLockedError, dataDirLockHolder } from './db/data-dir-lock';
import { createLogger } from './lib/logger';
import { DataDirOwnerError, describeTightened, makeDataDirPrivate } from './lib/private-dir';

/** How long to wait for a server that is starting (its socket not up yet) or another CLI command. */
const WAIT_FOR_OWNER_MS = 30_000;

async function runDirectly(config: Config, request: CliRequest): Promise<CliResult> {
  const logger = createLogger('warn');
  // Loaded only here: a command handed to the server needs none of the system's modules.
  const { startSystem } = await import('./server');
  const system = await startSystem(config, logger, { runWorkers: false, lockRole: 'cli' });
  try {
    return await executeCliCommand(system, request, undefined, { stderr: process.stderr });
  } finally {
    await system.stop();
  }
}

/** The PostgreSQL database a URL names, without its password: `user@host:port/database`. */
export function describePostgresUrl(url: string): string {
  const parsed = new URL(url);
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)';
  return `${user}${parsed.host}/${database}`;
}

const hasEmbeddedDatabase = (dataDir: string) => fs.existsSync(path.join(dataDir, 'db', 'PG_VERSION'));

/** Opens the embedded database itself: refuses to create one for a command that needs existing data. */
function prepareDirectRun(parsed: ParsedConfig, request: CliRequest): Config | CliResult {
  if (!hasEmbeddedDatabase(parsed.dataDir) && !COMMANDS_THAT_MAY_CREATE_A_DATABASE.has(request.command)) {
    return {
      exitCode: 1,
      stdout: '',
      stderr: `Error: there is no database in DATA_DIR ${parsed.dataDir}, so ${request.command} has nothing to work on; run the CLI from the folder the server runs in, or set DATA_DIR (or DATABASE_URL) to the server's. Nothing was created.`,
    };
  }
  const tightened = describeTightened(parsed.dataDir, makeDataDirPrivate(parsed.dataDir));
  if (tightened) console.error(`Warning: ${tightened}`);
  return withAppSecret(parsed, { mayCreate: true });
}

async function run(request: CliRequest): Promise<CliResult> {
  const parsed = parseConfig();
  if (parsed.DATABASE_URL) {
    console.error(`Database: PostgreSQL ${describePostgresUrl(parsed.DATABASE_URL)}`);
    // Never a new secret here: one made in this folder would not be the server's (the database check says so).
    return runDirectly(withAppSecret(parsed, { mayCreate: false }), request);
  }
  const deadline = Date.now() + WAIT_FOR_OWNER_MS;
  let isNamed = false;
  for (;;) {
    const answer = await sendCliRequest(parsed.dataDir, request);
    if (answer !== 'no-server') {
      const owner = dataDirLockHolder(parsed.dataDir);
      console.error(
        `Database: embedded, in ${parsed.dataDir} (run by the server${owner ? `, PID ${owner.pid}` : ''})`,
      );
      return answer;
    }
    const prepared = prepareDirectRun(parsed, request);
    if (!('appSecret' in prepared)) return prepared;
    if (!isNamed) console.error(`Database: embedded, in ${parsed.dataDir}`);
    isNamed = true;
    try {
      return await runDirectly(prepared, request);
    } catch (error) {
      // The owner is a server still starting (socket not listening yet) or another CLI command.
      if (!(error instanceof DataDirLockedError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function main(argv: string[]): Promise<number> {
  // Files the CLI creates (the embedded database when no server runs, storage) are private to its user.
  process.umask(0o077);
  const parsed = parseCliArgs(argv, process.cwd());
  const result = 'result' in parsed ? parsed.result : await run(parsed.request);
  if (result.stdout) console.info(result.stdout);
  if (result.stderr) console.error(result.stderr);
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const isOurs =
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof DataDirOwnerError ||
      error instanceof AppSecretMismatchError ||
      error instanceof CliSocketError;
    console.error(
      isOurs ? error.message : `Error: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
