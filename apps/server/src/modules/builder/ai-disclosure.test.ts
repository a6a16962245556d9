/**
 * AI disclosure at submission (issue 41, record 295): a release is refused until every track's AI use is
 * answered (nothing created), an assisted answer needs what AI helped with, and the answer is stored per
 * track, returned for edit and kept by an edit that leaves it out.
 */
import { AI_MESSAGES } from '@tunedrop/shared/schemas/ai-disclosure';
import type { ReleaseSubmissionInput } from '@tunedrop/shared/schemas/builder';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releases, tracks } from '../../db/schema';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

const submit = (cookie: string, body: unknown) =>
  system.request('/api/builder/releases', { method: 'POST', cookie, json: body });

async function artist() {
  const user = await system.signedInUser({ plan: 'pro', artistName: 'Ada Lane' });
  const files = await uploadReleaseFiles(system, user.cookie, 2);
  return { ...user, body: basicSubmission(files, { artistName: 'Ada Lane' }) };
}

const withAnswers = (body: ReleaseSubmissionInput, answers: unknown[]): ReleaseSubmissionInput => ({
  ...body,
  tracks: body.tracks.map((track, index) => {
    const { aiDisclosure: _left, ...rest } = track;
    return answers[index] === undefined ? rest : { ...rest, aiDisclosure: answers[index] as never };
  }),
});

const releaseCountOf = async (userId: string) =>
  (await system.db.select({ id: releases.id }).from(releases).where(eq(releases.userId, userId))).length;

describe('AI disclosure at submission', () => {
  it('refuses a release with a track whose AI use is not answered, and creates nothing', async () => {
    const user = await artist();
    const response = await submit(user.cookie, withAnswers(user.body, [{ usage: 'none' }, undefined]));
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error.fields).toMatchObject({ 'tracks.1.aiDisclosure': AI_MESSAGES.usageRequired });
    expect(await releaseCountOf(user.userId)).toBe(0);
  });

  it('refuses an assisted answer that names nothing AI helped with', async () => {
    const user = await artist();
    const response = await submit(
      user.cookie,
      withAnswers(user.body, [{ usage: 'assisted', areas: [] }, { usage: 'none' }]),
    );
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields).toMatchObject({
      'tracks.0.aiDisclosure.areas': AI_MESSAGES.areasRequired,
    });
    expect(await releaseCountOf(user.userId)).toBe(0);
  });

  it('stores each track answer, drops areas a non-assisted answer sent, and an edit without it keeps it', async () => {
    const user = await artist();
    const response = await submit(
      user.cookie,
      withAnswers(user.body, [
        { usage: 'assisted', areas: ['vocals', 'lyrics'] },
        { usage: 'generated', areas: ['lyrics'] },
      ]),
    );
    expect(response.status).toBe(201);
    const { release } = await readJson(response);
    const rows = () =>
      system.db
        .select({ id: tracks.id, title: tracks.title, usage: tracks.aiUsage, areas: tracks.aiAreas })
        .from(tracks)
        .where(eq(tracks.releaseId, release.id))
        .orderBy(asc(tracks.position));
    const stored = await rows();
    expect(stored.map((row) => [row.usage, row.areas])).toEqual([
      ['assisted', ['lyrics', 'vocals']],
      ['generated', []],
    ]);

    // Edit Release's tracks without the answer (an older form): the stored answers stay.
    const edit = await system.request(`/api/releases/${release.id}/tracks`, {
      method: 'PUT',
      cookie: user.cookie,
      json: {
        tracks: stored.map((row) => ({
          id: row.id,
          title: `${row.title} (Edit)`,
          explicit: false,
          primaryArtists: [{ name: 'Ada Lane' }],
          featuredArtists: [],
          songwriters: [{ firstName: 'Sam', lastName: 'Writer', role: 'music_and_lyrics' }],
          producers: [{ firstName: 'Pat', lastName: 'Producer' }],
        })),
      },
    });
    expect(edit.status, await edit.clone().text()).toBe(200);
    expect((await rows()).map((row) => row.usage)).toEqual(['assisted', 'generated']);
  });
});
