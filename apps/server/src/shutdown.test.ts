/**
 * Graceful shutdown on the embedded database: SIGTERM while requests are writing loses no committed
 * row, the process exits cleanly, and the database opens again. The server starts on an installed
 * DATA_DIR (the migrated template); a fresh install is data-dir-permissions.test.ts's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client';
import { user } from './db/schema';
import { seedPgliteDataDir } from './test-support/harness';
import { bundledServer } from './test-support/server-bundle';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-shutdown-'));
const token = 'shutdown-test-token';

function startServer(port: number): ChildProcess {
  return spawn(process.execPath, [bundledServer('main-e2e')], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      DATA_DIR: dataDir,
      E2E_FIXTURES_TOKEN: token,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // Requests still open when the drain time ends are cut (record 217): the writers' last ones here.
      SHUTDOWN_DRAIN_SECONDS: '2',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** What the server said on stderr, to tell why it did not start. */
function stderrOf(server: ChildProcess): () => string {
  let said = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    said = `${said}${chunk.toString('utf8')}`.slice(-4000);
  });
  return () => said;
}

async function waitHealthy(port: number, said: () => string): Promise<void> {
  // Generous: under CI's load (two suites on two cores) a server compiled by tsx took over a minute.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become healthy; its stderr:\n${said()}`);
}

beforeAll(() => seedPgliteDataDir(dataDir), 60_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('SIGTERM while writing', () => {
  it('keeps every committed row and reopens cleanly', async () => {
    const port = 40000 + Math.floor(Math.random() * 10000);
    const server = startServer(port);
    const said = stderrOf(server);
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    await waitHealthy(port, said);

    const committed: string[] = [];
    let attempt = 0;
    let isStopping = false;
    const writer = async () => {
      while (!isStopping || attempt < 400) {
        attempt += 1;
        const email = `durable-${attempt}@example.com`;
        const response = await fetch(`http://127.0.0.1:${port}/api/test-fixtures/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-fixtures-token': token },
          body: JSON.stringify({ email, isSignedIn: false, subscription: 'inactive' }),
        }).catch(() => null);
        if (!response) return; // the server stopped accepting
        if (response.status === 201) committed.push(email);
      }
    };
    const writers = [writer(), writer(), writer()];
    while (committed.length < 15) await new Promise((resolve) => setTimeout(resolve, 20));
    server.kill('SIGTERM');
    isStopping = true;
    await Promise.all(writers);
    expect(await exited).toBe(0);
    expect(committed.length).toBeGreaterThanOrEqual(15);

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db
        .select({ email: user.email })
        .from(user)
        .where(inArray(user.email, committed));
      expect(rows.map((row) => row.email).sort()).toEqual([...committed].sort());
    } finally {
      await database.close();
    }

    const again = startServer(port);
    const saidAgain = stderrOf(again);
    const againExited = new Promise<number | null>((resolve) => again.once('exit', (code) => resolve(code)));
    await waitHealthy(port, saidAgain);
    again.kill('SIGTERM');
    expect(await againExited).toBe(0);
  }, 360_000);
});
