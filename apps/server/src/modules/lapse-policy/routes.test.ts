/** GET/PUT /api/admin/lapse-policy (record 196): admins only, validated, audited as a settings change. */
import { LAPSED_MESSAGES } from '@tunedrop/shared';
import {
  type LapseStanding,
  lapseConsequence,
  lapsedBannerBody,
} from '@tunedrop/shared/schemas/lapse-policy';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { applyLapsePolicy } from './service';

let system: TestSystem;
let admin: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  admin = await system.signedInUser({ roles: ['admin'] });
});
afterAll(async () => system?.close());

const put = (json: unknown, cookie = admin.cookie) =>
  system.request('/api/admin/lapse-policy', { method: 'PUT', cookie, json });

describe('lapse policy routes', () => {
  it('keeps releases live by default, saves "take down after N days" and audits it', async () => {
    const read = await system.request('/api/admin/lapse-policy', { cookie: admin.cookie });
    expect(await readJson(read)).toEqual({ mode: 'keep_live' });

    const saved = await put({ mode: 'take_down', days: 30 });
    expect(saved.status).toBe(200);
    expect(await readJson(saved)).toEqual({ mode: 'take_down', days: 30 });
    expect(await readJson(await system.request('/api/admin/lapse-policy', { cookie: admin.cookie }))).toEqual(
      { mode: 'take_down', days: 30 },
    );

    const entries = await system.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update'));
    expect(entries.at(-1)).toMatchObject({
      subjectLabel: 'Lapsed accounts',
      before: { LAPSE_POLICY_MODE: null, LAPSE_POLICY_DAYS: null },
      after: { LAPSE_POLICY_MODE: 'take_down', LAPSE_POLICY_DAYS: '30' },
    });

    expect(await readJson(await put({ mode: 'keep_live' }))).toEqual({ mode: 'keep_live' });
  });

  it('refuses 0 and 366 days (422), and anyone but an admin', async () => {
    expect((await put({ mode: 'take_down', days: 0 })).status).toBe(422);
    expect((await put({ mode: 'take_down', days: 366 })).status).toBe(422);
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    expect((await put({ mode: 'keep_live' }, moderator.cookie)).status).toBe(403);
  });

  it('the banner says what the lapse mail says: the same takedown date and consequence (issue 44)', async () => {
    const DAY = 86_400_000;
    const lapsedAt = new Date(Date.now() - 2 * DAY);
    const artist = await system.signedInUser({ subscription: 'canceled', subscriptionEnd: lapsedAt });
    await createTestRelease(system, artist.userId, { status: 'live' });
    const standing = async (): Promise<LapseStanding> =>
      readJson(await system.request('/api/me/lapse-standing', { cookie: artist.cookie }));

    // Releases kept live: the banner keeps the spec's words, and no mail goes out.
    expect(await standing()).toEqual({ kind: 'kept_live' });
    expect(lapsedBannerBody({ kind: 'kept_live' })).toBe(LAPSED_MESSAGES.body);

    await put({ mode: 'take_down', days: 30 });
    const takedownDate = new Date(lapsedAt.getTime() + 30 * DAY).toISOString().slice(0, 10);
    expect(await standing()).toEqual({ kind: 'scheduled', takedownDate });
    const banner = lapsedBannerBody(await standing());
    expect(banner).toContain(`your live releases will be taken down from the stores on ${takedownDate}.`);
    expect(banner).not.toContain('Your releases, royalties and withdrawals stay available');

    expect(await applyLapsePolicy(system.db, 'https://app.test')).toEqual({ mails: 1, takedowns: 0 });
    const [mail] = await system.db
      .select({ text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, artist.email));
    expect(mail?.text).toContain(lapseConsequence({ kind: 'scheduled', takedownDate }));
    // The day stays the mail's after it went out.
    expect(await standing()).toEqual({ kind: 'scheduled', takedownDate });

    await put({ mode: 'keep_live' });
  });
});
