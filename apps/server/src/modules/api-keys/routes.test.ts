/**
 * API keys and the public API v1 (issue 40, record 290), over HTTP on the real database: keys made by the
 * owner or a team admin and shown once, stored hashed; a key acts as its maker on its account within its
 * scopes, only under /api/v1; revocation, expiry, a member's removal, the rate limit with Retry-After, and
 * Idempotency-Key on POSTs.
 */
import { createHash } from 'node:crypto';
import { API_KEY_TEXTS } from '@tunedrop/shared/schemas/api-keys';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { apiKeys, artistProfiles } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { joinTeam } from '../../test-support/team-fixtures';

let system: TestSystem;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let owner: Person;
let releaseId: string;

beforeAll(async () => {
  system = await createTestSystem({ API_KEY_RATE_LIMIT: '5' });
  owner = await system.signedInUser({ plan: 'pro', artistName: 'Key Label' });
  releaseId = (await createTestRelease(system, owner.userId, { trackCount: 1 })).releaseId;
});
afterAll(async () => {
  await system?.close();
});

async function makeKey(cookie: string, scopes: string[], name = 'Catalogue sync') {
  const response = await system.request('/api/api-keys', { method: 'POST', cookie, json: { name, scopes } });
  const body = await readJson(response);
  return { response, body, key: body.key as string };
}
const withKey = (key: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
  system.request(path, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });

