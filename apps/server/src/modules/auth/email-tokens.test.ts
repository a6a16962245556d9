/**
 * Email links are honoured only as this server mailed them: once, and while the account still has the
 * address they were issued for, even to someone who can sign tokens with APP_SECRET (issue 22, finding 1).
 */
import { AUTH_MESSAGES, type EmailLinkError } from '@tunedrop/shared/schemas/auth';
import { createEmailVerificationToken } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailTokens, user } from '../../db/schema';
import { cookieFrom, firstLink, latestMail, pathOf } from '../../test-support/auth-fixtures';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { recordEmailToken } from './email-tokens';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
  // Date keeps time but can be moved on (nextSecond); timers stay real.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
});
afterAll(async () => {
  vi.useRealTimers();
  await system.close();
});

let counter = 0;
const uniqueEmail = (prefix = 'linked') => `${prefix}${++counter}-${Date.now() % 100000}@example.com`;
const password = 'Str0ng!Tunes';

async function signUp(email = uniqueEmail()): Promise<string> {
  const response = await system.request('/api/auth/signup', {
    method: 'POST',
    json: { email, fullName: 'Jane Doe', artistName: 'JD', password, confirmPassword: password, plan: 'pro' },
  });
  expect(response.status).toBe(201);
  return email;
}

async function mailedLink(email: string): Promise<string> {
  return pathOf(firstLink((await latestMail(system.db, email))?.text ?? ''));
}

const follow = (path: string) => system.request(path, { redirect: 'manual' });
/**
 * Moves the clock into the next second (tokens made before now carry an earlier one) instead of waiting
 * for it: the file's Date runs on a clock that keeps time and can be moved on (no timer is faked).
 */
const nextSecond = () => vi.setSystemTime(Date.now() + 1000);

async function accountOf(id: string) {
  const [row] = await system.db
    .select({ email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, id));
  return row;
}

async function idOf(email: string): Promise<string> {
  const [row] = await system.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return row?.id ?? '';
}

/** A token signed with the server's own secret, as anyone who learnt APP_SECRET could make. */
function signedToken(email: string, payload: Record<string, unknown>, updateTo?: string): Promise<string> {
  return createEmailVerificationToken(system.config.appSecret, email, updateTo, 3600, payload);
}

/** An email-change link as better-auth would mail it (Tunedrop offers no email change; this is its path). */
async function issuedChangeLink(userId: string, from: string, to: string): Promise<string> {
  const token = await signedToken(from, { userId, requestType: 'change-email-verification' }, to);
  await recordEmailToken(system.db, { token, userId, sentTo: to });
  return `/api/auth/verify-email?token=${token}&callbackURL=%2Fdashboard`;
}

function expectRefused(response: Response, code: EmailLinkError) {
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe(`/login?error=${code}`);
  expect(cookieFrom(response)).not.toContain('session_token');
}

