import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deliveries,
  deliveryTargets,
  mailOutbox,
  staffNotificationDigestItems,
  staffNotificationPreferences,
  userRoles,
} from '../../db/schema';
import { allJobs } from '../../job-registry';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { sendStaffDigests } from './digest';
import { notifyAcknowledgement, notifyDeliveryFailed } from './events';

let system: TestSystem;
let admin: Awaited<ReturnType<TestSystem['signedInUser']>>;
let moderator: Awaited<ReturnType<TestSystem['signedInUser']>>;
let artist: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  admin = await system.signedInUser({ roles: ['admin'], email: 'admin@example.com' });
  moderator = await system.signedInUser({ roles: ['moderator'], email: 'moderator@example.com' });
  artist = await system.signedInUser({ plan: 'pro', email: 'artist@example.com', artistName: 'Nova' });
});
afterAll(() => system.close());
beforeEach(async () => {
  await system.db.delete(mailOutbox);
  await system.db.delete(staffNotificationDigestItems);
  await system.db.delete(staffNotificationPreferences);
});

/** Staff mails in the outbox, by recipient. */
async function staffMails() {
  return system.db
    .select()
    .from(mailOutbox)
    .where(inArray(mailOutbox.recipient, [admin.email, moderator.email]));
}
const recipientsOf = (mails: { recipient: string }[]) => mails.map((m) => m.recipient).sort();

const setPreferences = (cookie: string, preferences: { kind: string; mode: string }[]) =>
  system.request('/api/staff-notifications/preferences', { method: 'PUT', cookie, json: { preferences } });

describe('events mail the staff of their kind', () => {
  it('a submitted release mails moderators and admins', async () => {
    const files = await uploadReleaseFiles(system, artist.cookie, 1);
    const response = await system.request('/api/builder/releases', {
      method: 'POST',
      cookie: artist.cookie,
      json: basicSubmission(files, { artistName: 'Nova' }),
    });
    expect(response.status).toBe(201);
    const mails = await staffMails();
    expect(recipientsOf(mails)).toEqual([admin.email, moderator.email]);
    expect(mails[0]?.subject).toBe('New release to review: "Night Drive" by Nova');
  });

  it('a whole-release and a per-store takedown request mail moderators and admins', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId, {
      status: 'live',
      title: 'Gone Soon',
    });
    const whole = await system.request(`/api/releases/${releaseId}/takedown`, {
      method: 'POST',
      cookie: artist.cookie,
    });
    expect(whole.status).toBe(200);
    const other = await createTestRelease(system, artist.userId, { status: 'live', title: 'One Store Less' });
    const perStore = await system.request(`/api/releases/${other.releaseId}/store-takedowns`, {
      method: 'POST',
      cookie: artist.cookie,
      json: { platformId: 'spotify' },
    });
    expect(perStore.status).toBeLessThan(300);
    const subjects = (await staffMails()).map((m) => `${m.recipient} ${m.subject}`).sort();
    expect(subjects).toEqual([
      `${admin.email} Takedown requested from Spotify: "One Store Less" by Test Artist`,
      `${admin.email} Takedown requested: "Gone Soon" by Test Artist`,
      `${moderator.email} Takedown requested from Spotify: "One Store Less" by Test Artist`,
      `${moderator.email} Takedown requested: "Gone Soon" by Test Artist`,
    ]);
  });

  it('a withdrawal request mails admins only, never a moderator', async () => {
    await fundUser(system, artist.userId, 10_000);
    await savePaypal(system, artist.userId);
    const response = await system.request('/api/wallet/withdrawals', {
      method: 'POST',
      cookie: artist.cookie,
      json: { amount: '50.00' },
    });
    expect(response.status).toBe(201);
    const mails = await staffMails();
    expect(recipientsOf(mails)).toEqual([admin.email]);
    expect(mails[0]?.subject).toBe('Withdrawal requested: $50.00 by Nova');
  });

  it('an unreadable acknowledgement mails admins only', async () => {
    await system.db.transaction((tx) =>
      notifyAcknowledgement(tx, 'Store X', {
        outcome: 'malformed',
        fileName: 'ACK_1.xml',
        errorText: 'not XML',
      }),
    );
    await system.db.transaction((tx) =>
      notifyAcknowledgement(tx, 'Store X', { outcome: 'accepted', fileName: 'ACK_2.xml' }),
    );
    const mails = await staffMails();
    expect(recipientsOf(mails)).toEqual([admin.email]);
    expect(mails[0]?.subject).toBe('Unreadable acknowledgement from Store X: ACK_1.xml');
    expect(mails[0]?.textBody).toContain('Tunedrop could not read it: not XML.');
  });

  it('a store rejection and a failed delivery mail admins only, and "off" is honoured', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId, {
      status: 'approved',
      title: 'Far Out',
    });
    const [target] = await system.db
      .insert(deliveryTargets)
      .values({
        name: 'Store Y',
        scheme: 'file',
        urlMasked: 'file:///tmp/x',
        secret: 'x',
        dpid: 'PADPIDA2009101501Y',
      })
      .returning();
    const [delivery] = await system.db
      .insert(deliveries)
      .values({ releaseId, targetId: target?.id ?? '' })
      .returning();
    const deliveryId = delivery?.id ?? '';
    await system.db.transaction((tx) =>
      notifyAcknowledgement(tx, 'Store Y', {
        outcome: 'rejected',
        deliveryId,
        fileName: 'ACK_3.xml',
        status: 'ResourceMissing',
        errorText: 'no cover',
      }),
    );
    const mails = await staffMails();
    expect(recipientsOf(mails)).toEqual([admin.email]);
    expect(mails[0]?.subject).toBe('Store rejection: "Far Out" by Test Artist at Store Y');
    expect(mails[0]?.textBody).toContain('The store answered ResourceMissing: no cover (ACK_3.xml).');

    await system.db.delete(mailOutbox);
    expect((await setPreferences(admin.cookie, [{ kind: 'delivery_failed', mode: 'off' }])).status).toBe(200);
    await system.db.transaction((tx) => notifyDeliveryFailed(tx, deliveryId, 6, 'connection refused'));
    expect(await staffMails()).toEqual([]);
    await system.db.delete(deliveries);
    await system.db.delete(deliveryTargets);
  });

  it('a rolled-back change mails nobody', async () => {
    const { releaseId } = await createTestRelease(system, artist.userId, { status: 'live' });
    await system.db
      .transaction(async (tx) => {
        const { notifyTakedownRequested } = await import('./events');
        await notifyTakedownRequested(tx, releaseId);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await staffMails()).toEqual([]);
  });
});