describe('API keys', () => {
  it('are shown once, stored as their SHA-256, listed without the key', async () => {
    const { response, body, key } = await makeKey(owner.cookie, ['catalogue:read']);
    expect(response.status).toBe(201);
    expect(key).toMatch(/^td_live_[A-Za-z0-9_-]{43}$/);
    expect(body.created).toMatchObject({
      name: 'Catalogue sync',
      scopes: ['catalogue:read'],
      revokedAt: null,
    });
    const [row] = await system.db.select().from(apiKeys).where(eq(apiKeys.id, body.created.id));
    expect(row?.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);
    const listed = await readJson(await system.request('/api/api-keys', { cookie: owner.cookie }));
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(listed.keys[0]).toMatchObject({ id: body.created.id, start: key.slice(0, 12), lastUsedAt: null });
  });

  it('act as the account within their scopes, only under /api/v1', async () => {
    const { key } = await makeKey(owner.cookie, ['catalogue:read']);
    const listed = await withKey(key, '/api/v1/releases');
    expect(listed.status).toBe(200);
    expect((await readJson(listed)).items.map((r: { id: string }) => r.id)).toContain(releaseId);
    expect((await withKey(key, `/api/v1/releases/${releaseId}`)).status).toBe(200);
    // The app's own routes take sessions only.
    expect((await withKey(key, '/api/releases')).status).toBe(401);
    const statements = await withKey(key, '/api/v1/royalties/statements');
    expect(statements.status).toBe(403);
    expect((await readJson(statements)).error).toEqual({
      code: 'forbidden_scope',
      message: API_KEY_TEXTS.forbiddenScope('statements:read'),
    });
    const [row] = await system.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hashOf(key)));
    expect(row?.lastUsedAt).not.toBeNull();
  });

  it('never reach another account’s rows, nor staff routes without admin:*', async () => {
    const other = await system.signedInUser({ plan: 'pro' });
    const { key } = await makeKey(other.cookie, ['catalogue:read']);
    expect((await withKey(key, `/api/v1/releases/${releaseId}`)).status).toBe(404);
    const refused = await makeKey(other.cookie, ['admin:*']);
    expect(refused.response.status).toBe(403);
    expect(refused.body.error.message).toBe(API_KEY_TEXTS.adminScopeStaffOnly);
  });

  it('stop working when revoked or invalid', async () => {
    const { key, body } = await makeKey(owner.cookie, ['catalogue:read']);
    const revoked = await system.request(`/api/api-keys/${body.created.id}`, {
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(revoked.status).toBe(200);
    const answer = await withKey(key, '/api/v1/releases');
    expect(answer.status).toBe(401);
    expect((await readJson(answer)).error.code).toBe('invalid_api_key');
    expect((await withKey(`${key}x`, '/api/v1/releases')).status).toBe(401);
    expect((await withKey('not-a-key', '/api/v1/releases')).status).toBe(401);
  });

  it('are limited per key per minute with 429 and Retry-After', async () => {
    const { key } = await makeKey(owner.cookie, ['catalogue:read']);
    for (let i = 0; i < 5; i += 1) expect((await withKey(key, '/api/v1/team')).status).toBe(200);
    const limited = await withKey(key, '/api/v1/team');
    expect(limited.status).toBe(429);
    expect((await readJson(limited)).error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another key of the same account has its own count.
    const other = await makeKey(owner.cookie, ['catalogue:read']);
    expect((await withKey(other.key, '/api/v1/team')).status).toBe(200);
  });

  it('are managed by the owner or a team admin, and act with their maker’s current role', async () => {
    const admin = await joinAs('admin');
    const viewer = await joinAs('viewer');
    const refused = await makeKey(viewer.acting, ['catalogue:read']);
    expect(refused.response.status).toBe(403);
    expect(refused.body.error.message).toBe(API_KEY_TEXTS.managersOnly);
    const { key } = await makeKey(admin.acting, ['catalogue:read']);
    expect((await withKey(key, `/api/v1/releases/${releaseId}`)).status).toBe(200);
    const removed = await system.request(`/api/team/members/${admin.userId}`, {
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(removed.status).toBe(200);
    expect((await withKey(key, `/api/v1/releases/${releaseId}`)).status).toBe(401);
  });

  it('replays a POST retried with the same Idempotency-Key and refuses it with another body', async () => {
    const { key } = await makeKey(owner.cookie, ['catalogue:write']);
    const post = (name: string) =>
      withKey(key, '/api/v1/artist-profiles', {
        method: 'POST',
        headers: { 'idempotency-key': 'profile-1', 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    const first = await post('Second Act');
    expect(first.status).toBe(201);
    const again = await post('Second Act');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
    const rows = await system.db.select().from(artistProfiles).where(eq(artistProfiles.name, 'Second Act'));
    expect(rows).toHaveLength(1);
    const mismatch = await post('Third Act');
    expect(mismatch.status).toBe(422);
    expect((await readJson(mismatch)).error.code).toBe('idempotency_mismatch');
  });
});

describe('api-key:create (CLI)', () => {
  const run = (flags: Record<string, string>) => {
    const command = cliCommands['api-key:create'];
    if (!command) throw new Error('api-key:create is not registered');
    return command.run(system, [], flags);
  };

  it('prints a working key once, for the person’s own account', async () => {
    const printed = await run({
      email: owner.email,
      scopes: 'catalogue:read,statements:read',
      expires: '30',
    });
    const key = printed.split('\n').at(-1) ?? '';
    expect(key).toMatch(/^td_live_/);
    expect(printed).toContain('scopes catalogue:read, statements:read, expires');
    expect((await withKey(key, '/api/v1/royalties/statements')).status).toBe(200);
  });

  it('refuses unknown scopes, a bad expiry and an unknown email with a clear message', async () => {
    await expect(run({ email: owner.email, scopes: 'catalogue:read,everything' })).rejects.toThrow(
      'unknown scope(s) everything',
    );
    await expect(run({ email: owner.email, scopes: 'catalogue:read', expires: '0' })).rejects.toThrow(
      '--expires must be a whole number of days from 1 to 3650',
    );
    await expect(run({ email: 'nobody@example.com', scopes: 'catalogue:read' })).rejects.toThrow(
      'no user with email nobody@example.com',
    );
  });
});

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

const joinAs = (role: 'admin' | 'viewer') => joinTeam(system, owner, role);
