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
  restart?: string;
  stop_grace_period?: string;
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

  it('runs PostgreSQL, MinIO, Mailpit, a proxy, the migrate step, two web instances and one worker', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'mailpit',
        'migrate',
        'minio',
        'minio-bucket',
        'postgres',
        'prometheus',
        'proxy',
        'web-1',
        'web-2',
        'worker',
      ].sort(),
    );
    const roles = Object.entries(services)
      .filter(([, service]) => service.build)
      .map(([name, service]) => [name, service.environment?.TUNEDROP_ROLE]);
    expect(roles).toEqual([
      ['migrate', 'migrate'],
      ['web-1', 'web'],
      ['web-2', 'web'],
      ['worker', 'worker'],
    ]);
  });

  it('starts the instances only once the one-shot migrate step succeeded (record 224)', () => {
    expect(services.migrate?.restart).toBe('no');
    const environment = services.migrate?.environment ?? {};
    expect(Object.keys(environment).filter((key) => !isKnownVariable(key))).toEqual([]);
    expect(environment.DATABASE_URL).toBe(services.worker?.environment?.DATABASE_URL);
    expect(environment.NODE_ENV).toBe('production');
    for (const name of ['web-1', 'web-2', 'worker']) {
      expect(services[name]?.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
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

  it('gives each instance a stop grace period past its drain and forced exit (record 217)', () => {
    const drain = parseConfig({}).SHUTDOWN_DRAIN_SECONDS;
    for (const name of ['web-1', 'web-2', 'worker']) {
      const grace = /^(\d+)s$/.exec(services[name]?.stop_grace_period ?? '')?.[1];
      // The process exits at the latest 5 s after the drain time; the runtime's SIGKILL must come later.
      expect(Number(grace), name).toBeGreaterThan(drain + 5);
    }
  });

  it('publishes only the proxy (and Mailpit on loopback); the proxy hides /metrics', () => {
    const published = Object.entries(services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name, service]) => [name, service.ports])).toEqual([
      ['mailpit', ['127.0.0.1:8025:8025']],
      ['prometheus', ['127.0.0.1:9090:9090']],
      ['proxy', ['8080:80']],
    ]);
    expect(read('compose.yaml')).toContain('respond /metrics 404');
  });
});

describe('Prometheus, its alert rules and the Grafana dashboard (record 225)', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, Service>;
    configs: Record<string, { content?: string; file?: string }>;
  };
  /** Every metric name lib/metrics.ts registers (prom-client's defaults under its prefix too). */
  const metricsSource = read('apps/server/src/lib/metrics.ts');
  const registered = new Set(
    [...metricsSource.matchAll(/name: '(tunedrop_[a-z_]+)'/g)].map((match) => match[1]),
  );
  /** The tunedrop_* series an expression reads, without a histogram's _bucket/_count/_sum suffix. */
  const seriesOf = (expr: string) =>
    [...expr.matchAll(/\btunedrop_[a-z_]+/g)].map((match) => match[0].replace(/_(bucket|count|sum)$/, ''));
  const isRegistered = (name: string) =>
    registered.has(name) ||
    // collectDefaultMetrics({ prefix: 'tunedrop_process_' }) in metrics.ts
    (name.startsWith('tunedrop_process_') &&
      /collectDefaultMetrics\(.*prefix: 'tunedrop_process_'/.test(metricsSource));

  it('scrapes every web and worker instance with the metrics token', () => {
    const config = parse(compose.configs.prometheus?.content ?? '') as {
      rule_files: string[];
      scrape_configs: { authorization?: { credentials?: string }; static_configs: { targets: string[] }[] }[];
    };
    const instances = Object.entries(compose.services)
      .filter(([, service]) => ['web', 'worker'].includes(service.environment?.TUNEDROP_ROLE ?? ''))
      .map(([name]) => `${name}:3000`);
    expect(
      config.scrape_configs.flatMap((job) => job.static_configs.flatMap((c) => c.targets)).sort(),
    ).toEqual(instances.sort());
    expect(config.scrape_configs[0]?.authorization?.credentials).toContain('${METRICS_TOKEN:?');
    expect(compose.services.worker?.environment?.METRICS_TOKEN).toContain('${METRICS_TOKEN:?');
    expect(compose.configs['prometheus-alerts']?.file).toBe('./deploy/prometheus/alerts.yml');
    expect(config.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
  });

  it('alerts on old jobs, runs past their lease, failed deliveries and stalled imports, with metrics that exist', () => {
    const rules = (
      parse(read('deploy/prometheus/alerts.yml')) as {
        groups: { rules: { alert: string; expr: string }[] }[];
      }
    ).groups.flatMap((group) => group.rules);
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'TunedropJobWaitingTooLong',
        'TunedropJobActivePastLease',
        'TunedropDeliveriesFailed',
        'TunedropImportWithoutProgress',
      ]),
    );
    const used = rules.flatMap((rule) => seriesOf(rule.expr));
    expect(used.length).toBeGreaterThan(rules.length - 2);
    expect(used.filter((name) => !isRegistered(name))).toEqual([]);
  });

  it('the dashboard reads only metrics that exist', () => {
    const dashboard = JSON.parse(read('deploy/grafana/tunedrop-dashboard.json')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const used = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) => seriesOf(target.expr)),
    );
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((name) => !isRegistered(name))).toEqual([]);
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

  it('runs on a supported Node LTS (22 or 24), with what `npm run cli` needs at run time', () => {
    for (const from of dockerfile.match(/^FROM \S+/gm) ?? []) expect(from).toMatch(/^FROM node:(22|24)-/);
    // `npm run cli` is `node apps/server/build.mjs --if-stale && node apps/server/dist/cli.js`.
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.cli).toBe('node apps/server/build.mjs --if-stale && node apps/server/dist/cli.js');
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    for (const copied of ['/app/package.json ./', '/app/apps/server/build.mjs', '/app/apps/server/dist'])
      expect(runtime).toContain(`COPY --from=build ${copied}`);
  });

  it('sends no local data, builds or secrets to the build', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', '**/node_modules', '**/dist', 'data', '.env'])
      expect(ignored).toContain(entry);
  });
});
