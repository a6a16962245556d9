import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLink, latestMail, pathOf } from '../../test-support/auth-fixtures';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { ACCOUNT_LIMITS } from './rate-limit';
import { KNOWN_DEVICE_COOKIE, SIGN_IN_LIMITS } from './sign-in-limits';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem({ RATE_LIMITS: 'on' });
});
afterAll(async () => {
  await system.close();
});

let counter = 0;
const uniqueEmail = () => `limited${++counter}@example.com`;
/** Each request can come from its own address, so the per-account limit shows on its own. */
const from = (ip: string) => ({ 'x-test-client-ip': ip });
const WRONG = 'Wrong!Passw0rd';

function signIn(ip: string, email: string, password: string, cookie?: string): Promise<Response> {
  return system.request('/api/auth/sign-in/email', {
    method: 'POST',
    headers: from(ip),
    json: { email, password },
    ...(cookie ? { cookie } : {}),
  });
}

/** One after the other, so each answer sees the counters the previous ones left. */
async function signInMany(attempts: { ip: string; email: string; password: string }[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const attempt of attempts) {
    statuses.push((await signIn(attempt.ip, attempt.email, attempt.password)).status);
  }
  return statuses;
}

describe('abuse limits', { timeout: 120_000 }, () => {
  it('sign-in: a stranger guessing from one address is stopped there; the owner elsewhere signs in', async () => {
    const owner = await createTestUser(system);
    const statuses = await signInMany(
      Array.from({ length: SIGN_IN_LIMITS.perAccountAndAddress.max + 2 }, () => ({
        ip: '10.0.1.1',
        email: owner.email,
        password: WRONG,
      })),
    );
    const max = SIGN_IN_LIMITS.perAccountAndAddress.max;
    expect(statuses.slice(0, max).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(max)).toEqual([429, 429]);
    const blocked = await signIn('10.0.1.1', owner.email.toUpperCase(), WRONG);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await readJson(blocked)).message).toMatch(
      /^Too many attempts for this email address\. Please wait \d+ minutes? and try again\.$/,
    );
    // The owner, at home on another address with no history, is not affected.
    expect((await signIn('10.0.1.2', owner.email, owner.password)).status).toBe(200);
  });

  it("sign-in: guesses spread over many addresses stop at the account cap, but not for the owner's known browser", async () => {
    const owner = await createTestUser(system);
    // The owner signed in from this browser before: it carries the known-device cookie.
    const earlier = await signIn('10.0.9.1', owner.email, owner.password);
    expect(earlier.status).toBe(200);
    const deviceCookie = (earlier.headers.get('set-cookie') ?? '')
      .split(/,(?=\s*[\w.-]+=)/)
      .map((part) => part.trim().split(';')[0] ?? '')
      .find((part) => part.startsWith(`${KNOWN_DEVICE_COOKIE}=`));
    expect(deviceCookie).toBeDefined();

    const cap = SIGN_IN_LIMITS.perAccountUnknownDevice.max;
    const spread = await signInMany(
      Array.from({ length: cap + 1 }, (_, index) => ({
        ip: `10.1.${Math.floor(index / 5)}.${index % 5}`,
        email: owner.email,
        password: WRONG,
      })),
    );
    expect(spread.filter((status) => status === 401)).toHaveLength(cap);
    expect(spread.filter((status) => status === 429)).toHaveLength(1);
    // A new address without the cookie waits (the stated trade, decision 085)...
    expect((await signIn('10.0.9.2', owner.email, WRONG)).status).toBe(429);
    // ...but the owner's own browser, even on a new network, signs in with the correct password.
    const owners = await signIn('10.0.9.3', owner.email, owner.password, deviceCookie);
    expect(owners.status).toBe(200);
    // A cookie made for another account does not help.
    const other = await createTestUser(system);
    const otherCookie =
      (await signIn('10.0.9.4', other.email, other.password)).headers.get('set-cookie') ?? '';
    const forged = otherCookie.match(new RegExp(`${KNOWN_DEVICE_COOKIE}=[^;]+`))?.[0];
    expect((await signIn('10.0.9.5', owner.email, owner.password, forged)).status).toBe(429);

    // On a new browser the owner proves the mailbox with a password reset; that browser is then known.
    const requested = await system.request('/api/auth/request-password-reset', {
      method: 'POST',
      headers: from('10.0.9.6'),
      json: { email: owner.email, redirectTo: '/reset-password' },
    });
    expect(requested.status).toBe(200);
    const link = firstLink((await latestMail(system.db, owner.email))?.text ?? '');
    const redirect = await system.request(pathOf(link), { redirect: 'manual', headers: from('10.0.9.6') });
    const token = new URL(redirect.headers.get('location') ?? '', 'http://localhost:3000').searchParams.get(
      'token',
    );
    const reset = await system.request('/api/auth/reset-password', {
      method: 'POST',
      headers: from('10.0.9.6'),
      json: { token, newPassword: 'N3w!Melodies' },
    });
    expect(reset.status).toBe(200);
    const resetCookie = reset.headers
      .get('set-cookie')
      ?.match(new RegExp(`${KNOWN_DEVICE_COOKIE}=[^;]+`))?.[0];
    expect(resetCookie).toBeDefined();
    expect((await signIn('10.0.9.6', owner.email, 'N3w!Melodies')).status).toBe(429);
    expect((await signIn('10.0.9.6', owner.email, 'N3w!Melodies', resetCookie)).status).toBe(200);
  });

  it('sign-in: a known-device cookie computed from the email and a secret does not lift the account cap', async () => {
    const owner = await createTestUser(system);
    const cap = SIGN_IN_LIMITS.perAccountUnknownDevice.max;
    const spread = await signInMany(
      Array.from({ length: cap + 1 }, (_, index) => ({
        ip: `10.2.${Math.floor(index / 5)}.${index % 5}`,
        email: owner.email,
        password: WRONG,
      })),
    );
    expect(spread.filter((status) => status === 429)).toHaveLength(1);
    // The cookie as it used to be made (an HMAC of the email under the public development secret, and
    // under this server's own secret), beside a made-up value of the current shape.
    const computed = (secret: string) => {
      const key = createHmac('sha256', secret).update('tunedrop:known-device:v1').digest();
      return createHmac('sha256', key).update(owner.email).digest('base64url').slice(0, 22);
    };
    const madeUp = 'A'.repeat(32);
    for (const value of [
      computed('tunedrop-development-secret-change-me-in-production'),
      computed(system.config.appSecret),
      madeUp,
    ]) {
      const attempt = await signIn(
        '10.2.9.1',
        owner.email,
        owner.password,
        `${KNOWN_DEVICE_COOKIE}=${value}`,
      );
      expect(attempt.status).toBe(429);
    }
    const all = `${KNOWN_DEVICE_COOKIE}=${computed('tunedrop-development-secret-change-me-in-production')}.${madeUp}`;
    expect((await signIn('10.2.9.2', owner.email, owner.password, all)).status).toBe(429);
  });

  it('sign-in: eleven or more artists behind one office NAT never lock each other out', async () => {
    const artists = await Promise.all(Array.from({ length: 12 }, () => createTestUser(system)));
    for (let round = 0; round < 3; round++) {
      const statuses = await signInMany(
        artists.map((artist) => ({ ip: '10.0.2.1', email: artist.email, password: artist.password })),
      );
      expect(statuses).toEqual(artists.map(() => 200));
    }
    // A few typos on the way do not lock anybody out either.
    const typos = await signInMany(
      artists.slice(0, 5).map((artist) => ({ ip: '10.0.2.1', email: artist.email, password: WRONG })),
    );
    expect(typos).toEqual([401, 401, 401, 401, 401]);
    expect((await signIn('10.0.2.1', artists[0]?.email ?? '', artists[0]?.password ?? '')).status).toBe(200);
  });

  it('sign-in: one address spraying many accounts is stopped after its failures, counted across accounts', async () => {
    // A colleague behind the same address signed in before, from this browser.
    const colleague = await createTestUser(system);
    const earlier = await signIn('10.0.3.9', colleague.email, colleague.password);
    const colleagueCookie = earlier.headers
      .get('set-cookie')
      ?.match(new RegExp(`${KNOWN_DEVICE_COOKIE}=[^;]+`))?.[0];
    expect(colleagueCookie).toBeDefined();

    const cap = SIGN_IN_LIMITS.perAddress.max;
    const statuses = await signInMany(
      Array.from({ length: cap + 1 }, () => ({ ip: '10.0.3.9', email: uniqueEmail(), password: WRONG })),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(cap);
    const last = await signIn('10.0.3.9', uniqueEmail(), WRONG);
    expect(last.status).toBe(429);
    expect((await readJson(last)).message).toMatch(/^Too many attempts from your network\./);
    // The sprayer behind the shared address does not stop the colleague's known browser.
    expect((await signIn('10.0.3.9', colleague.email, colleague.password, colleagueCookie)).status).toBe(200);
  });

  it('sign-in: 40 parallel guesses for one account from one address get at most 10 password checks', async () => {
    const owner = await createTestUser(system);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => signIn('10.0.4.4', owner.email, WRONG).then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_LIMITS.perAccountAndAddress.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      40 - SIGN_IN_LIMITS.perAccountAndAddress.max,
    );
  });

  it('sign-up: per address and per email, with Retry-After', async () => {
    const body = (email: string) => ({
      email,
      fullName: 'Jane',
      artistName: 'JD',
      password: 'Str0ng!Tunes',
      confirmPassword: 'Str0ng!Tunes',
      plan: 'basic',
    });
    for (let attempt = 0; attempt < ACCOUNT_LIMITS.signupPerAddress.max; attempt++) {
      const response = await system.request('/api/auth/signup', {
        method: 'POST',
        headers: from('10.0.3.1'),
        json: body(uniqueEmail()),
      });
      expect(response.status).toBe(201);
    }
    const blocked = await system.request('/api/auth/signup', {
      method: 'POST',
      headers: from('10.0.3.1'),
      json: body(uniqueEmail()),
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await readJson(blocked)).error.message).toMatch(/^Too many attempts from your network\./);

    const email = uniqueEmail();
    const statuses = [];
    for (let attempt = 0; attempt <= ACCOUNT_LIMITS.signupPerEmail.max; attempt++) {
      const response = await system.request('/api/auth/signup', {
        method: 'POST',
        headers: from(`10.0.4.${attempt}`),
        json: body(email),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([201, 409, 409, 429]);
  });

  it('password reset requests: per email', async () => {
    const { email } = await createTestUser(system);
    const statuses = [];
    for (let attempt = 0; attempt <= ACCOUNT_LIMITS.resetPerEmail.max; attempt++) {
      const response = await system.request('/api/auth/request-password-reset', {
        method: 'POST',
        headers: from(`10.0.5.${attempt}`),
        json: { email, redirectTo: '/reset-password' },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('verification resends: per email (the sign-up mail counts) and per address', async () => {
    const email = uniqueEmail();
    await system.request('/api/auth/signup', {
      method: 'POST',
      headers: from('10.0.6.1'),
      json: {
        email,
        fullName: 'Jane',
        artistName: 'JD',
        password: 'Str0ng!Tunes',
        confirmPassword: 'Str0ng!Tunes',
        plan: 'pro',
      },
    });
    const statuses = [];
    for (let attempt = 0; attempt < ACCOUNT_LIMITS.resendPerEmail.max; attempt++) {
      const response = await system.request('/api/auth/resend-verification', {
        method: 'POST',
        headers: from(`10.0.7.${attempt}`),
        json: { email },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);

    const perAddress = [];
    for (let attempt = 0; attempt <= ACCOUNT_LIMITS.resendPerAddress.max; attempt++) {
      const response = await system.request('/api/auth/resend-verification', {
        method: 'POST',
        headers: from('10.0.8.1'),
        json: { email: uniqueEmail() },
      });
      perAddress.push(response.status);
    }
    expect(perAddress.at(-1)).toBe(429);
    expect(perAddress.slice(0, -1).every((status) => status === 200)).toBe(true);
  });
});
