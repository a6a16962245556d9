/** Password change (issue 18): the new password passes every sign-up rule on the server too, not only 8 characters. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

async function changePassword(cookie: string, currentPassword: string, newPassword: string) {
  return system.request('/api/auth/change-password', {
    method: 'POST',
    cookie,
    json: { currentPassword, newPassword },
  });
}

async function signInStatus(email: string, password: string) {
  const response = await system.request('/api/auth/sign-in/email', {
    method: 'POST',
    json: { email, password },
  });
  return response.status;
}

describe('POST /api/auth/change-password', () => {
  it.each([
    ['password', 'Password must contain at least one uppercase letter'],
    ['Password1!', 'Please use a stronger password'],
    ['Longenough1', 'Password must contain at least one special character'],
    ['With space1!', 'Password cannot contain spaces'],
  ])('refuses %s with the sign-up message and keeps the old password', async (newPassword, message) => {
    const artist = await system.signedInUser();
    const response = await changePassword(artist.cookie, artist.password, newPassword);
    expect(response.status).toBe(400);
    expect((await readJson(response)).message).toBe(message);
    expect(await signInStatus(artist.email, newPassword)).toBe(401);
    expect(await signInStatus(artist.email, artist.password)).toBe(200);
  });

  it('refuses a password containing the part of the address before the @', async () => {
    const artist = await system.signedInUser();
    const local = artist.email.split('@')[0] ?? '';
    const response = await changePassword(artist.cookie, artist.password, `Zz9!${local}`);
    expect(response.status).toBe(400);
    expect((await readJson(response)).message).toBe('Password cannot contain your email address');
  });

  it('accepts a password that passes every rule', async () => {
    const artist = await system.signedInUser();
    const response = await changePassword(artist.cookie, artist.password, 'N3w!Tunes-ok');
    expect(response.status).toBe(200);
    expect(await signInStatus(artist.email, 'N3w!Tunes-ok')).toBe(200);
  });
});
