/**
 * The viewer's fast path (lib/access.ts, record 125): one query per request, the cookie's signature checked,
 * and better-auth's own rules for expired sessions and the daily sliding refresh.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { session, userRoles } from '../db/schema';
import { createTestUser } from '../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';
import { SESSION_DONT_REMEMBER_SECONDS } from './session-config';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the signed-in viewer', () => {
  it('answers /api/me with the profile and roles of the session', async () => {
    const staff = await system.signedInUser({ roles: ['moderator'], artistName: 'Fast Path' });
    const response = await system.request('/api/me', { cookie: staff.cookie });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.user.email).toBe(staff.email);
    expect(body.roles).toEqual(['moderator']);
    expect(body.profile.artistName).toBe('Fast Path');
  });

  it('sees a role granted a moment ago on the next request (no cache)', async () => {
    const artist = await system.signedInUser();
    await system.db.insert(userRoles).values({ userId: artist.userId, role: 'admin' });
    const body = await readJson(await system.request('/api/me', { cookie: artist.cookie }));
    expect(body.roles).toEqual(['admin']);
  });

  it('refuses a cookie whose signature does not match its token', async () => {
    const artist = await system.signedInUser();
    const tampered = artist.cookie.replace(/session_token=([^.;]+)\.[^;]+/, 'session_token=$1.AAAA');
    expect(tampered).not.toBe(artist.cookie);
    expect((await system.request('/api/me', { cookie: tampered })).status).toBe(401);
  });

  it('ends a session deleted elsewhere (sign-out on another instance) at the next request', async () => {
    const artist = await system.signedInUser();
    expect((await system.request('/api/me', { cookie: artist.cookie })).status).toBe(200);
    await system.db.delete(session).where(eq(session.userId, artist.userId));
    expect((await system.request('/api/me', { cookie: artist.cookie })).status).toBe(401);
  });

  it('refuses an expired session and lets better-auth delete it', async () => {
    const artist = await system.signedInUser();
    await system.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.userId, artist.userId));
    expect((await system.request('/api/me', { cookie: artist.cookie })).status).toBe(401);
    expect(await system.db.select().from(session).where(eq(session.userId, artist.userId))).toEqual([]);
  });

  it('extends a session due for its daily refresh (sliding expiry stays better-auth’s)', async () => {
    const artist = await system.signedInUser();
    const nearEnd = new Date(Date.now() + 2 * DAY_MS);
    await system.db.update(session).set({ expiresAt: nearEnd }).where(eq(session.userId, artist.userId));
    expect((await system.request('/api/me', { cookie: artist.cookie })).status).toBe(200);
    const [row] = await system.db.select().from(session).where(eq(session.userId, artist.userId));
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });
});

/** Signs in without "Remember me", as the sign-in form does with the box left clear: both cookies. */
async function signInWithoutRememberMe(): Promise<{ userId: string; cookie: string }> {
  const { userId, email, password } = await createTestUser(system);
  const response = await system.auth.api.signInEmail({
    body: { email, password, rememberMe: false },
    headers: new Headers({ origin: system.config.appUrl }),
    asResponse: true,
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .join('; ');
  expect(cookie).toMatch(/tunedrop\.dont_remember=/);
  return { userId, cookie };
}

async function sessionsOf(userId: string) {
  return system.db.select().from(session).where(eq(session.userId, userId));
}

describe('a session without "Remember me" (issue 29)', () => {
  it('stays on the fast path: no better-auth lookup, no cookie rewritten, no session write per request', async () => {
    const { userId, cookie } = await signInWithoutRememberMe();
    const [before] = await sessionsOf(userId);
    // better-auth gives such a session one day; with a 30-day lifetime and a daily refresh that looked due.
    expect(before?.expiresAt.getTime()).toBeLessThanOrEqual(
      Date.now() + SESSION_DONT_REMEMBER_SECONDS * 1000,
    );
    const getSession = vi.spyOn(system.auth.api, 'getSession');
    try {
      for (let n = 0; n < 5; n++) {
        const response = await system.request('/api/me', { cookie });
        expect(response.status).toBe(200);
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      expect(getSession).not.toHaveBeenCalled();
    } finally {
      getSession.mockRestore();
    }
    const [after] = await sessionsOf(userId);
    expect(after?.expiresAt).toEqual(before?.expiresAt);
    expect(after?.updatedAt).toEqual(before?.updatedAt);
  });

  it('still ends when its day is over, and better-auth deletes it', async () => {
    const { userId, cookie } = await signInWithoutRememberMe();
    await system.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.userId, userId));
    expect((await system.request('/api/me', { cookie })).status).toBe(401);
    expect(await sessionsOf(userId)).toEqual([]);
  });

  it('a forged dont_remember cookie changes nothing: a remembered session due for refresh is still extended', async () => {
    const artist = await system.signedInUser();
    const nearEnd = new Date(Date.now() + 2 * DAY_MS);
    await system.db.update(session).set({ expiresAt: nearEnd }).where(eq(session.userId, artist.userId));
    const cookie = `${artist.cookie}; tunedrop.dont_remember=true.AAAA`;
    expect((await system.request('/api/me', { cookie })).status).toBe(200);
    const [row] = await sessionsOf(artist.userId);
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });
});
