/**
 * Issue 22 finding 13: a store never sees a partial package (record 154). The package is written under
 * `.part-<folder>` and renamed when complete; an upload cut off (sshd killed mid-file, a read failing
 * mid-file) leaves nothing under a package's real name, and the retry delivers exactly one package.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts } from '../../db/schema';
import {
  type DeliveryBed,
  expectCompletePackages,
  startDeliveryBed,
  waitFor,
} from '../../test-support/delivery-fixtures';
import type { TestSystem } from '../../test-support/harness';
import { type SftpServer, startSftpServer } from '../../test-support/sftp';
import { slowStorage } from '../../test-support/slow-storage';
import { runDeliveryOnce } from './worker';

let bed: DeliveryBed;
let system: TestSystem;
let sftp: SftpServer;

beforeAll(async () => {
  // One after the other: had one failed inside Promise.all, afterAll could not stop the other (an orphaned sshd).
  sftp = await startSftpServer();
  bed = await startDeliveryBed();
  system = bed.system;
}, 60_000);

afterAll(async () => {
  await bed?.close();
  await sftp?.stop();
});

const onlyTarget = (body: Record<string, unknown>) => bed.onlyTarget(body);
const tempDir = (prefix: string) => bed.tempDir(prefix);
const approvedRelease = async (trackCount: number) =>
  (await bed.approvedReleases(1, { trackCount }))[0] ?? '';

function storeView(root: string) {
  const names = fs.readdirSync(root);
  return {
    packageFolders: names.filter((name) => /^[PNL]_/.test(name)),
    staged: names.filter((name) => name.startsWith('.part-')),
  };
}

const retryNow = (releaseId: string) =>
  system.db
    .update(deliveries)
    .set({ nextAttemptAt: new Date(0) })
    .where(eq(deliveries.releaseId, releaseId));

describe('no partial packages', () => {
  it('sshd killed mid-upload: nothing under a real package name; the retry delivers exactly one package', async () => {
    const root = path.join(sftp.root, `killed-${Date.now()}`);
    fs.mkdirSync(root);
    await onlyTarget({ url: sftp.url(path.basename(root)), privateKey: sftp.privateKey });
    const releaseId = await approvedRelease(3);
    let chunks = 0;
    const storage = slowStorage(system.storage, {
      chunkBytes: 16 * 1024,
      delayMs: 10,
      beforeChunk: () => void chunks++,
    });
    const run = runDeliveryOnce({ ...system, storage }, { retryBaseMs: 60_000, pollAcks: false });
    // Mid-way through the second track (11 chunks a track), the store's server dies.
    await waitFor(() => chunks >= 16);
    sftp.kill();
    await run;
    const [cut] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(cut?.state).toBe('queued');
    expect(cut?.lastError).toBeTruthy();
    expect(storeView(root).packageFolders).toEqual([]);
    expect(storeView(root).staged).toHaveLength(1); // hidden; the connection was gone, so it could not be removed

    await sftp.restart();
    await retryNow(releaseId);
    await runDeliveryOnce(system, { pollAcks: false });
    const [done] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(done?.state).toBe('delivered');
    const view = storeView(root);
    expect(view.packageFolders).toHaveLength(1);
    expect(view.staged).toEqual([]); // the retry cleared what the cut-off attempt left
    const packages = expectCompletePackages(root);
    expect(packages).toHaveLength(1);
    expect(packages[0]?.resources).toHaveLength(3);
  });

  it('a folder target whose upload fails mid-file keeps no partial package and delivers one on the retry', async () => {
    const folder = tempDir(path.join(os.tmpdir(), 'tunedrop-folder-store-'));
    await onlyTarget({ url: `file://${folder}` });
    const releaseId = await approvedRelease(2);
    const broken = slowStorage(system.storage, { delayMs: 0, failAfterBytes: 100 * 1024 });
    await runDeliveryOnce({ ...system, storage: broken }, { retryBaseMs: 60_000, pollAcks: false });
    const [failed] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    expect(failed?.state).toBe('queued');
    expect(failed?.lastError).toMatch(/storage read failed mid-file/);
    expect(fs.readdirSync(folder)).toEqual([]); // removed on failure, the temporary folder too

    await retryNow(releaseId);
    await runDeliveryOnce(system, { pollAcks: false });
    expect(storeView(folder).packageFolders).toHaveLength(1);
    expect(expectCompletePackages(folder)).toHaveLength(1);
  });

  it('a batch is renamed into place with its manifest already inside, written last', async () => {
    const folder = tempDir(path.join(os.tmpdir(), 'tunedrop-batch-store-'));
    await onlyTarget({ url: `file://${folder}`, profile: 'batch' });
    await approvedRelease(1);
    await approvedRelease(1);
    const broken = slowStorage(system.storage, { delayMs: 0, failAfterBytes: 100 * 1024 });
    await runDeliveryOnce({ ...system, storage: broken }, { retryBaseMs: 0, maxJobs: 1, pollAcks: false });
    expect(fs.readdirSync(folder)).toEqual([]);
    // Had the connection died, the cut-off batch would have stayed under its temporary name.
    const [failedAttempt] = await system.db
      .select({ batchId: deliveryAttempts.batchId })
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.outcome, 'failed'))
      .orderBy(desc(deliveryAttempts.startedAt))
      .limit(1);
    const leftover = path.join(folder, `.part-N_${failedAttempt?.batchId}`);
    fs.mkdirSync(path.join(leftover, 'resources'), { recursive: true });
    await runDeliveryOnce(system, { pollAcks: false });
    expect(fs.existsSync(leftover)).toBe(false);
    const [batch, ...others] = storeView(folder).packageFolders;
    expect(others).toEqual([]);
    const entries = fs.readdirSync(path.join(folder, batch as string));
    const manifest = entries.find((name) => name.startsWith('BatchComplete_')) as string;
    expect(manifest).toBe(`BatchComplete_${(batch as string).slice(2)}.xml`);
    const manifestTime = fs.statSync(path.join(folder, batch as string, manifest)).mtimeMs;
    for (const pkg of expectCompletePackages(folder)) {
      expect(fs.statSync(path.join(folder, pkg.xmlFile)).mtimeMs).toBeLessThanOrEqual(manifestTime);
    }
  });
});
