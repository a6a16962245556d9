/** GET /metrics (record 159): who may read it, and the figures a Prometheus scrape sees. */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
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
    expect((await readJson(none)).error.message).toBe('Metrics need the METRICS_TOKEN as a bearer token.');
    expect((await scrape(system.app, `${TOKEN}x`)).status).toBe(403);
  });

  it('without METRICS_TOKEN, answers a loopback caller only, and nobody when a proxy is trusted', async () => {
    const withConfig = (TRUST_PROXY: '0' | '1') =>
      createApp({ ...system, config: { ...system.config, METRICS_TOKEN: undefined, TRUST_PROXY } });
    for (const [trust, expected] of [
      ['0', 200],
      ['1', 403],
    ] as const) {
      const server = serve({ fetch: withConfig(trust).fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const response = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(response.status).toBe(expected);
        await response.arrayBuffer();
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
    // In process (no socket, as from anywhere but loopback): refused.
    expect((await withConfig('0').request('/metrics')).status).toBe(403);
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
    };
    const text = await (await scrape(createApp({ ...system, jobs }))).text();
    expect(sample(text, 'tunedrop_jobs{queue="delivery.send",state="created"}')).toBe(3);
    expect(sample(text, 'tunedrop_jobs{queue="delivery.send",state="failed"}')).toBe(1);
    expect(sample(text, 'tunedrop_job_engine_up')).toBe(1);
  });

  it('counts failed job runs by queue', async () => {
    const series = 'tunedrop_job_failures_total{queue="metrics.test"}';
    const before = sample(await (await scrape()).text(), series) ?? 0;
    recordJobFailure('metrics.test');
    recordJobFailure('metrics.test');
    expect(sample(await (await scrape()).text(), series)).toBe(before + 2);
  });
});
