/**
 * Delivery on the job engine (record 156), with a real engine running the `delivery.send` queue: a
 * failing target is retried by the row's own job at the backoff time, each wait longer than the last,
 * until max_attempts; then the delivery is failed, the admins are mailed and no job is left waiting.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, mailOutbox } from '../../db/schema';
import { createJobEngine, type JobEngine, withHandler } from '../../lib/jobs';
import { rows, run } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { sendDelivery, sweepDeliveries } from './job-handlers';
import { sendDeliveryJob } from './jobs';

let system: TestSystem;
let engine: JobEngine | null = null;
let people: Awaited<ReturnType<typeof staff>>;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
}, 60_000);

afterAll(async () => {
  await engine?.stop({ timeoutMs: 2000 });
  await system?.close();
});

describe('delivery.send on the engine', () => {
  it('a failing target is retried with backoff by its own job, then failed and the admins mailed', async () => {
    const admin = (url: string, init: RequestInit & { json?: unknown } = {}) =>
      system.request(url, { ...init, cookie: people.admin.cookie });
    expect(
      (
        await admin('/api/admin/settings', {
          method: 'PUT',
          json: {
            isrcRegistrant: 'qz-abc',
            upcPrefix: '0614141',
            ddexSenderPartyId: 'PADPIDA2013042401U',
            ddexSenderName: 'Tunedrop',
          },
        })
      ).status,
    ).toBe(200);
    const target = await admin('/api/admin/delivery/targets', {
      method: 'POST',
      json: {
        name: 'Down',
        url: 'sftp://u:p@127.0.0.1:1/in',
        dpid: 'PADPIDA2009101501Y',
        platforms: ['spotify'],
        profile: 'release',
        // Added disabled (an enabled one is tested and refused), then switched on: it never answers.
        enabled: false,
      },
    });
    const added = await readJson(target);
    expect(target.status, JSON.stringify(added)).toBe(201);
    const enabled = await admin(`/api/admin/delivery/targets/${added.id}`, {
      method: 'PATCH',
      json: { enabled: true },
    });
    expect(enabled.status).toBe(200);
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    const approved = await system.request(`/api/admin/releases/${releaseId}/approve`, {
      method: 'POST',
      cookie: people.moderator.cookie,
    });
    expect(approved.status).toBe(200);
    await system.db.update(deliveries).set({ maxAttempts: 3 }).where(eq(deliveries.releaseId, releaseId));
    const [row] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    const deliveryId = row?.id ?? '';

    engine = createJobEngine({
      role: 'all',
      jobs: [withHandler(sendDeliveryJob, sendDelivery)],
      deps: { ...system, deliveryOptions: { retryBaseMs: 1000 } },
      logger: system.logger,
      database: system.database,
      databaseUrl: system.config.DATABASE_URL,
      pollingIntervalSeconds: 0.5,
    });
    await engine.start();
    const until = Date.now() + 30_000;
    for (;;) {
      const [now] = await system.db.select().from(deliveries).where(eq(deliveries.id, deliveryId));
      if (now?.state === 'failed' || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const [failed] = await system.db.select().from(deliveries).where(eq(deliveries.id, deliveryId));
    expect(failed?.state).toBe('failed');
    expect(failed?.lastError).toMatch(/Connection refused/);

    const attempts = await system.db
      .select({ startedAt: deliveryAttempts.startedAt })
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, deliveryId))
      .orderBy(asc(deliveryAttempts.number));
    expect(attempts).toHaveLength(3);
    const [a, b, c] = attempts.map((attempt) => new Date(attempt.startedAt).getTime());
    // Backoff of 1 s, then 2 s (polling adds up to half a second).
    expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(900);
    expect((c ?? 0) - (b ?? 0)).toBeGreaterThanOrEqual(1900);

    const jobs = await rows<{ state: string }>(
      system.db,
      sql`select state from pgboss.job where name = 'delivery.send' and data->>'deliveryId' = ${deliveryId}`,
    );
    expect(jobs.map((job) => job.state)).toEqual(['completed', 'completed', 'completed']);
    const mails = await system.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, people.admin.email));
    expect(mails.map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/^Delivery failed: /));
    await engine.stop({ timeoutMs: 2000 });
    engine = null;
  }, 60_000);

  it('the sweep gives a due row whose job is gone its job again, once however often it runs', async () => {
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    const approved = await system.request(`/api/admin/releases/${releaseId}/approve`, {
      method: 'POST',
      cookie: people.moderator.cookie,
    });
    expect(approved.status).toBe(200);
    const [row] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    const deliveryId = row?.id ?? '';
    const waiting = () =>
      rows<{ state: string }>(
        system.db,
        sql`select state from pgboss.job where name = 'delivery.send' and state = 'created' and data->>'deliveryId' = ${deliveryId}`,
      );
    expect(await waiting()).toHaveLength(1);
    // Lost (a worker killed past pg-boss's retries, a row from before the engine existed).
    await run(
      system.db,
      sql`delete from pgboss.job where name = 'delivery.send' and data->>'deliveryId' = ${deliveryId}`,
    );
    const context = { deps: system, jobId: 'test', retryCount: 0, logger: system.logger };
    await sweepDeliveries.run({}, context);
    await sweepDeliveries.run({}, context);
    expect(await waiting()).toHaveLength(1);
  });

  it('a run that finds the row leased by a live upload leaves it alone and comes back when the lease ends', async () => {
    // What the retry of a run pg-boss expired (after 15 minutes) meets while the first run still writes.
    const { releaseId } = await createTestRelease(system, people.artist.userId, {
      status: 'pending',
      distributionStores: ['spotify'],
    });
    const approved = await system.request(`/api/admin/releases/${releaseId}/approve`, {
      method: 'POST',
      cookie: people.moderator.cookie,
    });
    expect(approved.status).toBe(200);
    const [row] = await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId));
    const deliveryId = row?.id ?? '';
    await run(
      system.db,
      sql`delete from pgboss.job where name = 'delivery.send' and data->>'deliveryId' = ${deliveryId}`,
    );
    const leaseId = '6f1d3c2b-7a8e-4f90-9b1c-2d3e4f5a6b7c';
    await system.db
      .update(deliveries)
      .set({
        state: 'uploading',
        leaseOwner: 'the-live-worker',
        leaseId,
        leaseUntil: sql`now() + interval '5 minutes'`,
        attempts: 1,
      })
      .where(eq(deliveries.id, deliveryId));
    const context = { deps: system, jobId: 'retry', retryCount: 1, logger: system.logger };
    await sendDelivery.run({ deliveryId }, context);

    const [after] = await system.db.select().from(deliveries).where(eq(deliveries.id, deliveryId));
    expect(after).toMatchObject({ state: 'uploading', leaseOwner: 'the-live-worker', leaseId, attempts: 1 });
    const attempts = await system.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, deliveryId));
    expect(attempts).toHaveLength(0);
    const next = await rows<{ startAfter: Date | string }>(
      system.db,
      sql`select start_after from pgboss.job where name = 'delivery.send' and state = 'created' and data->>'deliveryId' = ${deliveryId}`,
    );
    expect(next).toHaveLength(1);
    const comesBackAt = new Date(next[0]?.startAfter ?? 0).getTime();
    expect(Math.abs(comesBackAt - new Date(after?.leaseUntil ?? 0).getTime())).toBeLessThan(1000);
  });
});
