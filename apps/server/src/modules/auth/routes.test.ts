import { AUTH_MESSAGES } from '@tunedrop/shared/schemas/auth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, user } from '../../db/schema';
import {
  cookieFrom,
  firstLink,
  latestMail,
  mailCount,
  pathOf,
  sessionCookieLine,
  totpCode,
} from '../../test-support/auth-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

let counter = 0;
const uniqueEmail = (prefix = 'artist') => `${prefix}${++counter}-${Date.now() % 100000}@example.com`;
const strongPassword = 'Str0ng!Tunes';

function signupBody(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail(),
    fullName: 'Jane Doe',
    artistName: 'JD',
    password: strongPassword,
    confirmPassword: strongPassword,
    plan: 'pro',
    ...overrides,
  };
}

const signIn = (email: string, password: string, extra: Record<string, unknown> = {}, cookie?: string) =>
  system.request('/api/auth/sign-in/email', {
    method: 'POST',
    json: { email, password, ...extra },
    ...(cookie ? { cookie } : {}),
  });

describe('POST /api/auth/signup', () => {
  it('creates an unverified account with its profile and mails a link that leads to checkout', async () => {
    const body = signupBody({ email: 'New.Artist@Example.com' });
    const response = await system.request('/api/auth/signup', { method: 'POST', json: body });
    expect(response.status).toBe(201);
    expect(await readJson(response)).toEqual({ email: 'new.artist@example.com', plan: 'pro' });

    const [created] = await system.db.select().from(user).where(eq(user.email, 'new.artist@example.com'));
    expect(created?.emailVerified).toBe(false);
    const [profile] = await system.db
      .select()
      .from(profiles)
      .where(eq(profiles.id, created?.id ?? ''));
    expect(profile).toMatchObject({ fullName: 'Jane Doe', artistName: 'JD', plan: 'pro' });

    const mail = await latestMail(system.db, 'new.artist@example.com');
    expect(mail?.subject).toBe('Confirm your email for Tunedrop');
    const link = new URL(firstLink(mail?.text ?? ''));
    expect(link.origin).toBe('http://localhost:3000');
    expect(link.pathname).toBe('/api/auth/verify-email');
    expect(link.searchParams.get('callbackURL')).toBe('/checkout?plan=pro');
  });

  it('answers 422 with the first message of each field, in the order of §5', async () => {
    const response = await system.request('/api/auth/signup', {
      method: 'POST',
      json: signupBody({ email: 'bad email', password: 'lowercase1!', confirmPassword: '' }),
    });
    expect(response.status).toBe(422);
    const { error } = await readJson(response);
    expect(error.fields).toMatchObject({
      email: 'Email cannot contain spaces',
      password: 'Password must contain at least one uppercase letter',
      confirmPassword: 'Please confirm your password',
    });
  });

  it('re-checks the password against the address and the common list on the server', async () => {
    const email = uniqueEmail('melody');
    const containsEmail = await system.request('/api/auth/signup', {
      method: 'POST',
      json: signupBody({
        email,
        password: `X${email.split('@')[0]}1!`,
        confirmPassword: `X${email.split('@')[0]}1!`,
      }),
    });
    expect((await readJson(containsEmail)).error.fields.password).toBe(AUTH_MESSAGES.passwordContainsEmail);
    const common = await system.request('/api/auth/signup', {
      method: 'POST',
      json: signupBody({ password: 'Password123!', confirmPassword: 'Password123!' }),
    });
    expect((await readJson(common)).error.fields.password).toBe(AUTH_MESSAGES.passwordCommon);
  });

  it('puts "Please fill in all required fields" on the email field for blank names', async () => {
    const response = await system.request('/api/auth/signup', {
      method: 'POST',
      json: signupBody({ artistName: '   ' }),
    });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields.email).toBe('Please fill in all required fields');
  });

  it('signing up from a split invitation mails a link back to that invitation; a malformed token is refused', async () => {
    const token = 'Abc_def-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa';
    const email = uniqueEmail('collab');
    const response = await system.request('/api/auth/signup', {
      method: 'POST',
      json: signupBody({ email, invitation: token }),
    });
    expect(response.status).toBe(201);
    const link = new URL(firstLink((await latestMail(system.db, email))?.text ?? ''));
    expect(link.searchParams.get('callbackURL')).toBe(`/splits/invitations/${token}`);

    const forged = await system.request('/api/auth/signup', {
      method: 'POST',
      json: signupBody({ invitation: '../../checkout?x=1' }),
    });
    expect(forged.status).toBe(422);
    expect((await readJson(forged)).error.fields.invitation).toBeDefined();
  });

  it('refuses a plan other than basic or pro', async () => {
    const response = await system.request('/api/auth/signup', {
      method: 'POST',
      json: signupBody({ plan: 'enterprise' }),
    });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields.plan).toBeDefined();
  });

  it('answers 409 on the email field when the address is taken, in any letter case', async () => {
    const body = signupBody();
    expect((await system.request('/api/auth/signup', { method: 'POST', json: body })).status).toBe(201);
    const again = await system.request('/api/auth/signup', {
      method: 'POST',
      json: { ...body, email: body.email.toUpperCase() },
    });
    expect(again.status).toBe(409);
    const { error } = await readJson(again);
    expect(error.fields).toEqual({ email: 'This email is already registered. Please sign in instead.' });
  });

  it("better-auth's own sign-up endpoint stays closed", async () => {
    const response = await system.request('/api/auth/sign-up/email', {
      method: 'POST',
      json: { email: uniqueEmail(), password: strongPassword, name: 'X' },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
  });
});

