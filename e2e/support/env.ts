/** The e2e server's settings, computed once and shared by the config and the fixtures (via env). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const port = process.env.E2E_PORT ?? String(20000 + Math.floor(Math.random() * 20000));
process.env.E2E_PORT = port;
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const fixturesToken = process.env.E2E_FIXTURES_TOKEN ?? `e2e-${Math.random().toString(36).slice(2)}`;
process.env.E2E_FIXTURES_TOKEN = fixturesToken;

const baseUrl = `http://localhost:${port}`;

export const e2eEnv = {
  port,
  baseUrl,
  dataDir,
  fixturesToken,
  chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  serverEnv: {
    PORT: port,
    APP_URL: baseUrl,
    DATA_DIR: dataDir,
    E2E_FIXTURES_TOKEN: fixturesToken,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    // The journeys' SFTP stores listen on loopback, refused to targets by default (record 227); their folder
    // stores are under DATA_DIR/targets, the default root of file:// targets.
    DELIVERY_ALLOWED_HOSTS: '127.0.0.1',
    // A database kept between runs needs the same secret every run (each run has a fresh DATA_DIR,
    // whose generated secret the database would refuse: decision 141).
    ...(process.env.E2E_DATABASE_URL
      ? { DATABASE_URL: process.env.E2E_DATABASE_URL, APP_SECRET: 'e2e-only-secret-for-a-kept-database-0123' }
      : {}),
  } as Record<string, string>,
};
