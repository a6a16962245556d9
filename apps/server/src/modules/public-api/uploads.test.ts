/**
 * tus uploads under /api/v1 with an API key (issue 40): a key with `catalogue:write` creates an upload,
 * sends its bytes and finishes it, its `Location` under /api/v1; the files then make a release and replace
 * its cover, as the key's account and never another's. A key without the scope is 403 `forbidden_scope`,
 * and a key revoked mid-upload stops the upload at its next request (401 `invalid_api_key`).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releases, uploads } from '../../db/schema';
import { basicSubmission, shortWav, validCover } from '../../test-support/builder-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let owner: Awaited<ReturnType<TestSystem['signedInUser']>>;
let other: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ plan: 'pro', artistName: 'Upload Label' });
  other = await system.signedInUser({ plan: 'pro', artistName: 'Other Label' });
});
afterAll(async () => {
  await system?.close();
});

async function keyFor(cookie: string, scopes: string[]) {
  const made = await system.request('/api/api-keys', {
    method: 'POST',
    cookie,
    json: { name: `Uploads ${scopes.join(' ')}`, scopes },
  });
  expect(made.status).toBe(201);
  const { key, created } = (await readJson(made)) as { key: string; created: { id: string } };
  return { key, keyId: created.id };
}

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const create = (key: string, file: { kind: 'cover' | 'audio'; name: string; size: number }) =>
  system.request('/api/v1/uploads', {
    method: 'POST',
    headers: {
      ...bearer(key),
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(file.size),
      'Upload-Metadata': `filename ${b64(file.name)},kind ${b64(file.kind)}`,
    },
  });

const patch = (key: string, location: string, body: Buffer, offset: number) =>
  system.request(location, {
    method: 'PATCH',
    headers: {
      ...bearer(key),
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body,
  });

/** Creates and finishes one upload with the key; its id. */
async function upload(key: string, kind: 'cover' | 'audio', name: string, body: Buffer) {
  const created = await create(key, { kind, name, size: body.length });
  expect(created.status).toBe(201);
  const location = created.headers.get('location') ?? '';
  expect(location).toMatch(/^\/api\/v1\/uploads\/[0-9a-f]{32}$/);
  const finished = await patch(key, location, body, 0);
  expect(finished.status).toBe(204);
  expect(finished.headers.get('upload-offset')).toBe(String(body.length));
  return location.split('/').pop() as string;
}

describe('tus uploads with an API key', () => {
  it('uploads a WAV and a cover as the key’s account, submits them and replaces the cover', async () => {
    const { key } = await keyFor(owner.cookie, ['catalogue:write', 'releases:submit']);
    const coverId = await upload(key, 'cover', 'Cover.png', await validCover());
    const audioId = await upload(key, 'audio', 'Song.wav', shortWav());
    const head = await system.request(`/api/v1/uploads/${audioId}`, {
      method: 'HEAD',
      headers: { ...bearer(key), 'Tus-Resumable': '1.0.0' },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(shortWav().length));
    const rows = await system.db.select().from(uploads).where(eq(uploads.userId, owner.userId));
    expect(rows.map((row) => [row.id, row.status]).sort()).toEqual(
      [
        [coverId, 'checked'],
        [audioId, 'checked'],
      ].sort(),
    );
    const submitted = await system.request('/api/v1/builder/releases', {
      method: 'POST',
      headers: bearer(key),
      json: basicSubmission({ coverId, audioIds: [audioId] }, { artistName: 'Upload Label' }),
    });
    expect(submitted.status).toBe(201);
    const { release } = (await readJson(submitted)) as { release: { id: string } };
    const [row] = await system.db.select().from(releases).where(eq(releases.id, release.id));
    expect(row?.userId).toBe(owner.userId);

    const newCover = await upload(key, 'cover', 'New cover.png', await validCover());
    const replaced = await system.request(`/api/v1/releases/${release.id}/cover`, {
      method: 'PUT',
      headers: bearer(key),
      json: { uploadId: newCover },
    });
    expect(replaced.status).toBe(200);
  });

  it('refuses a key without catalogue:write with 403 forbidden_scope', async () => {
    const { key } = await keyFor(owner.cookie, ['catalogue:read', 'releases:submit']);
    const refused = await create(key, { kind: 'audio', name: 'Song.wav', size: shortWav().length });
    expect(refused.status).toBe(403);
    expect(((await readJson(refused)) as { error: { code: string } }).error.code).toBe('forbidden_scope');
  });

  it('never reaches another account’s uploads or releases', async () => {
    const { key } = await keyFor(owner.cookie, ['catalogue:write']);
    const { key: otherKey } = await keyFor(other.cookie, ['catalogue:write']);
    const theirs = await create(otherKey, { kind: 'audio', name: 'Theirs.wav', size: shortWav().length });
    const theirLocation = theirs.headers.get('location') ?? '';
    const patched = await patch(key, theirLocation, shortWav(), 0);
    expect(patched.status).toBe(404);
    expect(((await readJson(patched)) as { error: { code: string } }).error.code).toBe('not_found');

    const { releaseId } = await createTestRelease(system, other.userId, { trackCount: 1, status: 'pending' });
    const mine = await upload(key, 'cover', 'Mine.png', await validCover());
    const replaced = await system.request(`/api/v1/releases/${releaseId}/cover`, {
      method: 'PUT',
      headers: bearer(key),
      json: { uploadId: mine },
    });
    expect(replaced.status).toBe(404);
    expect(((await readJson(replaced)) as { error: { code: string } }).error.code).toBe('not_found');
    const [untouched] = await system.db.select().from(uploads).where(eq(uploads.id, mine));
    expect(untouched?.status).toBe('checked');
  });

  it('stops an upload at its next request once its key is revoked', async () => {
    const { key, keyId } = await keyFor(owner.cookie, ['catalogue:write']);
    const body = shortWav();
    const created = await create(key, { kind: 'audio', name: 'Half.wav', size: body.length });
    const location = created.headers.get('location') ?? '';
    const half = Math.floor(body.length / 2);
    const first = await patch(key, location, body.subarray(0, half), 0);
    expect(first.status).toBe(204);
    const revoked = await system.request(`/api/api-keys/${keyId}`, {
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(revoked.status).toBe(200);
    const rest = await patch(key, location, body.subarray(half), half);
    expect(rest.status).toBe(401);
    expect(((await readJson(rest)) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    const [row] = await system.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, location.split('/').pop() as string));
    expect(row?.status).toBe('uploading');
  });
});
