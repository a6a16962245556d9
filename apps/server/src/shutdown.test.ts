/**
 * Graceful shutdown on the embedded database: SIGTERM while requests are writing loses no committed
 * row, the process exits cleanly, and the database opens again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client';
import { user } from './db/schema';

const mainFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main-e2e.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-shutdown-'));
const token = 'shutdown-test-token';

function startServer(port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', mainFile], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      DATA_DIR: dataDir,
      E2E_FIXTURES_TOKEN: token,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
}

async function waitHealthy(port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('SIGTERM while writing', () => {
  it('keeps every committed row and reopens cleanly', async () => {
    const port = 40000 + Math.floor(Math.random() * 10000);
    const server = startServer(port);
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    await waitHealthy(port);

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
    const againExited = new Promise<number | null>((resolve) => again.once('exit', (code) => resolve(code)));
    await waitHealthy(port);
    again.kill('SIGTERM');
    expect(await againExited).toBe(0);
  }, 120_000);
});
