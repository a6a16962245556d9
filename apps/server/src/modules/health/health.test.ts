import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(() => system.close());

describe('GET /api/health', () => {
  it('answers ok once migrations have run', async () => {
    const response = await system.request('/api/health');
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ status: 'ok' });
  });

  it('answers JSON 404 for unknown API paths', async () => {
    const response = await system.request('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await readJson(response)).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });
});

describe('GET /api/me', () => {
  it('refuses visitors with 401', async () => {
    const response = await system.request('/api/me');
    expect(response.status).toBe(401);
    expect((await readJson(response)).error.code).toBe('unauthorized');
  });

  it('returns the user, profile and roles of the signed-in user', async () => {
    const user = await system.signedInUser({ plan: 'pro', roles: ['moderator'], artistName: 'Nova' });
    const response = await system.request('/api/me', { cookie: user.cookie });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.user.email).toBe(user.email);
    expect(body.profile).toMatchObject({
      plan: 'pro',
      artistName: 'Nova',
      subscriptionStatus: 'active',
      banned: false,
    });
    expect(body.roles).toEqual(['moderator']);
  });

  it('refuses a write from another origin', async () => {
    const response = await system.request('/api/auth/sign-out', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });
});
