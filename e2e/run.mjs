// Runs the Playwright journeys: builds the web app, then `playwright test`. Without Chromium the journeys
// are skipped with a loud message locally, and fail under CI=true.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  const message = `\n!!! END-TO-END TESTS SKIPPED: no Chromium at ${chromium}.\n!!! Install it with 'apt-get install -y chromium' or set CHROMIUM_PATH.\n`;
  if (process.env.CI === 'true') {
    console.error(`${message}!!! CI=true, so this is a failure.\n`);
    process.exit(1);
  }
  console.warn(message);
  process.exit(0);
}

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('npm', ['run', 'build', '--silent']);
const args = process.argv.slice(2);
// Named files run alone: without --no-deps the site-wide and ledger projects would pull in every journey
// they depend on, whatever the filter.
const namesFiles = args.some((arg) => !arg.startsWith('-'));
const extra = namesFiles && !args.includes('--no-deps') ? ['--no-deps'] : [];
run('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts', ...args, ...extra]);
