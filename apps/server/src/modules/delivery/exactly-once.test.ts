/**
 * Issue 22 finding 16: a delivery is uploaded once (record 154). A worker that stalls past its lease
 * while another takes the job over stops before writing more: no rename into place, no message, no
 * manifest. Leases are database time. Two worker processes with SIGSTOP/SIGCONT on PostgreSQL; on
 * PGlite (one process owns the database, record 080) the same takeover inside one process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliveries, deliveryAttempts, releaseStatusEvents, releases } from '../../db/schema';
import { rows, run } from '../../lib/sql';
import {
  type DeliveryBed,
  expectCompletePackages,
  startDeliveryBed,
  waitFor,
} from '../../test-support/delivery-fixtures';
import type { TestSystem } from '../../test-support/harness';
import { readDeliveries } from '../../test-support/sftp';
import { slowStorage } from '../../test-support/slow-storage';
import { promoteReleases } from './acknowledgements';
import { claimJobs, resolveOptions } from './state';
import { runDeliveryOnce } from './worker';

let bed: DeliveryBed;
let system: TestSystem;
const isPostgres = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  bed = await startDeliveryBed();
  system = bed.system;
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

const tempDir = (prefix: string) => bed.tempDir(prefix);
const approvedReleases = (count: number, trackCount: number) => bed.approvedReleases(count, { trackCount });

async function onlyFolderTarget(profile: 'release' | 'batch') {
  const folder = tempDir(path.join(os.tmpdir(), 'tunedrop-store-'));
  return { folder, targetId: await bed.onlyTarget({ url: `file://${folder}`, profile }) };
}

function storeView(folder: string) {
  const top = fs.readdirSync(folder);
  const manifests = top
    .filter((name) => /^[PNL]_/.test(name))
    .flatMap((name) => fs.readdirSync(path.join(folder, name)).filter((n) => n.startsWith('BatchComplete_')));
  return {
    packageFolders: top.filter((name) => /^[PNL]_/.test(name)),
    staged: top.filter((n) => n.startsWith('.')),
    manifests,
  };
}

/** Every package's resources are whole: each file's MD5 is the one its message states. */

