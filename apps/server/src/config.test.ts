import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_SECRET, isLoopbackUrl, loadConfig } from './config';

const mainFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');

describe('loadConfig', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
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
    [{ APP_URL: 'https://music.example.com' }],
    [{ APP_URL: 'http://192.168.1.20:3000' }],
    [{ APP_URL: 'http://localhost.example.com' }],
    [{ NODE_ENV: 'production' }],
    [{ NODE_ENV: 'production', APP_URL: 'http://localhost:3000' }],
    [{ APP_URL: 'https://music.example.com', APP_SECRET: DEVELOPMENT_SECRET }],
  ])('refuses the development secret with %j in one line naming APP_SECRET', (env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/^Invalid configuration: APP_SECRET: required .*loopback/);
  });

  it.each([
    'http://localhost:3000',
    'http://127.0.0.1:8080',
    'http://[::1]:3000',
    'http://tunedrop.localhost',
  ])('accepts the development secret on loopback %s and says so', (url) => {
    const config = loadConfig({ APP_URL: url });
    expect(config.isDevelopmentSecret).toBe(true);
    expect(config.appSecret).toBe(DEVELOPMENT_SECRET);
  });

  it('uses a set APP_SECRET on any address', () => {
    const config = loadConfig({ APP_URL: 'https://music.example.com', APP_SECRET: 's'.repeat(40) });
    expect(config.isDevelopmentSecret).toBe(false);
    expect(config.appSecret).toBe('s'.repeat(40));
    expect(isLoopbackUrl('https://music.example.com')).toBe(false);
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
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', mainFile], {
      env: { ...process.env, DATABASE_URL: '', ...env },
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

  it('stops with one line naming APP_SECRET when APP_URL is public and no secret is set', () => {
    const result = start({ APP_URL: 'https://music.example.com', APP_SECRET: '', PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Invalid configuration: APP_SECRET: required/),
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

describe('starting on loopback with no settings', () => {
  it('warns that the development secret and the payment sandbox are in use', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunedrop-config-'));
    const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
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
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/^APP_SECRET is not set/) }),
    );
    expect(messages).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/^payment sandbox is on/) }),
    );
  }, 120_000);
});
