/**
 * The public API v1 through its typed client (packages/api-client, issue 40) on the real database: the
 * answers match the document's schemas, errors carry codes of the closed set (record 293), and
 * Idempotency-Key on a POST (record 290): a retry gets the first answer, another body is 422, a retry
 * while the first runs is 409, and after 24 hours the key is free again.
 */
import { createTunedropClient, UploadError, uploadFile } from '@tunedrop/api-client';
import { ERROR_CODES } from '@tunedrop/shared/errors';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiIdempotency, artistProfiles, uploads } from '../../db/schema';
import { shortWav } from '../../test-support/builder-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let owner: Awaited<ReturnType<TestSystem['signedInUser']>>;
let releaseId: string;

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ plan: 'pro', artistName: 'Client Label' });
  releaseId = (await createTestRelease(system, owner.userId, { trackCount: 1 })).releaseId;
});
afterAll(async () => {
  await system?.close();
});

async function clientWith(scopes: string[]) {
  const made = await system.request('/api/api-keys', {
    method: 'POST',
    cookie: owner.cookie,
    json: { name: `Client ${scopes.join(' ')}`, scopes },
  });
  expect(made.status).toBe(201);
  const { key, created } = (await readJson(made)) as { key: string; created: { id: string } };
  const client = createTunedropClient({
    server: 'http://localhost:3000',
    apiKey: key,
    // In process: the client's requests go straight to the app.
    fetch: (request) => Promise.resolve(system.app.fetch(request)),
  });
  return { client, keyId: created.id };
}

const profilesNamed = (name: string) =>
  system.db.select().from(artistProfiles).where(eq(artistProfiles.name, name));

describe('the typed client', () => {
  it('lists the account’s releases, typed as the document says', async () => {
    const { client } = await clientWith(['catalogue:read']);
    const { data, error, response } = await client.GET('/releases', { params: { query: { limit: 10 } } });
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    const mine = data?.items.find((item) => item.id === releaseId);
    expect(mine).toMatchObject({ trackCount: 1, storeRejections: [] });
    expect(data?.nextCursor).toBeNull();
  });

  it('gets errors with a code of the closed set and its status', async () => {
    const { client } = await clientWith(['catalogue:read']);
    const refused = await client.GET('/royalties/statements');
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.code).toBe('forbidden_scope');
    expect(ERROR_CODES.forbidden_scope).toBe(403);
    const missing = await client.GET('/releases/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe('not_found');
  });
});

describe('uploadFile (tus through the client)', () => {
  it('sends a WAV in chunks and answers its upload id; a key without catalogue:write gets forbidden_scope', async () => {
    const { client } = await clientWith(['catalogue:write']);
    const bytes = shortWav();
    const { uploadId } = await uploadFile(client, {
      kind: 'audio',
      filename: 'Client song.wav',
      bytes,
      chunkBytes: 40_000,
    });
    const [row] = await system.db.select().from(uploads).where(eq(uploads.id, uploadId));
    expect(row).toMatchObject({ userId: owner.userId, status: 'checked', sizeBytes: bytes.length });
    const { client: reader } = await clientWith(['catalogue:read']);
    const refused = await uploadFile(reader, { kind: 'audio', filename: 'No.wav', bytes }).catch((e) => e);
    expect(refused).toBeInstanceOf(UploadError);
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'forbidden_scope' } } });
  });
});

describe('Idempotency-Key on a v1 POST', () => {
  it('returns the first answer to a retry and refuses the same key with another body', async () => {
    const { client } = await clientWith(['catalogue:write']);
    const post = (name: string) =>
      client.POST('/artist-profiles', { body: { name }, headers: { 'Idempotency-Key': 'client-1' } });
    const first = await post('Client Strings');
    expect(first.response.status).toBe(201);
    expect(first.data?.profile.name).toBe('Client Strings');
    const again = await post('Client Strings');
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
    expect(await profilesNamed('Client Strings')).toHaveLength(1);
    const other = await post('Client Brass');
    expect(other.response.status).toBe(422);
    expect(other.error?.error.code).toBe('idempotency_mismatch');
    expect(await profilesNamed('Client Brass')).toHaveLength(0);
  });

  it('answers 409 while the first request with the key still runs', async () => {
    const { client, keyId } = await clientWith(['catalogue:write']);
    const body = { name: 'Client Running' };
    // The first request's claim, as it stands while its handler runs (no answer kept yet).
    const first = await client.POST('/artist-profiles', { body, headers: { 'Idempotency-Key': 'client-2' } });
    expect(first.response.status).toBe(201);
    await system.db
      .update(apiIdempotency)
      .set({ status: null, body: null })
      .where(and(eq(apiIdempotency.keyId, keyId), eq(apiIdempotency.idempotencyKey, 'client-2')));
    const retried = await client.POST('/artist-profiles', {
      body,
      headers: { 'Idempotency-Key': 'client-2' },
    });
    expect(retried.response.status).toBe(409);
    expect(retried.error?.error.code).toBe('idempotency_in_progress');
    expect(await profilesNamed('Client Running')).toHaveLength(1);
  });

  it('keeps an answer 24 hours: after that the key makes a new request, and old answers are cleared', async () => {
    const { client, keyId } = await clientWith(['catalogue:write']);
    const post = (name: string, key: string) =>
      client.POST('/artist-profiles', { body: { name }, headers: { 'Idempotency-Key': key } });
    expect((await post('Client Day One', 'client-3')).response.status).toBe(201);
    expect((await post('Client Other', 'client-4')).response.status).toBe(201);
    await system.db
      .update(apiIdempotency)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(apiIdempotency.keyId, keyId));
    const later = await post('Client Day Two', 'client-3');
    expect(later.response.status).toBe(201);
    expect(later.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await profilesNamed('Client Day Two')).toHaveLength(1);
    const kept = await system.db
      .select({ idempotencyKey: apiIdempotency.idempotencyKey })
      .from(apiIdempotency)
      .where(eq(apiIdempotency.keyId, keyId));
    expect(kept.map((row) => row.idempotencyKey)).toEqual(['client-3']);
  });

  it('leaves a POST without the header to the route alone, keeping nothing', async () => {
    const { client, keyId } = await clientWith(['catalogue:write']);
    expect((await client.POST('/artist-profiles', { body: { name: 'Client Plain' } })).response.status).toBe(
      201,
    );
    const rows = await system.db.select().from(apiIdempotency).where(eq(apiIdempotency.keyId, keyId));
    expect(rows).toHaveLength(0);
  });
});
