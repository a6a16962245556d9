/**
 * The admin page's routes for catalogue import (record 200): folders, one import started as a job (record
 * 232: 202 with the queued import, the job's run then fills the report), the kept report; admins only.
 */
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../lib/sql';
import { completedSingle, randomIsrc, randomUpc } from '../../test-support/catalogue-export';
import { type DeliveryBed, startDeliveryBed } from '../../test-support/delivery-fixtures';
import { readJson, type TestSystem } from '../../test-support/harness';
import { runCatalogueImportJob } from './job-handlers';
import { catalogueImportJob } from './jobs';
import { catalogueImportRoot } from './routes';

let bed: DeliveryBed;
let system: TestSystem;
let label: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  bed = await startDeliveryBed();
  ({ system } = bed);
  label = await system.signedInUser({ plan: 'pro', artistName: 'Label Artist' });
  bed.tempDir(path.join(os.tmpdir(), 'catalogue-routes-'));
}, 60_000);
afterAll(async () => bed?.close());

describe('catalogue import routes', () => {
  it('lists the import folders, imports one, keeps the report to read and download; admins only', async () => {
    const root = catalogueImportRoot(system.config);
    await completedSingle(path.join(root, 'label-export'), { upc: randomUpc(), isrc: randomIsrc() });
    const admin = bed.people.admin.cookie;
    const overviewResponse = await system.request('/api/admin/catalogue-imports', { cookie: admin });
    const overview = await readJson(overviewResponse);
    expect(overviewResponse.status, JSON.stringify(overview)).toBe(200);
    expect(overview.folders).toContainEqual({ name: 'label-export', format: 'ern', files: 1 });
    // No server path in the overview (issue 43 finding 12).
    expect(JSON.stringify(overview)).not.toContain(system.config.dataDir);

    const refused = await system.request('/api/admin/catalogue-imports', {
      method: 'POST',
      cookie: admin,
      json: { folder: '../etc', ownerEmail: label.email },
    });
    expect(refused.status).toBe(422);
    const unknown = await system.request('/api/admin/catalogue-imports', {
      method: 'POST',
      cookie: admin,
      json: { folder: 'label-export', ownerEmail: 'nobody@example.com' },
    });
    expect(unknown.status).toBe(422);

    const created = await system.request('/api/admin/catalogue-imports', {
      method: 'POST',
      cookie: admin,
      json: { folder: 'label-export', ownerEmail: label.email, skipReview: true },
    });
    expect(created.status).toBe(202);
    const queued = await readJson(created);
    expect(queued).toMatchObject({
      source: 'label-export',
      status: 'queued',
      importedCount: 0,
      releases: [],
    });
    // Off the request: a job of its own was enqueued with the import, and its run does the work.
    const jobs = await rows<{ data: { importId: string } }>(
      system.db,
      sql`select data from pgboss.job where name = ${catalogueImportJob.name}`,
    );
    expect(jobs.map((job) => job.data.importId)).toContain(queued.id);
    await runCatalogueImportJob.run(
      { importId: queued.id },
      { deps: system, jobId: 'test', retryCount: 0, logger: system.logger },
    );
    const report = await readJson(
      await system.request(`/api/admin/catalogue-imports/${queued.id}`, { cookie: admin }),
    );
    expect(report).toMatchObject({
      source: 'label-export',
      status: 'done',
      processed: 1,
      total: 1,
      importedCount: 1,
      skipReview: true,
    });

    const listed = await readJson(await system.request('/api/admin/catalogue-imports', { cookie: admin }));
    expect(listed.imports[0]).toMatchObject({
      id: report.id,
      importedCount: 1,
      actor: bed.people.admin.email,
    });
    const read = await system.request(`/api/admin/catalogue-imports/${report.id}`, { cookie: admin });
    expect((await readJson(read)).releases[0].outcome).toBe('imported');
    const text = await system.request(`/api/admin/catalogue-imports/${report.id}/report.txt`, {
      cookie: admin,
    });
    expect(text.headers.get('content-disposition')).toContain(`catalogue-import-${report.id}.txt`);
    expect(await text.text()).toContain('IMPORTED "I Love You"');

    const moderator = bed.people.moderator.cookie;
    expect((await system.request('/api/admin/catalogue-imports', { cookie: moderator })).status).toBe(403);
  });
});
