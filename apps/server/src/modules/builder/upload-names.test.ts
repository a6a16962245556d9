/**
 * Upload file names follow the one text rule (issue 22, finding 9): a NUL, a line break or another control
 * character in a tus file name is refused with 422 and a clear message before anything is stored; an
 * ordinary name with quotes is kept as the artist typed it.
 */
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../db/schema';
import { shortWav, tusUpload } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let cookie: string;
let userId: string;

beforeAll(async () => {
  system = await createTestSystem();
  ({ cookie, userId } = await system.signedInUser({ plan: 'basic' }));
});
afterAll(async () => system.close());

const rowsOfUser = () => system.db.select().from(uploads).where(eq(uploads.userId, userId));

describe('upload file names', () => {
  it.each([
    ['a NUL', 'take\u00001.wav'],
    ['a line break', 'take\r\n1.wav'],
    ['a tab', 'take\t1.wav'],
    ['an escape character', 'take\u001b[31m.wav'],
  ])('refuses %s with 422 and a clear message, storing nothing', async (_label, name) => {
    const before = (await rowsOfUser()).length;
    const result = await tusUpload(system, cookie, { kind: 'audio', name, body: shortWav() });
    expect(result.created.status).toBe(422);
    expect(await readJson(result.created)).toEqual({
      error: { code: 'invalid_upload', message: BUILDER_MESSAGES.fileNameText },
    });
    expect((await rowsOfUser()).length).toBe(before);
  });

  it.each([
    ['a right-to-left override (U+202E)', 'song\u202Evaw.exe'],
    ['a right-to-left isolate (U+2067)', 'take\u20671.wav'],
    ['a zero-width space', 'take\u200B1.wav'],
  ])('refuses %s with 422 and says why, storing nothing', async (_label, name) => {
    const before = (await rowsOfUser()).length;
    const result = await tusUpload(system, cookie, { kind: 'audio', name, body: shortWav() });
    expect(result.created.status).toBe(422);
    expect(await readJson(result.created)).toEqual({
      error: { code: 'invalid_upload', message: BUILDER_MESSAGES.fileNameFormatting },
    });
    expect((await rowsOfUser()).length).toBe(before);
  });

  it('keeps quotes and apostrophes, which are ordinary in file names', async () => {
    const result = await tusUpload(system, cookie, {
      kind: 'audio',
      name: `Don't say "never".wav`,
      body: shortWav(),
    });
    expect(result.created.status).toBe(201);
    const [row] = await system.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, result.id as string));
    expect(row?.originalName).toBe(`Don't say "never".wav`);
    expect(row?.sanitizedName).toBe('Don_t_say_never_.wav');
  });

  it('still refuses an empty name', async () => {
    const result = await tusUpload(system, cookie, { kind: 'audio', name: '   ', body: shortWav() });
    expect(result.created.status).toBe(400);
    expect((await readJson(result.created)).error.message).toBe(BUILDER_MESSAGES.fileNameRequired);
  });
});
