/** better-auth's update-user is closed: names change only through the profile route, in step with profiles. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, user } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system.close();
});

async function names(userId: string) {
  const [account] = await system.db
    .select({ name: user.name, image: user.image })
    .from(user)
    .where(eq(user.id, userId));
  const [profile] = await system.db
    .select({ fullName: profiles.fullName, artistName: profiles.artistName })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return {
    name: account?.name,
    image: account?.image,
    fullName: profile?.fullName,
    artistName: profile?.artistName,
  };
}

describe('POST /api/auth/update-user', () => {
  it.each([
    ['a name with CR/LF', { name: 'Evil\r\nBcc: victim@example.com' }],
    ['a megabyte of text', { name: 'x'.repeat(1024 * 1024 - 100) }],
    ['a javascript: image', { image: 'javascript:alert(1)' }],
    ['a plain new name', { name: 'Someone Else' }],
  ])('refuses %s and changes nothing', async (_, body) => {
    const artist = await system.signedInUser({ fullName: 'Jane Doe', artistName: 'JD' });
    const before = await names(artist.userId);
    const response = await system.request('/api/auth/update-user', {
      method: 'POST',
      cookie: artist.cookie,
      json: body,
    });
    expect(response.status).toBe(404);
    expect(await names(artist.userId)).toEqual(before);
    expect(before).toMatchObject({ name: 'Jane Doe', fullName: 'Jane Doe', image: null });
  });

  it('the profile route still renames, keeping user.name in step with profiles', async () => {
    const artist = await system.signedInUser({ fullName: 'Jane Doe', artistName: 'JD' });
    const response = await system.request('/api/me/profile', {
      method: 'PATCH',
      cookie: artist.cookie,
      json: { fullName: 'Jane Smith', artistName: 'JS' },
    });
    expect(response.status).toBe(200);
    expect((await readJson(response)).profile).toEqual({ fullName: 'Jane Smith', artistName: 'JS' });
    expect(await names(artist.userId)).toEqual({
      name: 'Jane Smith',
      image: null,
      fullName: 'Jane Smith',
      artistName: 'JS',
    });
  });
});
