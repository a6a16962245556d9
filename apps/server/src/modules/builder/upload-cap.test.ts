/**
 * The cap on unfinished uploads per user holds under parallel creations (issue 13, point 7). Through
 * HTTP the race shows on PostgreSQL (run with DATABASE_URL: count-then-insert made 80 rows there);
 * the direct test shows it on PGlite too (80 rows without the lock).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { createUploadRow, MAX_OPEN_UPLOADS_PER_USER } from './uploads';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

const createUpload = (cookie: string, index: number) =>
  system.request('/api/uploads', {
    method: 'POST',
    cookie,
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '1000',
      'Upload-Metadata': `filename ${b64(`track-${index}.wav`)},kind ${b64('audio')}`,
    },
  });

const openCount = async (userId: string) => {
  const [row] = await system.db
    .select({ count: sql<number>`count(*)::int` })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), inArray(uploads.status, ['uploading', 'checked'])));
  return row?.count ?? 0;
};

describe('unfinished uploads per user', () => {
  it(`80 parallel creations make exactly ${MAX_OPEN_UPLOADS_PER_USER} uploads; the rest get 429`, async () => {
    const user = await system.signedInUser({ plan: 'pro' });
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, index) => createUpload(user.cookie, index)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_OPEN_UPLOADS_PER_USER);
    expect(statuses.filter((status) => status === 429)).toHaveLength(80 - MAX_OPEN_UPLOADS_PER_USER);
    const refused = answers.find((answer) => answer.status === 429) as Response;
    expect((await readJson(refused)).error.code).toBe('too_many_uploads');
    expect(await openCount(user.userId)).toBe(MAX_OPEN_UPLOADS_PER_USER);

    // Another user's cap is their own.
    const other = await system.signedInUser({ plan: 'pro' });
    expect((await createUpload(other.cookie, 0)).status).toBe(201);
  });

  it('createUploadRow itself holds the cap when 80 calls start at once (no HTTP timing involved)', async () => {
    const user = await system.signedInUser({ plan: 'pro' });
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, index) =>
        createUploadRow(system.db, {
          id: `${index.toString(16).padStart(2, '0')}${user.userId.replace(/[^a-f0-9]/g, '').padEnd(30, 'a')}`.slice(
            0,
            32,
          ),
          userId: user.userId,
          kind: 'audio',
          originalName: `t${index}.wav`,
          sanitizedName: `t${index}.wav`,
          sizeBytes: 1000,
          status: 'uploading',
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(MAX_OPEN_UPLOADS_PER_USER);
    expect(await openCount(user.userId)).toBe(MAX_OPEN_UPLOADS_PER_USER);
  });
});
