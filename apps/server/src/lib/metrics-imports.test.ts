/** The gauge behind the "imports without progress" alert (record 225, deploy/prometheus/alerts.yml). */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { royaltyImports } from '../db/schema';
import { createTestSystem, type TestSystem } from '../test-support/harness';

const TOKEN = 'metrics-imports-token-0123456789';
let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem({ METRICS_TOKEN: TOKEN });
});
afterAll(() => system.close());

const stalledSeconds = async () => {
  const response = await system.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  const line = /^tunedrop_import_stalled_seconds (\S+)$/m.exec(await response.text());
  return Number(line?.[1]);
};

describe('tunedrop_import_stalled_seconds', () => {
  it('is 0 with no import running, then how long the running one has not moved; finished ones do not count', async () => {
    expect(await stalledSeconds()).toBe(0);
    const values = { fileSha256: 'x'.repeat(64), format: 'csv' as const };
    await system.db.insert(royaltyImports).values([
      { ...values, fileName: 'stuck.csv', phase: 'staging', progressAt: sql`now() - interval '20 minutes'` },
      {
        ...values,
        fileName: 'done.csv',
        status: 'failed',
        phase: 'failed',
        progressAt: sql`now() - interval '2 days'`,
      },
    ]);
    const seconds = await stalledSeconds();
    expect(seconds).toBeGreaterThanOrEqual(1200);
    expect(seconds).toBeLessThan(1200 + 600);
  });
});
