/** GET/PUT /api/admin/lapse-policy (record 196): admins only, validated, audited as a settings change. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

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
});
