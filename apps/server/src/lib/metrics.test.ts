/** GET /metrics (record 159): who may read it, and the figures a Prometheus scrape sees. */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { parseConfig } from '../config';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';
import { recordImportLines, recordJobFailure } from './metrics';

const TOKEN = 'metrics-token-for-tests-0123456789';
let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem({ METRICS_TOKEN: TOKEN });
});
afterAll(() => system.close());

const scrape = (app = system.app, token = TOKEN) =>
  app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });

/** The value of one sample line, e.g. `tunedrop_jobs{queue="a",state="b"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('who may read /metrics', () => {
  it('refuses a caller without the token, or with another one', async () => {
    const none = await system.app.request('/metrics');
    expect(none.status).toBe(403);
    expect((await readJson(none)).error.message).toBe(
      'Metrics need the METRICS_TOKEN as a bearer token, or a caller address in METRICS_ALLOW (unset: loopback, unless TRUST_PROXY=1).',
    );
    expect((await scrape(system.app, `${TOKEN}x`)).status).toBe(403);
  });

  /** Status of GET /metrics from 127.0.0.1 over a real socket, for an app made with this config. */
  async function fromLoopback(
    config: Partial<TestSystem['config']>,
    options: { isWorkerOnly?: boolean; token?: string } = {},
  ): Promise<number> {
    const app = createApp({ ...system, config: { ...system.config, ...config } }, options);
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      });
      await response.arrayBuffer();
      return response.status;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('without METRICS_TOKEN, answers a loopback caller only, and nobody when a proxy is trusted', async () => {
    expect(await fromLoopback({ METRICS_TOKEN: undefined, TRUST_PROXY: '0' })).toBe(200);
    expect(await fromLoopback({ METRICS_TOKEN: undefined, TRUST_PROXY: '1' })).toBe(403);
    // In process (no socket, as from anywhere but loopback): refused.
    const app = createApp({ ...system, config: { ...system.config, METRICS_TOKEN: undefined } });
    expect((await app.request('/metrics')).status).toBe(403);
  });

  it('one rule on web and worker instances alike: the token, or a caller in METRICS_ALLOW (record 218)', async () => {
    for (const isWorkerOnly of [false, true]) {
      // With the token set, loopback is still let in by the default list; the token works from anywhere.
      expect(await fromLoopback({ TRUST_PROXY: '0' }, { isWorkerOnly })).toBe(200);
      expect(await fromLoopback({ TRUST_PROXY: '1' }, { isWorkerOnly })).toBe(403);
      expect(await fromLoopback({ TRUST_PROXY: '1' }, { isWorkerOnly, token: TOKEN })).toBe(200);
      // An allow list replaces the default: a network that is not the caller's refuses loopback...
      expect(await fromLoopback({ METRICS_ALLOW: '10.0.0.0/8', TRUST_PROXY: '0' }, { isWorkerOnly })).toBe(
        403,
      );
      // ...and one that holds it lets it in even behind a trusted proxy.
      expect(
        await fromLoopback({ METRICS_ALLOW: '10.0.0.0/8, 127.0.0.1/32', TRUST_PROXY: '1' }, { isWorkerOnly }),
      ).toBe(200);
    }
  });

  it('refuses to start with an allow-list entry that is no address or CIDR, naming it', () => {
    expect(() => parseConfig({ METRICS_ALLOW: '10.0.0.0/8,10.0.0.300/8' })).toThrow(
      'Invalid configuration: METRICS_ALLOW: "10.0.0.300/8" is not an IP address or CIDR (e.g. 10.0.0.0/8, ::1)',
    );
    expect(() => parseConfig({ METRICS_ALLOW: '::1/129' })).toThrow('METRICS_ALLOW: "::1/129"');
    expect(parseConfig({ METRICS_ALLOW: '::1, 192.168.0.0/16' }).METRICS_ALLOW).toBe('::1, 192.168.0.0/16');
  });
});

describe('figures', () => {
  it('times HTTP requests by route pattern and status, never by raw path', async () => {
    const id = '6f1c1d1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f';
    await system.request(`/api/releases/${id}`);
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(
      sample(
        text,
        'tunedrop_http_request_duration_seconds_count{method="GET",route="/api/releases/:id",status="401"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(id);
  });

  it('counts import lines, shows delivery states, the database and its pool', async () => {
    const before = sample(await (await scrape()).text(), 'tunedrop_import_lines_total') ?? 0;
    recordImportLines(1234);
    const text = await (await scrape()).text();
    expect(sample(text, 'tunedrop_import_lines_total')).toBe(before + 1234);
    expect(text).toContain('# TYPE tunedrop_deliveries gauge');
    expect(sample(text, `tunedrop_database_info{kind="${system.database.kind}"}`)).toBe(1);
    if (system.database.kind === 'postgres') {
      expect(sample(text, 'tunedrop_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'tunedrop_db_pool_connections{state="waiting"}')).toBe(0);
    } else {
      expect(text).not.toContain('tunedrop_db_pool_connections{');
    }
  });

  it('shows jobs by queue and state from the job engine', async () => {
    const jobs = {
      isReady: () => true,
      counts: async () => [
        { queue: 'delivery.send', state: 'created', count: 3 },
        { queue: 'delivery.send', state: 'failed', count: 1 },
      ],
      ages: async () => [
        { queue: 'delivery.send', waitingSeconds: 42.5, activeSeconds: 301, expirySeconds: 900 },
        { queue: 'royalties.import', waitingSeconds: 0, activeSeconds: 0, expirySeconds: 600 },
      ],
    };
    const text = await (await scrape(createApp({ ...system, jobs }))).text();
    expect(sample(text, 'tunedrop_jobs{queue="delivery.send",state="created"}')).toBe(3);
    expect(sample(text, 'tunedrop_jobs{queue="delivery.send",state="failed"}')).toBe(1);
    expect(sample(text, 'tunedrop_job_engine_up')).toBe(1);
    expect(sample(text, 'tunedrop_job_oldest_waiting_seconds{queue="delivery.send"}')).toBe(42.5);
    expect(sample(text, 'tunedrop_job_oldest_active_seconds{queue="delivery.send"}')).toBe(301);
    expect(sample(text, 'tunedrop_job_expiry_seconds{queue="delivery.send"}')).toBe(900);
    expect(sample(text, 'tunedrop_job_oldest_waiting_seconds{queue="royalties.import"}')).toBe(0);
  });

  it('counts failed job runs by queue and reason', async () => {
    const series = (reason: string) => `tunedrop_job_failures_total{queue="metrics.test",reason="${reason}"}`;
    const before = await (await scrape()).text();
    recordJobFailure('metrics.test', 'error');
    recordJobFailure('metrics.test', 'error');
    recordJobFailure('metrics.test', 'worker_lost');
    const after = await (await scrape()).text();
    expect(sample(after, series('error'))).toBe((sample(before, series('error')) ?? 0) + 2);
    expect(sample(after, series('worker_lost'))).toBe((sample(before, series('worker_lost')) ?? 0) + 1);
  });
});