describe('email verification', () => {
  it('following the link verifies, signs in and lands on /checkout?plan=<plan>', async () => {
    const body = signupBody({ plan: 'basic' });
    await system.request('/api/auth/signup', { method: 'POST', json: body });

    const before = await signIn(body.email, body.password);
    expect(before.status).toBe(403);
    expect((await readJson(before)).code).toBe('EMAIL_NOT_VERIFIED');

    const mail = await latestMail(system.db, body.email);
    const verify = await system.request(pathOf(firstLink(mail?.text ?? '')), { redirect: 'manual' });
    expect(verify.status).toBe(302);
    expect(verify.headers.get('location')).toBe('/checkout?plan=basic');
    const cookie = cookieFrom(verify);
    expect(cookie).toContain('tunedrop.session_token=');

    const me = await system.request('/api/me', { cookie });
    expect(me.status).toBe(200);
    const viewer = await readJson(me);
    expect(viewer.user).toMatchObject({ email: body.email, emailVerified: true });
    expect(viewer.profile.plan).toBe('basic');
  });

  it('a forged link does not verify', async () => {
    const response = await system.request(
      '/api/auth/verify-email?token=not-a-token&callbackURL=%2Fcheckout%3Fplan%3Dpro',
      { redirect: 'manual' },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toContain('error=');
    expect(cookieFrom(response)).not.toContain('session_token');
  });

  it('resending answers the same for unknown, unverified and verified addresses; mails only the unverified', async () => {
    const body = signupBody({ plan: 'pro' });
    await system.request('/api/auth/signup', { method: 'POST', json: body });
    const verified = await system.signedInUser();
    const unknown = uniqueEmail('nobody');

    const answers = [];
    for (const email of [body.email, verified.email, unknown]) {
      const response = await system.request('/api/auth/resend-verification', {
        method: 'POST',
        json: { email },
      });
      answers.push({ status: response.status, body: await readJson(response) });
    }
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(await mailCount(system.db, body.email)).toBe(2);
    expect(await mailCount(system.db, verified.email)).toBe(0);
    expect(await mailCount(system.db, unknown)).toBe(0);
    const link = new URL(firstLink((await latestMail(system.db, body.email))?.text ?? ''));
    expect(link.searchParams.get('callbackURL')).toBe('/checkout?plan=pro');
  });
});

describe('sign-in', () => {
  it('a wrong password and an unknown address get the same 401', async () => {
    const { email } = await system.signedInUser();
    const wrong = await signIn(email, 'Wrong!Passw0rd');
    const unknown = await signIn(uniqueEmail('ghost'), 'Wrong!Passw0rd');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect((await readJson(wrong)).code).toBe('INVALID_EMAIL_OR_PASSWORD');
    expect((await readJson(unknown)).code).toBe('INVALID_EMAIL_OR_PASSWORD');
  });

  it('an unverified account with the right password is told to verify; a wrong password is not', async () => {
    const body = signupBody();
    await system.request('/api/auth/signup', { method: 'POST', json: body });
    expect((await readJson(await signIn(body.email, body.password))).code).toBe('EMAIL_NOT_VERIFIED');
    expect((await readJson(await signIn(body.email, 'Wrong!Passw0rd'))).code).toBe(
      'INVALID_EMAIL_OR_PASSWORD',
    );
  });

  it('Remember me keeps the cookie for 30 days; without it the cookie ends with the browser', async () => {
    const { email, password } = await system.signedInUser();
    const remembered = sessionCookieLine(await signIn(email, password, { rememberMe: true }));
    expect(remembered).toMatch(/Max-Age=2592000/);
    expect(remembered).toMatch(/HttpOnly/);
    expect(remembered).toMatch(/SameSite=Lax/);
    const forgotten = await signIn(email, password, { rememberMe: false });
    expect(sessionCookieLine(forgotten)).not.toMatch(/Max-Age|Expires/);
    expect((await system.request('/api/me', { cookie: cookieFrom(forgotten) })).status).toBe(200);
  });

  it('a banned user can sign in and read their profile with the ban reason', async () => {
    const { cookie } = await system.signedInUser({ banReason: 'Copyright strikes' });
    const me = await readJson(await system.request('/api/me', { cookie }));
    expect(me.profile).toMatchObject({ banned: true, banReason: 'Copyright strikes' });
    // ...but the upload route refuses them with 403 and the reason.
    const upload = await system.request('/api/uploads', {
      method: 'POST',
      cookie,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '1000' },
    });
    expect(upload.status).toBe(403);
    expect((await readJson(upload)).error.message).toBe(
      'Your account has been banned from uploading music. Reason: Copyright strikes',
    );
  });

  it('sign-out ends only this session', async () => {
    const { email, password } = await system.signedInUser();
    const first = cookieFrom(await signIn(email, password));
    const second = cookieFrom(await signIn(email, password));
    const out = await system.request('/api/auth/sign-out', { method: 'POST', cookie: first, json: {} });
    expect(out.status).toBe(200);
    expect((await system.request('/api/me', { cookie: first })).status).toBe(401);
    expect((await system.request('/api/me', { cookie: second })).status).toBe(200);
  });

  it('refuses a write carrying a session from another origin', async () => {
    const { cookie } = await system.signedInUser();
    const response = await system.request('/api/me/profile', {
      method: 'PATCH',
      cookie,
      headers: { origin: 'https://evil.example' },
      json: { fullName: 'Evil', artistName: 'Evil' },
    });
    expect(response.status).toBe(403);
  });
});

