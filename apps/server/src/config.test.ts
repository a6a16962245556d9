import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_SECRET, loadConfig, parseConfig } from './config';
import { seedPgliteDataDir } from './test-support/harness';
import { bundledServer } from './test-support/server-bundle';

const mainFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-config-'));

describe('loadConfig', () => {
  it('has working defaults with nothing set', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.isPaymentsSandboxAllowed).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://nope' }, 'DATABASE_URL'],
    [{ APP_URL: 'not a url' }, 'APP_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ S3_BUCKET: 'only-this' }, 'S3_ENDPOINT'],
    [{ NODE_ENV: 'production' }, 'APP_SECRET'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET'],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it.each([
    [{ APP_SECRET: DEVELOPMENT_SECRET }],
    [{ APP_URL: 'https://music.example.com', APP_SECRET: DEVELOPMENT_SECRET }],
    [{ NODE_ENV: 'production', APP_SECRET: DEVELOPMENT_SECRET }],
  ])('refuses the old public development secret on any address: %j', (env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      /^Invalid configuration: APP_SECRET: is the public development secret of earlier versions/,
    );
  });

  it.each([[{ NODE_ENV: 'production' }], [{ NODE_ENV: 'production', APP_URL: 'http://localhost:3000' }]])(
    'requires APP_SECRET in production: %j',
    (env) => {
      expect(() => loadConfig(env)).toThrow(
        /^Invalid configuration: APP_SECRET: required when NODE_ENV=production/,
      );
    },
  );

  it('with APP_SECRET unset, generates a private random secret in DATA_DIR once and reads it back', () => {
    const dataDir = tempDir();
    try {
      const first = loadConfig({ DATA_DIR: dataDir, APP_URL: 'https://music.example.com' });
      expect(first.appSecretSource).toBe('DATA_DIR');
      expect(first.appSecret).not.toBe(DEVELOPMENT_SECRET);
      expect(first.appSecret.length).toBeGreaterThanOrEqual(40);
      const file = path.join(dataDir, 'app-secret');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(loadConfig({ DATA_DIR: dataDir }).appSecret).toBe(first.appSecret);
      // Another DATA_DIR gets another secret: nothing is shared or predictable.
      const other = tempDir();
      expect(loadConfig({ DATA_DIR: other }).appSecret).not.toBe(first.appSecret);
      fs.rmSync(other, { recursive: true, force: true });
      // Only the temporary file of the atomic creation is gone; nothing else was left behind.
      expect(fs.readdirSync(dataDir)).toEqual(['app-secret']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a damaged secret file instead of making a new one', () => {
    const dataDir = tempDir();
    try {
      fs.writeFileSync(path.join(dataDir, 'app-secret'), 'short\n', { mode: 0o600 });
      expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/app-secret is damaged/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('processes starting together on a fresh DATA_DIR all end up with the same secret', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const configFile = path.join(path.dirname(mainFile), 'config.ts');
    const script = `import { loadConfig } from ${JSON.stringify(configFile)}; console.log(loadConfig({ DATA_DIR: ${JSON.stringify(dataDir)} }).appSecret);`;
    const secrets = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
              stdio: ['ignore', 'pipe', 'inherit'],
            });
            let out = '';
            child.stdout.on('data', (chunk) => {
              out += chunk;
            });
            child.on('error', reject);
            child.on('exit', (code) =>
              code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`)),
            );
          }),
      ),
    );
    try {
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]).toBe(fs.readFileSync(path.join(dataDir, 'app-secret'), 'utf8').trim());
    } finally {
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  }, 60_000);

  it('uses a set APP_SECRET on any address and writes no file', () => {
    const dataDir = tempDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_URL: 'https://music.example.com',
      APP_SECRET: 's'.repeat(40),
    });
    expect(config.appSecretSource).toBe('APP_SECRET');
    expect(config.appSecret).toBe('s'.repeat(40));
    expect(fs.readdirSync(dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses the payment sandbox in production unless PAYMENTS_SANDBOX=1', () => {
    const secret = 'x'.repeat(32);
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: secret }).isPaymentsSandboxAllowed).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'production', APP_SECRET: secret, PAYMENTS_SANDBOX: '1' })
        .isPaymentsSandboxAllowed,
    ).toBe(true);
  });
});

describe('starting with a bad variable', () => {
  // A DATA_DIR of its own: a start that gets past the configuration makes the folder and its secret.
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [bundledServer('main')], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: path.join(tempDir(), 'data'), ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('stops with one clear line naming PORT', () => {
    const result = start({ PORT: 'abc' });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT: /);
  });

  it('stops with one line naming APP_SECRET when it is the old public development secret', () => {
    const result = start({ APP_URL: 'https://music.example.com', APP_SECRET: DEVELOPMENT_SECRET, PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Invalid configuration: APP_SECRET: is the public development secret/),
    ]);
  });

  it('stops with one clear line naming DATABASE_URL when it is malformed', () => {
    const result = start({ DATABASE_URL: 'postgres//broken' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Invalid configuration: DATABASE_URL: /),
    ]);
  });

  it('stops with one clear line naming DATABASE_URL when the server cannot be reached', () => {
    const result = start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing', PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^DATABASE_URL: cannot open/)]);
  });
});

describe('starting with no settings', () => {
  it('says it uses the secret generated in DATA_DIR, and warns that the payment sandbox is on', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-config-'));
    // The database of an installed DATA_DIR, without its app-secret file: what is said about the secret
    // does not depend on the database, and initdb with the migrations would cost the start seconds.
    await seedPgliteDataDir(dataDir);
    const child = spawn(process.execPath, [bundledServer('main')], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        APP_SECRET: '',
        STRIPE_SECRET_KEY: '',
        APP_URL: '',
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          if (output.includes('Tunedrop is listening')) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`server exited with ${code}:\n${output}`));
        });
      });
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((resolve) => child.once('close', resolve));
        child.kill('SIGTERM');
        await closed;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const lines = output.split('\n').filter((line) => line.startsWith('{'));
    const messages = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(messages).toContainEqual(
      expect.objectContaining({
        level: 30,
        file: path.join(dataDir, 'app-secret'),
        msg: expect.stringMatching(/^APP_SECRET is not set: using the secret generated for this DATA_DIR/),
      }),
    );
    expect(messages).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/^payment sandbox is on/) }),
    );
  }, 120_000);
});
