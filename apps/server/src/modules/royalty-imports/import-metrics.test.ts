/** An import job counts the lines it reads into tunedrop_import_lines_total (GET /metrics, record 159). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { stageImport } from './job-handlers';

const TOKEN = 'metrics-token-for-tests-0123456789';
const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
const LINE = '2025-05-02\t2025-03\tSpotify\tMetrics\tSong\tQZMET2400001\t\t10\t100\tSong\tUS\t0\t0.01';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem({ METRICS_TOKEN: TOKEN });
});
afterAll(() => system.close());

async function importLines(): Promise<number> {
  const response = await system.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  const line = (await response.text())
    .split('\n')
    .find((entry) => entry.startsWith('tunedrop_import_lines_total '));
  return Number(line?.split(' ')[1] ?? 0);
}

describe('import lines on /metrics', () => {
  it('grows by the lines an import job reads', async () => {
    const admin = await system.signedInUser({ roles: ['admin'], email: `admin-${Date.now()}@example.com` });
    const count = 60_000;
    const uploaded = await system.request('/api/admin/royalties/imports?filename=metrics.tsv', {
      method: 'POST',
      cookie: admin.cookie,
      headers: { 'content-type': 'application/octet-stream' },
      body: [HEADER, ...Array.from({ length: count }, () => LINE)].join('\n'),
    });
    expect(uploaded.status).toBe(202);
    const { id } = await readJson(uploaded);
    const before = await importLines();
    await stageImport.run(
      { importId: id },
      { deps: system, jobId: 'metrics-test', retryCount: 0, logger: system.logger },
    );
    const read = (await importLines()) - before;
    expect(read).toBeGreaterThan(count / 2);
    expect(read).toBeLessThanOrEqual(count + 1);
  });
});
