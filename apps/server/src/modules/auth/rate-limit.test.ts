import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { ACCOUNT_LIMITS } from './rate-limit';

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

describe('abuse limits', () => {
  it('sign-in: per account, whatever address the attempts come from', async () => {
    const { email } = await createTestUser(system);
    for (let attempt = 0; attempt < ACCOUNT_LIMITS.signInPerEmail.max; attempt++) {
      const response = await system.request('/api/auth/sign-in/email', {
        method: 'POST',
        headers: from(`10.0.1.${attempt}`),
        json: { email, password: 'Wrong!Passw0rd' },
      });
      expect(response.status).toBe(401);
    }
    const blocked = await system.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: from('10.0.1.200'),
      json: { email: email.toUpperCase(), password: 'Wrong!Passw0rd' },
    });
    expect(blocked.status).toBe(429);
    expect((await readJson(blocked)).message).toMatch(
      /^Too many attempts for this email address\. Please wait \d+ minutes? and try again\.$/,
    );
    // Another account from the same address is not affected.
    const other = await createTestUser(system);
    const fine = await system.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: from('10.0.1.200'),
      json: { email: other.email, password: other.password },
    });
    expect(fine.status).toBe(200);
  });

  it('sign-in: per address (better-auth), across accounts', async () => {
    let last: Response | undefined;
    for (let attempt = 0; attempt < 11; attempt++) {
      last = await system.request('/api/auth/sign-in/email', {
        method: 'POST',
        headers: from('10.0.2.1'),
        json: { email: uniqueEmail(), password: 'Wrong!Passw0rd' },
      });
    }
    expect(last?.status).toBe(429);
    expect((await readJson(last as Response)).message).toBe('Too many requests. Please try again later.');
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