describe('a worker that lost its lease', () => {
  it('stops before writing more, leaves nothing in place, and the new owner delivers once (one process)', async () => {
    const { folder } = await onlyFolderTarget('release');
    const [releaseId] = await approvedReleases(1, 3);
    // Worker 1 trickles its reads and is held at a gate mid-file, as a stopped process would be.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let isHeld = false;
    let chunksAfterGate = 0;
    const filesRead = new Set<string>();
    const storage = slowStorage(system.storage, {
      chunkBytes: 16 * 1024,
      delayMs: 0,
      beforeChunk: async (index, key) => {
        filesRead.add(key);
        if (index === 3 && !isHeld) {
          isHeld = true;
          await gate;
        } else if (isHeld) chunksAfterGate += 1;
      },
    });
    const first = runDeliveryOnce(
      { ...system, storage },
      { workerId: 'w1', leaseMs: 30_000, pollAcks: false },
    );
    await waitFor(() => isHeld);
    expect(storeView(folder).staged).toHaveLength(1); // written under its temporary name only
    // Its lease runs out (database time) and worker 2 takes the job over and delivers it.
    await system.db
      .update(deliveries)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(deliveries.releaseId, releaseId as string));
    await runDeliveryOnce(system, { workerId: 'w2', pollAcks: false });
    expect(
      (
        await system.db
          .select()
          .from(deliveries)
          .where(eq(deliveries.releaseId, releaseId as string))
      )[0]?.state,
    ).toBe('delivered');
    // Worker 1 resumes an hour later by its own clock (a stopped process's monotonic clock runs on).
    const now = performance.now.bind(performance);
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now() + 3_600_000);
    try {
      open();
      await first;
    } finally {
      clock.mockRestore();
    }
    // Only what the pipe had buffered of the first file (11 chunks of 16 KB); never the other two files.
    expect(chunksAfterGate).toBeLessThan(11);
    expect(filesRead.size).toBe(1);
    const view = storeView(folder);
    expect(view.packageFolders).toHaveLength(1);
    expect(view.staged).toEqual([]);
    expect(readDeliveries(folder)).toHaveLength(1);
    expectCompletePackages(folder);
    const attempts = await system.db
      .select()
      .from(deliveryAttempts)
      .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
      .where(eq(deliveries.releaseId, releaseId as string));
    expect(attempts.map((a) => a.delivery_attempts.outcome).sort()).toEqual(['failed', 'uploaded']);
    const [row] = await system.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.releaseId, releaseId as string));
    expect(row?.state).toBe('delivered');
  });

  it.skipIf(!isPostgres)(
    'two worker processes: the first SIGSTOPped mid-upload, the second takes over, SIGCONT: one package, one manifest',
    async () => {
      const { folder } = await onlyFolderTarget('batch');
      const ids = await approvedReleases(2, 3);
      const children: ChildProcess[] = [];
      const child = (workerId: string, isSlow: boolean) => {
        const dataDir = tempDir(path.join(os.tmpdir(), 'tunedrop-worker-'));
        const proc = spawn(
          process.execPath,
          ['--import', 'tsx', path.join(import.meta.dirname, '../../test-support/delivery-worker-child.ts')],
          {
            env: {
              ...process.env,
              DATABASE_URL: system.config.DATABASE_URL,
              APP_SECRET: system.config.appSecret,
              CHILD_DATA_DIR: dataDir,
              STORAGE_DIR: path.join(system.dataDir, 'storage'),
              WORKER_ID: workerId,
              LEASE_MS: '1500',
              SLOW: isSlow ? '1' : '0',
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        children.push(proc);
        let out = '';
        proc.stdout?.on('data', (d) => (out += d));
        proc.stderr?.on('data', (d) => (out += d));
        const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
        return { proc, output: () => out, exited };
      };
      try {
        const first = child('w1', true);
        await waitFor(() => first.output().includes('uploading'), 60_000);
        first.proc.kill('SIGSTOP');
        // The lease runs out on the database's clock.
        await waitFor(async () => {
          const [lease] = await rows<{ expired: boolean }>(
            system.db,
            sql`select bool_and(lease_until < now()) as expired from deliveries where release_id in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
          );
          return lease?.expired === true;
        });
        const second = child('w2', false);
        expect(await second.exited, second.output()).toBe(0);
        const delivered = await system.db.select().from(deliveries).where(inArray(deliveries.releaseId, ids));
        expect(delivered.map((d) => d.state)).toEqual(['delivered', 'delivered']);
        first.proc.kill('SIGCONT');
        expect(await first.exited, first.output()).toBe(0);

        const view = storeView(folder);
        expect(view.packageFolders).toHaveLength(1);
        expect(view.manifests).toHaveLength(1);
        expect(view.staged).toEqual([]);
        expect(readDeliveries(folder)).toHaveLength(2);
        expectCompletePackages(folder);
        const after = await system.db.select().from(deliveries).where(inArray(deliveries.releaseId, ids));
        expect(after.map((d) => d.state)).toEqual(['delivered', 'delivered']);
        const outcomes = await system.db
          .select({ outcome: deliveryAttempts.outcome })
          .from(deliveryAttempts)
          .innerJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
          .where(inArray(deliveries.releaseId, ids));
        expect(outcomes.map((o) => o.outcome).sort()).toEqual(['failed', 'failed', 'uploaded', 'uploaded']);
      } finally {
        for (const proc of children) {
          if (proc.exitCode === null && proc.signalCode === null) {
            proc.kill('SIGCONT');
            proc.kill('SIGKILL');
          }
        }
      }
    },
    120_000,
  );
});

describe('a worker that died right after its package was in place', () => {
  it('the worker taking over adopts that package instead of sending a second one', async () => {
    const { folder } = await onlyFolderTarget('release');
    const [releaseId] = await approvedReleases(1, 1);
    await runDeliveryOnce(system, { workerId: 'w1', pollAcks: false });
    expect(readDeliveries(folder)).toHaveLength(1);
    // As the row and attempt looked when w1 died between the rename and recording it.
    const [row] = await system.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.releaseId, releaseId as string));
    await system.db
      .update(deliveries)
      .set({
        state: 'uploading',
        leaseOwner: 'w1',
        leaseId: randomUUID(),
        leaseUntil: sql`now() - interval '1 second'`,
        deliveredAt: null,
      })
      .where(eq(deliveries.id, row?.id as string));
    await system.db
      .update(deliveryAttempts)
      .set({ outcome: 'running', finishedAt: null })
      .where(eq(deliveryAttempts.deliveryId, row?.id as string));

    await runDeliveryOnce(system, { workerId: 'w2', pollAcks: false });
    expect(readDeliveries(folder)).toHaveLength(1);
    expect(storeView(folder).staged).toEqual([]);
    const [after] = await system.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.id, row?.id as string));
    expect(after?.state).toBe('delivered');
    const attempts = await system.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, row?.id as string));
    expect(attempts.map((a) => [a.number, a.outcome])).toEqual([[1, 'uploaded']]);
    expect(attempts[0]?.remotePath).toBe(readDeliveries(folder)[0]?.folder);
  });
});

describe('database time', () => {
  // PGlite runs inside the server's process and reads that process's clock (a faked Date moves its
  // now() too), so only PostgreSQL has a clock of its own for an instance to disagree with.
  it.skipIf(!isPostgres)(
    'a worker whose clock runs an hour ahead does not take over a lease that is still valid',
    async () => {
      await onlyFolderTarget('release');
      const [releaseId] = await approvedReleases(1, 1);
      const [claimed] = await claimJobs(system.db, resolveOptions({ workerId: 'on-time', leaseMs: 60_000 }));
      expect(claimed?.releaseId).toBe(releaseId);
      vi.useFakeTimers({ now: Date.now() + 3_600_000, toFake: ['Date'] });
      try {
        expect(await claimJobs(system.db, resolveOptions({ workerId: 'ahead', leaseMs: 60_000 }))).toEqual(
          [],
        );
      } finally {
        vi.useRealTimers();
      }
      const [row] = await system.db
        .select()
        .from(deliveries)
        .where(eq(deliveries.releaseId, releaseId as string));
      expect(row?.leaseOwner).toBe('on-time');
    },
  );
});

describe('promotion to live', () => {
  it('the status and its history event are one transaction: a failing event leaves the release approved', async () => {
    await onlyFolderTarget('release');
    const [releaseId] = await approvedReleases(1, 1);
    await system.db
      .update(deliveries)
      .set({ state: 'acknowledged' })
      .where(eq(deliveries.releaseId, releaseId as string));
    await system.db
      .update(releases)
      .set({ releaseDate: '2020-01-01' })
      .where(eq(releases.id, releaseId as string));
    // The event insert fails (as a lost connection or a constraint would), after the status update ran.
    await run(
      system.db,
      sql`create function test_refuse_event() returns trigger language plpgsql as $$
      begin raise exception 'event refused'; end $$`,
    );
    await run(
      system.db,
      sql`create trigger test_refuse_event before insert on release_status_events for each row execute function test_refuse_event()`,
    );
    try {
      await expect(promoteReleases(system.db)).rejects.toThrow();
    } finally {
      await run(system.db, sql`drop trigger test_refuse_event on release_status_events`);
      await run(system.db, sql`drop function test_refuse_event()`);
    }
    const [still] = await system.db
      .select()
      .from(releases)
      .where(eq(releases.id, releaseId as string));
    expect(still?.status).toBe('approved');
    await promoteReleases(system.db);
    const [live] = await system.db
      .select()
      .from(releases)
      .where(eq(releases.id, releaseId as string));
    expect(live?.status).toBe('live');
    const events = await system.db
      .select()
      .from(releaseStatusEvents)
      .where(eq(releaseStatusEvents.releaseId, releaseId as string));
    expect(events.filter((e) => e.status === 'live')).toHaveLength(1);
  });
});
