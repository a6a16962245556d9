/**
 * Administration CLI on the same database as the server:
 *   user:create --email E --password P --name "Full Name" --artist "Artist" [--plan basic|pro] [--verified] [--active]
 *   role:grant E admin|moderator|free_access    role:revoke E ROLE    balance:set E 123.45
 * Further commands are registered by their modules in cli-commands.ts.
 */
import { parseArgs } from 'node:util';
import { CliError, cliCommands } from './cli-commands';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './lib/logger';
import { startSystem } from './server';

async function main(argv: string[]) {
  const [name, ...rest] = argv;
  const command = name ? cliCommands[name] : undefined;
  if (!command) {
    const list = Object.entries(cliCommands)
      .map(([key, value]) => `  ${key} ${value.usage}`)
      .join('\n');
    console.error(`${name ? `Unknown command: ${name}\n` : ''}Usage: npm run cli -- <command>\n${list}`);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(
      `${error instanceof Error ? error.message : String(error)}\nUsage: npm run cli -- ${name} ${command.usage}`,
    );
    return 2;
  }
  const config = loadConfig();
  const system = await startSystem(config, createLogger('warn'), { runWorkers: false });
  try {
    const output = await command.run(system, parsed.positionals, parsed.values);
    console.info(output);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`Error: ${error.message}`);
      return error.exitCode;
    }
    throw error;
  } finally {
    await system.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `Error: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