describe('password reset', () => {
  async function requestReset(email: string) {
    return system.request('/api/auth/request-password-reset', {
      method: 'POST',
      json: { email, redirectTo: '/reset-password' },
    });
  }

  it('answers the same whether or not the address exists, and mails only a real account', async () => {
    const { email } = await system.signedInUser();
    const unknown = uniqueEmail('nobody');
    const known = await requestReset(email);
    const missing = await requestReset(unknown);
    expect(known.status).toBe(200);
    expect(missing.status).toBe(200);
    expect(await readJson(known)).toEqual(await readJson(missing));
    expect(await mailCount(system.db, email)).toBe(1);
    expect(await mailCount(system.db, unknown)).toBe(0);
  });

  it('the new password obeys the sign-up rules; a reset ends every old session', async () => {
    const { email, cookie } = await system.signedInUser({ email: uniqueEmail('reset') });
    await requestReset(email);
    const link = firstLink((await latestMail(system.db, email))?.text ?? '');
    const redirect = await system.request(pathOf(link), { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location') ?? '', 'http://localhost:3000');
    expect(location.pathname).toBe('/reset-password');
    const token = location.searchParams.get('token');
    expect(token).toBeTruthy();

    const reset = (newPassword: string) =>
      system.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword } });
    const weak = await reset('password');
    expect(weak.status).toBe(400);
    expect((await readJson(weak)).message).toBe(AUTH_MESSAGES.passwordUppercase);
    const common = await reset('Password123!');
    expect((await readJson(common)).message).toBe(AUTH_MESSAGES.passwordCommon);
    const localPart = email.split('@')[0] ?? '';
    const withEmail = await reset(`Q${localPart}1!`);
    expect((await readJson(withEmail)).message).toBe(AUTH_MESSAGES.passwordContainsEmail);

    const ok = await reset('N3w!Melodies');
    expect(ok.status).toBe(200);
    expect((await system.request('/api/me', { cookie })).status).toBe(401);
    expect((await signIn(email, 'Str0ng!Passw0rd')).status).toBe(401);
    expect((await signIn(email, 'N3w!Melodies')).status).toBe(200);
    // The link works once.
    expect((await reset('An0ther!Tune')).status).toBe(400);
  });
});