describe('GET /api/auth/verify-email', () => {
  it('a token signed with the secret but never mailed gets no session and verifies nothing', async () => {
    const email = await signUp();
    const userId = await idOf(email);
    const forged = await signedToken(email, { userId });

    expectRefused(
      await follow(`/api/auth/verify-email?token=${forged}&callbackURL=%2Fcheckout`),
      'EMAIL_LINK_USED',
    );
    const asApi = await follow(`/api/auth/verify-email?token=${forged}`);
    expect(asApi.status).toBe(401);
    expect((await readJson(asApi)).error).toEqual({
      code: 'EMAIL_LINK_USED',
      message: AUTH_MESSAGES.emailLinkUsed,
    });
    expect(await accountOf(userId)).toEqual({ email, emailVerified: false });
    // The link the server did mail still works.
    const mailed = await follow(await mailedLink(email));
    expect(mailed.headers.get('location')).toBe('/checkout?plan=pro');
    expect(cookieFrom(mailed)).toContain('tunedrop.session_token=');
  });

  it('a mailed link works once: followed again it says so and gives no session', async () => {
    const email = await signUp();
    const link = await mailedLink(email);
    const first = await follow(link);
    expect(first.headers.get('location')).toBe('/checkout?plan=pro');
    expect(cookieFrom(first)).toContain('tunedrop.session_token=');

    expectRefused(await follow(link), 'EMAIL_LINK_USED');
  });

  it('using one link spends the older links of the account', async () => {
    const email = await signUp();
    const older = await mailedLink(email);
    // A token is a JWT stamped to the second: one made in the same second would be the same link.
    await nextSecond();
    const resent = await system.request('/api/auth/resend-verification', { method: 'POST', json: { email } });
    expect(resent.status).toBe(200);
    const newer = await mailedLink(email);
    expect(newer).not.toBe(older);

    expect(cookieFrom(await follow(newer))).toContain('tunedrop.session_token=');
    expectRefused(await follow(older), 'EMAIL_LINK_USED');
  });

  it('an expired link says so, gives no session and leaves the newer link of the account usable', async () => {
    const email = await signUp();
    const userId = await idOf(email);
    const older = await mailedLink(email);
    await system.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, userId));
    await nextSecond();
    await system.request('/api/auth/resend-verification', { method: 'POST', json: { email } });
    const newer = await mailedLink(email);

    expectRefused(await follow(older), 'EMAIL_LINK_EXPIRED');
    expect(await accountOf(userId)).toEqual({ email, emailVerified: false });
    expect(cookieFrom(await follow(newer))).toContain('tunedrop.session_token=');
  });

  it('a verification link for an address the account no longer has is refused', async () => {
    const email = await signUp();
    const userId = await idOf(email);
    const link = await mailedLink(email);
    const other = uniqueEmail('moved');
    await system.db.update(user).set({ email: other }).where(eq(user.id, userId));

    expectRefused(await follow(link), 'EMAIL_LINK_STALE');
    expect(await accountOf(userId)).toEqual({ email: other, emailVerified: false });
  });

  it("a forged email-change token cannot change another account's address", async () => {
    const victim = await createTestUser(system);
    const attacker = uniqueEmail('attacker');
    for (const payload of [
      { userId: victim.userId },
      { userId: victim.userId, requestType: 'change-email-verification' },
    ]) {
      const token = await signedToken(victim.email, payload, attacker);
      expectRefused(
        await follow(`/api/auth/verify-email?token=${token}&callbackURL=%2Fdashboard`),
        'EMAIL_LINK_USED',
      );
    }
    expect((await accountOf(victim.userId))?.email).toBe(victim.email);
  });

  it('an email-change link works once: after A→B and back to A it does not change the address again', async () => {
    const owner = await createTestUser(system);
    const a = owner.email;
    const b = uniqueEmail('second');
    const toB = await issuedChangeLink(owner.userId, a, b);
    expect((await follow(toB)).headers.get('location')).toBe('/dashboard');
    expect((await accountOf(owner.userId))?.email).toBe(b);

    const backToA = await issuedChangeLink(owner.userId, b, a);
    expect((await follow(backToA)).headers.get('location')).toBe('/dashboard');
    expect((await accountOf(owner.userId))?.email).toBe(a);

    expectRefused(await follow(toB), 'EMAIL_LINK_USED');
    expect((await accountOf(owner.userId))?.email).toBe(a);
  });

  it('an email-change link issued before the address changed is refused, and stays spent after a change and back', async () => {
    const owner = await createTestUser(system);
    const a = owner.email;
    const stale = await issuedChangeLink(owner.userId, a, uniqueEmail('never'));
    // The address changes by other means (no link of this account is used), then comes back.
    const b = uniqueEmail('elsewhere');
    await system.db.update(user).set({ email: b }).where(eq(user.id, owner.userId));
    expectRefused(await follow(stale), 'EMAIL_LINK_STALE');
    expect((await accountOf(owner.userId))?.email).toBe(b);

    const stale2 = await issuedChangeLink(owner.userId, b, uniqueEmail('never'));
    const c = uniqueEmail('third');
    await follow(await issuedChangeLink(owner.userId, b, c));
    await follow(await issuedChangeLink(owner.userId, c, b));
    expect((await accountOf(owner.userId))?.email).toBe(b);
    expectRefused(await follow(stale2), 'EMAIL_LINK_USED');
    expect((await accountOf(owner.userId))?.email).toBe(b);
  });
});
