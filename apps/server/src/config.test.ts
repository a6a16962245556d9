import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

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
