/**
 * The title style guide at submission (issue 41, record 296): a release or track title with "feat.", in all
 * capitals or with "Official Audio" is refused with the check's reason on the field, and nothing is created.
 */
import { TITLE_CHECK_TEXTS } from '@tunedrop/shared/schemas/title-checks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releases } from '../../db/schema';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

describe('title style guide at submission', () => {
  it('refuses each rule with its reason on the field, then takes the fixed titles', async () => {
    const user = await system.signedInUser({ plan: 'basic', artistName: 'Tess Title' });
    const files = await uploadReleaseFiles(system, user.cookie, 2);
    const body = basicSubmission(files, { artistName: 'Tess Title' });
    const submit = (release: string, first: string, second: string) =>
      system.request('/api/builder/releases', {
        method: 'POST',
        cookie: user.cookie,
        json: {
          ...body,
          release: { ...body.release, title: release },
          tracks: body.tracks.map((track, index) => ({ ...track, title: index === 0 ? first : second })),
        },
      });

    const refused = await submit('NIGHT DRIVE', 'Intro (feat. Luna)', 'Outro (Official Audio)');
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).error.fields).toMatchObject({
      'release.title': TITLE_CHECK_TEXTS.all_caps.reason,
      'tracks.0.title': TITLE_CHECK_TEXTS.featuring.reason,
      'tracks.1.title': TITLE_CHECK_TEXTS.official_audio.reason,
    });
    expect(await system.db.select().from(releases).where(eq(releases.userId, user.userId))).toHaveLength(0);

    const taken = await submit('Night Drive', 'Intro', 'Outro');
    expect(taken.status).toBe(201);
  });
});