describe('password change', () => {
  it('asks for the current password, then the new one signs in and the old one does not', async () => {
    const { email, password, cookie } = await system.signedInUser();
    const wrong = await system.request('/api/auth/change-password', {
      method: 'POST',
      cookie,
      json: { currentPassword: 'Not!MyPassw0rd', newPassword: 'Brand!New1', revokeOtherSessions: true },
    });
    expect(wrong.status).toBe(400);
    expect((await readJson(wrong)).message).toBe('Invalid password');

    const tooShort = await system.request('/api/auth/change-password', {
      method: 'POST',
      cookie,
      json: { currentPassword: password, newPassword: 'short', revokeOtherSessions: true },
    });
    expect(tooShort.status).toBe(400);

    const changed = await system.request('/api/auth/change-password', {
      method: 'POST',
      cookie,
      json: { currentPassword: password, newPassword: 'Brand!New1', revokeOtherSessions: true },
    });
    expect(changed.status).toBe(200);
    // This device keeps a fresh session; others were signed out.
    expect((await system.request('/api/me', { cookie: cookieFrom(changed, cookie) })).status).toBe(200);
    expect((await system.request('/api/me', { cookie })).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await signIn(email, 'Brand!New1')).status).toBe(200);
  });
});

describe('two-factor', () => {
  it('enrols with a code, then sign-in asks for a code, then it turns off only with a code', async () => {
    const { email, password, cookie: firstCookie } = await system.signedInUser();
    let cookie = firstCookie;
    const enable = await system.request('/api/auth/two-factor/enable', {
      method: 'POST',
      cookie,
      json: { password },
    });
    expect(enable.status).toBe(200);
    const { totpURI, backupCodes } = await readJson(enable);
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Tunedrop:/);
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    cookie = cookieFrom(enable, cookie);

    // Not on until a code from the app confirms the enrolment.
    expect((await readJson(await system.request('/api/me', { cookie }))).user.twoFactorEnabled).toBe(false);
    const confirm = await system.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      cookie,
      json: { code: totpCode(totpURI) },
    });
    expect(confirm.status).toBe(200);
    cookie = cookieFrom(confirm, cookie);
    expect((await readJson(await system.request('/api/me', { cookie }))).user.twoFactorEnabled).toBe(true);

    // Sign-in stops at the second factor.
    const first = await signIn(email, password);
    expect(first.status).toBe(200);
    expect(await readJson(first)).toMatchObject({ twoFactorRedirect: true });
    const pending = cookieFrom(first);
    expect(pending).not.toContain('session_token');
    const bad = await system.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      cookie: pending,
      json: { code: '000000' === totpCode(totpURI) ? '111111' : '000000' },
    });
    expect(bad.status).toBe(401);
    const good = await system.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      cookie: pending,
      json: { code: totpCode(totpURI) },
    });
    expect(good.status).toBe(200);
    const signedIn = cookieFrom(good, pending);
    expect((await system.request('/api/me', { cookie: signedIn })).status).toBe(200);

    // A backup code also passes the second factor, once.
    const viaBackup = cookieFrom(await signIn(email, password));
    const backup = await system.request('/api/auth/two-factor/verify-backup-code', {
      method: 'POST',
      cookie: viaBackup,
      json: { code: backupCodes[0] },
    });
    expect(backup.status).toBe(200);

    // Turning it off takes the password and a code.
    const disable = (json: Record<string, unknown>) =>
      system.request('/api/auth/two-factor/disable', { method: 'POST', cookie: signedIn, json });
    const noCode = await disable({ password });
    expect(noCode.status).toBe(400);
    expect((await readJson(noCode)).message).toBe('Please enter the code from your authenticator app.');
    const wrongCode = await disable({ password, code: '12345' });
    expect((await readJson(wrongCode)).message).toBe('Invalid code');
    const wrongPassword = await disable({ password: 'Nope!Nope1', code: totpCode(totpURI) });
    expect(wrongPassword.status).toBe(400);
    const off = await disable({ password, code: totpCode(totpURI) });
    expect(off.status).toBe(200);
    const after = cookieFrom(off, signedIn);
    expect((await readJson(await system.request('/api/me', { cookie: after }))).user.twoFactorEnabled).toBe(
      false,
    );
    const plain = await signIn(email, password);
    expect(await readJson(plain)).not.toHaveProperty('twoFactorRedirect');
  });
});

