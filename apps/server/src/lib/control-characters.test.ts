/** NUL and control characters are refused with 422 everywhere a person types (issue 13, point 7). */
import { TEXT_MESSAGES } from '@tunedrop/shared/text';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

const NUL = '\u0000';

async function expect422(response: Response, message: string = TEXT_MESSAGES.controlCharacters) {
  expect(response.status, await response.clone().text()).toBe(422);
  const body = await readJson(response);
  expect(body.error.code).toBe('validation_error');
  expect(body.error.message).toBe(message);
}

describe('control characters', () => {
  it('sign-in with a NUL in the email or the password: 422, not 500', async () => {
    const artist = await system.signedInUser();
    await expect422(
      await system.request('/api/auth/sign-in/email', {
        method: 'POST',
        json: { email: `${artist.email}${NUL}`, password: artist.password },
      }),
    );
    await expect422(
      await system.request('/api/auth/sign-in/email', {
        method: 'POST',
        json: { email: artist.email, password: `${artist.password}${NUL}` },
      }),
    );
    // The same account still signs in.
    const ok = await system.request('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: artist.email, password: artist.password },
    });
    expect(ok.status).toBe(200);
  });

  it('password reset request and reset with a NUL: 422', async () => {
    await expect422(
      await system.request('/api/auth/request-password-reset', {
        method: 'POST',
        json: { email: `someone${NUL}@example.com`, redirectTo: '/reset-password' },
      }),
    );
    await expect422(
      await system.request('/api/auth/reset-password', {
        method: 'POST',
        json: { token: `abc${NUL}`, newPassword: 'Str0ng!Tunes' },
      }),
    );
    await expect422(
      await system.request(`/api/auth/reset-password/abc%00def?callbackURL=%2Freset-password`, {
        method: 'GET',
      }),
    );
  });

  it('profile: NUL 422; a line break in a one-line field 422; nothing changes', async () => {
    const artist = await system.signedInUser({ artistName: 'Before' });
    await expect422(
      await system.request('/api/me/profile', {
        method: 'PATCH',
        cookie: artist.cookie,
        json: { fullName: `Jane${NUL}Doe`, artistName: 'After' },
      }),
    );
    await expect422(
      await system.request('/api/me/profile', {
        method: 'PATCH',
        cookie: artist.cookie,
        json: { fullName: 'Jane Doe', artistName: 'After\r\nSet-Cookie: x' },
      }),
      TEXT_MESSAGES.lineBreaks,
    );
    const [profile] = await system.db.select().from(profiles).where(eq(profiles.id, artist.userId));
    expect(profile?.artistName).toBe('Before');
  });

  it('admin searches with a NUL: 422', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    for (const path of [
      '/api/admin/users?q=a%00b',
      '/api/admin/withdrawals?q=%00',
      '/api/admin/balances/search?q=%00',
      '/api/admin/releases?q=x%00',
      '/api/admin/messages?q=%00',
    ]) {
      const response = await system.request(path, { cookie: admin.cookie });
      expect(response.status, path).toBe(422);
    }
    // An ordinary search still works.
    expect((await system.request('/api/admin/users?q=ab', { cookie: admin.cookie })).status).toBe(200);
  });

  it('a NUL in a path segment or a contact form: 422', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    const response = await system.request('/api/admin/users/abc%00/ban', {
      method: 'POST',
      cookie: admin.cookie,
      json: { reason: 'spam' },
    });
    expect(response.status).toBe(422);
    await expect422(
      await system.request('/api/contact', {
        method: 'POST',
        json: { name: `A${NUL}`, companyName: 'Label', email: 'a@example.com', links: [] },
      }),
    );
  });

  it('a multi-line field keeps its line breaks but refuses other control characters', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    const artist = await system.signedInUser();
    await expect422(
      await system.request(`/api/admin/users/${artist.userId}/ban`, {
        method: 'POST',
        cookie: admin.cookie,
        json: { reason: `Spam\u0007links` },
      }),
    );
    const banned = await system.request(`/api/admin/users/${artist.userId}/ban`, {
      method: 'POST',
      cookie: admin.cookie,
      json: { reason: 'Spam links.\nSee ticket 42.' },
    });
    expect(banned.status, await banned.clone().text()).toBe(200);
    const [profile] = await system.db.select().from(profiles).where(eq(profiles.id, artist.userId));
    expect(profile?.banReason).toBe('Spam links.\nSee ticket 42.');
  });
});
