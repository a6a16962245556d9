/**
 * The lapse policy's daily run (issue 26 finding 8, record 196), with an injected "now": keep live does
 * nothing; take down after 30 days mails at the lapse, on day 23 and on day 30, when the releases are
 * taken down through the takedown path; each once however often the job runs; a resubscription cancels.
 */
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deliveries, deliveryTargets, mailOutbox, profiles, releases } from '../../db/schema';
import { allJobs } from '../../job-registry';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { applyLapsePolicy, saveLapsePolicy } from './service';

let system: TestSystem;
let admin: Awaited<ReturnType<TestSystem['signedInUser']>>;
const APP = 'https://app.test';
const LAPSED_AT = new Date('2026-03-01T03:00:00Z');
/** The daily run's moment, `day` whole days after the lapse (at 06:00 UTC, as scheduled). */
const day = (count: number) => new Date(Date.UTC(2026, 2, 1 + count, 6));

beforeAll(async () => {
  system = await createTestSystem();
  admin = await system.signedInUser({ roles: ['admin'] });
});
afterAll(async () => system?.close());

async function lapsedArtist(email: string) {
  const artist = await createTestUser(system, {
    email,
    subscription: 'canceled',
    subscriptionEnd: LAPSED_AT,
  });
  const { releaseId } = await createTestRelease(system, artist.userId, {
    status: 'live',
    title: `Song of ${email}`,
  });
  const [target] = await system.db
    .insert(deliveryTargets)
    .values({
      name: `Store ${email}`,
      scheme: 'file',
      urlMasked: 'file:///tmp/x',
      secret: 'x',
      dpid: 'PADPIDA2009101501Y',
    })
    .returning();
  await system.db
    .insert(deliveries)
    .values({ releaseId, targetId: target?.id ?? '', state: 'delivered', deliveredAt: LAPSED_AT });
  return { ...artist, releaseId };
}

const mailsTo = async (email: string) =>
  (
    await system.db
      .select({ subject: mailOutbox.subject, text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, email))
  ).map((mail) => mail.subject);

const deliveryOf = async (releaseId: string) =>
  (await system.db.select().from(deliveries).where(eq(deliveries.releaseId, releaseId)))[0];

/** The job runs twice each time (a retry, a second instance): the second run must do nothing. */
const runTwice = async (at: Date) => {
  const first = await applyLapsePolicy(system.db, APP, at);
  const second = await applyLapsePolicy(system.db, APP, at);
  expect(second).toEqual({ mails: 0, takedowns: 0 });
  return first;
};

describe('lapse policy', () => {
  it('keep live (the default) does nothing', async () => {
    const artist = await lapsedArtist('keep-live@example.com');
    for (const at of [day(0), day(23), day(30), day(400)]) {
      expect(await applyLapsePolicy(system.db, APP, at)).toEqual({ mails: 0, takedowns: 0 });
    }
    expect(await mailsTo('keep-live@example.com')).toEqual([]);
    expect((await deliveryOf(artist.releaseId))?.state).toBe('delivered');
    // Cleared so the next cases see only their own account.
    await system.db.update(releases).set({ status: 'taken_down' }).where(eq(releases.id, artist.releaseId));
  });

  it('take down after 30 days: a mail at the lapse, on day 23 and at the takedown on day 30, each once', async () => {
    await saveLapsePolicy(system.db, { mode: 'take_down', days: 30 }, admin.userId, {
      id: admin.userId,
      email: admin.email,
    });
    const artist = await lapsedArtist('lapsed@example.com');

    expect(await runTwice(day(0))).toEqual({ mails: 1, takedowns: 0 });
    expect(await mailsTo('lapsed@example.com')).toEqual([
      'Your subscription has lapsed: your releases will be taken down',
    ]);
    expect(await runTwice(day(10))).toEqual({ mails: 0, takedowns: 0 });
    expect(await runTwice(day(22))).toEqual({ mails: 0, takedowns: 0 });

    expect(await runTwice(day(23))).toEqual({ mails: 1, takedowns: 0 });
    expect((await mailsTo('lapsed@example.com'))[1]).toBe('Your releases will be taken down on 2026-03-31');
    expect((await deliveryOf(artist.releaseId))?.state).toBe('delivered');

    expect(await runTwice(day(29))).toEqual({ mails: 0, takedowns: 0 });
    expect(await runTwice(day(30))).toEqual({ mails: 1, takedowns: 1 });
    expect(await mailsTo('lapsed@example.com')).toHaveLength(3);
    expect((await mailsTo('lapsed@example.com'))[2]).toBe('Your releases are being taken down');
    // The store gets a takedown message: the delivery is queued as a takedown.
    const delivery = await deliveryOf(artist.releaseId);
    expect(delivery).toMatchObject({ action: 'takedown', state: 'takedown_queued' });
    const audit = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.releaseId, artist.releaseId), like(auditLog.actorEmail, 'system:%')));
    expect(audit.map((entry) => entry.action)).toEqual(['release.takedown_approve']);

    expect(await runTwice(day(31))).toEqual({ mails: 0, takedowns: 0 });
  });

  it('a resubscription before day 30 cancels the takedown', async () => {
    const artist = await lapsedArtist('comes-back@example.com');
    expect(await runTwice(day(0))).toEqual({ mails: 1, takedowns: 0 });
    await system.db
      .update(profiles)
      .set({ subscriptionStatus: 'active', subscriptionEnd: day(60) })
      .where(eq(profiles.id, artist.userId));
    expect(await runTwice(day(23))).toEqual({ mails: 0, takedowns: 0 });
    expect(await runTwice(day(30))).toEqual({ mails: 0, takedowns: 0 });
    expect(await mailsTo('comes-back@example.com')).toHaveLength(1);
    expect((await deliveryOf(artist.releaseId))?.state).toBe('delivered');
    const [release] = await system.db.select().from(releases).where(eq(releases.id, artist.releaseId));
    expect(release?.status).toBe('live');
  });

  it('runs as a daily scheduled job', () => {
    const job = allJobs.find((entry) => entry.name === 'lapse-policy.daily');
    expect(job?.schedule?.cron).toBe('0 6 * * *');
  });
});