describe('/api/me', () => {
  it('answers 401 without a session', async () => {
    const response = await system.request('/api/me');
    expect(response.status).toBe(401);
  });

  it('returns user, profile with plan and subscription, and roles in one call', async () => {
    const end = new Date(Date.now() + 10 * 24 * 3600 * 1000);
    const { cookie, email, userId } = await system.signedInUser({
      plan: 'pro',
      roles: ['moderator'],
      subscription: 'canceled',
      subscriptionEnd: end,
      fullName: 'Mo Derator',
      artistName: 'Mod',
    });
    const me = await readJson(await system.request('/api/me', { cookie }));
    expect(me).toEqual({
      user: { id: userId, email, name: 'Mo Derator', emailVerified: true, twoFactorEnabled: false },
      profile: {
        plan: 'pro',
        fullName: 'Mo Derator',
        artistName: 'Mod',
        banned: false,
        banReason: null,
        subscriptionStatus: 'canceled',
        subscriptionEnd: end.toISOString(),
      },
      roles: ['moderator'],
      isPayee: false,
      // The person's own account (record 202); a member who switched would see the owner's id and role.
      account: { id: userId, role: 'owner' },
    });
  });

  it('updates full name and artist name, trimmed; blank names are refused', async () => {
    const { cookie } = await system.signedInUser();
    const updated = await system.request('/api/me/profile', {
      method: 'PATCH',
      cookie,
      json: { fullName: '  Jane Q. Doe ', artistName: 'JQD' },
    });
    expect(updated.status).toBe(200);
    expect((await readJson(updated)).profile).toEqual({ fullName: 'Jane Q. Doe', artistName: 'JQD' });
    const me = await readJson(await system.request('/api/me', { cookie }));
    expect(me.profile).toMatchObject({ fullName: 'Jane Q. Doe', artistName: 'JQD' });
    expect(me.user.name).toBe('Jane Q. Doe');

    const blank = await system.request('/api/me/profile', {
      method: 'PATCH',
      cookie,
      json: { fullName: ' ', artistName: 'JQD' },
    });
    expect(blank.status).toBe(422);
    expect((await readJson(blank)).error.fields.fullName).toBe('Please fill in all required fields');
    expect((await system.request('/api/me/profile', { method: 'PATCH', json: {} })).status).toBe(401);
  });

  it('counts only my releases for Total Releases', async () => {
    const mine = await system.signedInUser();
    const other = await system.signedInUser();
    await createTestRelease(system, mine.userId);
    await createTestRelease(system, mine.userId, { status: 'approved' });
    await createTestRelease(system, other.userId);
    const stats = await readJson(await system.request('/api/me/stats', { cookie: mine.cookie }));
    expect(stats).toEqual({ totalReleases: 2 });
    const empty = await system.signedInUser();
    expect(await readJson(await system.request('/api/me/stats', { cookie: empty.cookie }))).toEqual({
      totalReleases: 0,
    });
  });
});