describe('preferences', () => {
  it('lists the kinds of the caller’s role, at once by default', async () => {
    const forModerator = await readJson(
      await system.request('/api/staff-notifications/preferences', { cookie: moderator.cookie }),
    );
    expect(
      forModerator.preferences.map((p: { kind: string; mode: string }) => `${p.kind}:${p.mode}`),
    ).toEqual(['release_submitted:immediate', 'takedown_requested:immediate']);
    const forAdmin = await readJson(
      await system.request('/api/staff-notifications/preferences', { cookie: admin.cookie }),
    );
    expect(forAdmin.preferences).toHaveLength(6);
  });

  it('refuses a moderator a finance kind and saves nothing', async () => {
    const response = await setPreferences(moderator.cookie, [
      { kind: 'release_submitted', mode: 'off' },
      { kind: 'withdrawal_requested', mode: 'immediate' },
    ]);
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error.fields['preferences.1.kind']).toBe(
      'Your role does not receive this kind of notification.',
    );
    expect(await system.db.select().from(staffNotificationPreferences)).toEqual([]);
  });

  it('"off" mails nothing; "digest" waits for the daily digest, one mail per user listing the events', async () => {
    expect((await setPreferences(admin.cookie, [{ kind: 'takedown_requested', mode: 'off' }])).status).toBe(
      200,
    );
    expect(
      (await setPreferences(moderator.cookie, [{ kind: 'takedown_requested', mode: 'digest' }])).status,
    ).toBe(200);
    const first = await createTestRelease(system, artist.userId, { status: 'live', title: 'First' });
    const second = await createTestRelease(system, artist.userId, { status: 'approved', title: 'Second' });
    for (const { releaseId } of [first, second]) {
      const response = await system.request(`/api/releases/${releaseId}/takedown`, {
        method: 'POST',
        cookie: artist.cookie,
      });
      expect(response.status).toBe(200);
    }
    expect(await staffMails()).toEqual([]);

    expect(await sendStaffDigests(system.db, system.config.appUrl)).toBe(1);
    const mails = await staffMails();
    expect(recipientsOf(mails)).toEqual([moderator.email]);
    expect(mails[0]?.subject).toBe('Tunedrop staff digest: 2 events');
    expect(mails[0]?.textBody).toContain('Takedown requests (whole release or one store) (2):');
    expect(mails[0]?.textBody).toContain('- Takedown requested: "First" by Test Artist');
    expect(mails[0]?.textBody).toContain('- Takedown requested: "Second" by Test Artist');

    // Nothing new: no mail tomorrow.
    expect(await sendStaffDigests(system.db, system.config.appUrl)).toBe(0);
    expect(await staffMails()).toHaveLength(1);
  });

  it('a digest leaves out kinds of a role the user lost since', async () => {
    const former = await system.signedInUser({ roles: ['admin'], email: 'former-admin@example.com' });
    await setPreferences(former.cookie, [{ kind: 'withdrawal_requested', mode: 'digest' }]);
    await fundUser(system, artist.userId, 10_000);
    await savePaypal(system, artist.userId);
    await system.request('/api/wallet/withdrawals', {
      method: 'POST',
      cookie: artist.cookie,
      json: { amount: '30.00' },
    });
    await system.db.delete(userRoles).where(inArray(userRoles.userId, [former.userId]));
    await sendStaffDigests(system.db, system.config.appUrl);
    const mails = await system.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.recipient, [former.email]));
    expect(mails).toEqual([]);
  });

  it('the digest is a daily scheduled job', () => {
    const job = allJobs.find((entry) => entry.name === 'staff-notifications.digest');
    expect(job?.schedule?.cron).toBe('0 7 * * *');
  });
});
