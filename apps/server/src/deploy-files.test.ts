/**
 * The operations files (record 160) are checked here because CI has no container runtime: compose.yaml
 * parses and describes the production topology with variables the server knows, .env.example lists every
 * variable and its values start a production server, the Dockerfile runs the bundle as a non-root user.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, parseConfig } from './config';
import { serverRoot } from './lib/paths';

const repoRoot = path.resolve(serverRoot, '../..');
const read = (name: string) => fs.readFileSync(path.join(repoRoot, name), 'utf8');

/** Variables read outside config.ts's schema: per-queue job concurrency (server.ts). */
const isKnownVariable = (name: string) =>
  CONFIG_VARIABLES.includes(name) || name.startsWith('JOBS_CONCURRENCY_');

type Service = {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, unknown>;
  ports?: string[];
};

function envFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (match?.[1]) values[match[1]] = match[2] ?? '';
  }
  return values;
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
  const services = compose.services;

  it('runs PostgreSQL, MinIO, Mailpit, a proxy, two web instances and one worker', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['mailpit', 'minio', 'minio-bucket', 'postgres', 'proxy', 'web-1', 'web-2', 'worker'].sort(),
    );
    const roles = Object.entries(services)
      .filter(([, service]) => service.build)
      .map(([name, service]) => [name, service.environment?.TUNEDROP_ROLE]);
    expect(roles).toEqual([
      ['web-1', 'web'],
      ['web-2', 'web'],
      ['worker', 'worker'],
    ]);
  });

  it('gives the app only variables the server reads, with the database, secret, S3 and SMTP set', () => {
    for (const name of ['web-1', 'web-2', 'worker']) {
      const environment = services[name]?.environment ?? {};
      expect(Object.keys(environment).filter((key) => !isKnownVariable(key))).toEqual([]);
      expect(environment.NODE_ENV).toBe('production');
      expect(environment.DATABASE_URL).toMatch(/^postgres:\/\/tunedrop:.*@postgres:5432\/tunedrop$/);
      expect(environment.APP_SECRET).toContain('${APP_SECRET:?');
      expect(environment.S3_ENDPOINT).toBe('http://minio:9000');
      expect(environment.SMTP_URL).toBe('smtp://mailpit:1025');
      expect(services[name]?.healthcheck?.test.join(' ')).toContain('/api/health/ready');
      expect(services[name]?.depends_on).toHaveProperty('postgres');
    }
  });

  it('publishes only the proxy (and Mailpit on loopback); the proxy hides /metrics', () => {
    const published = Object.entries(services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name, service]) => [name, service.ports])).toEqual([
      ['mailpit', ['127.0.0.1:8025:8025']],
      ['proxy', ['8080:80']],
    ]);
    expect(read('compose.yaml')).toContain('respond /metrics 404');
  });
});

describe('.env.example', () => {
  const values = envFile(read('.env.example'));

  it('lists every variable the server reads, and nothing it does not', () => {
    const composeOnly = ['POSTGRES_PASSWORD', 'MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD'];
    expect(CONFIG_VARIABLES.filter((name) => !(name in values))).toEqual([]);
    expect(
      Object.keys(values).filter((name) => !isKnownVariable(name) && !composeOnly.includes(name)),
    ).toEqual([]);
  });

  it('its values start a production worker once the required ones are filled in, and not before', () => {
    expect(() => parseConfig({ ...values, TUNEDROP_ROLE: 'worker' })).toThrow(
      'Invalid configuration: APP_SECRET: required when NODE_ENV=production',
    );
    const filled = {
      ...values,
      TUNEDROP_ROLE: 'worker',
      DATABASE_URL: 'postgres://tunedrop:pw@postgres:5432/tunedrop',
      APP_SECRET: 'x'.repeat(44),
    };
    expect(parseConfig(filled)).toMatchObject({ NODE_ENV: 'production', TUNEDROP_ROLE: 'worker' });
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds in one stage and runs the bundle from another as a non-root user, with a health check', () => {
    expect(dockerfile.match(/^FROM .+ AS \w+$/gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "apps\/server\/dist\/main\.js"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health\/live/m);
  });

  it('sends no local data, builds or secrets to the build', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', '**/node_modules', '**/dist', 'data', '.env'])
      expect(ignored).toContain(entry);
  });
});
