/**
 * Content ID chosen in the release builder (issue 28, record 192): the draft keeps the answers, the
 * submission opts the track in with the release (audited), an ineligible answer or a Basic plan is refused
 * and nothing is created, and approval then delivers the Content ID choice like one made on the release page.
 */
import {
  type BuilderDraft,
  builderDraftSchema,
  type ReleaseSubmissionInput,
} from '@tunedrop/shared/schemas/builder';
import { CONTENT_ID_ELIGIBLE_ANSWERS, CONTENT_ID_QUESTIONS } from '@tunedrop/shared/schemas/content-id';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contentIdTracks, releases, tracks } from '../../db/schema';
import { basicSubmission, uploadReleaseFiles } from '../../test-support/builder-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system.close());

const submit = (cookie: string, body: unknown) =>
  system.request('/api/builder/releases', { method: 'POST', cookie, json: body });

async function artist(plan: 'pro' | 'basic') {
  const user = await system.signedInUser({ plan, artistName: 'Luna Park' });
  const files = await uploadReleaseFiles(system, user.cookie, 2);
  return { ...user, body: basicSubmission(files, { artistName: 'Luna Park' }) };
}

/** The first track opted in with the given answers. */
const withContentId = (body: ReleaseSubmissionInput, answers: unknown): ReleaseSubmissionInput => ({
  ...body,
  tracks: body.tracks.map((track, index) =>
    index === 0 ? { ...track, contentIdAnswers: answers as typeof CONTENT_ID_ELIGIBLE_ANSWERS } : track,
  ),
});

const releaseCountOf = async (userId: string) =>
  (await system.db.select({ id: releases.id }).from(releases).where(eq(releases.userId, userId))).length;

describe('Content ID in the release builder', () => {
  it('a Pro submission opts the chosen track in with its answers, audited, and only that track', async () => {
    const pro = await artist('pro');
    const response = await submit(pro.cookie, withContentId(pro.body, CONTENT_ID_ELIGIBLE_ANSWERS));
    expect(response.status).toBe(201);
    const { release } = await readJson(response);
    const trackRows = await system.db
      .select({ id: tracks.id, position: tracks.position })
      .from(tracks)
      .where(eq(tracks.releaseId, release.id));
    const choices = await system.db
      .select()
      .from(contentIdTracks)
      .where(
        inArray(
          contentIdTracks.trackId,
          trackRows.map((row) => row.id),
        ),
      );
    expect(choices).toHaveLength(1);
    expect(choices[0]).toMatchObject({
      trackId: trackRows.find((row) => row.position === 1)?.id,
      userId: pro.userId,
      isOptedIn: true,
      answers: CONTENT_ID_ELIGIBLE_ANSWERS,
      needsYoutubeUpdate: true,
    });
    const audits = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.releaseId, release.id), eq(auditLog.action, 'content_id.opt_in')));
    expect(audits).toHaveLength(1);

    // The release page shows it opted in.
    const view = await readJson(
      await system.request(`/api/content-id/releases/${release.id}`, { cookie: pro.cookie }),
    );
    expect(view.tracks.map((t: { state: string }) => t.state)).toEqual(['opted_in', 'not_opted_in']);
  });

  it('an ineligible answer is refused with its reason on the field, and nothing is created', async () => {
    const pro = await artist('pro');
    const cover = CONTENT_ID_QUESTIONS.find((q) => q.id === 'isCover');
    const response = await submit(
      pro.cookie,
      withContentId(pro.body, { ...CONTENT_ID_ELIGIBLE_ANSWERS, isCover: 'yes' }),
    );
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error.fields['tracks.0.contentIdAnswers.isCover']).toBe(cover?.refusal);
    expect(await releaseCountOf(pro.userId)).toBe(0);
  });

  it('a Basic submission with Content ID is refused as a Pro feature, and nothing is created', async () => {
    const basic = await artist('basic');
    const response = await submit(basic.cookie, withContentId(basic.body, CONTENT_ID_ELIGIBLE_ANSWERS));
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error.fields['tracks.0.contentIdAnswers']).toMatch(/Pro plan/);
    expect(await releaseCountOf(basic.userId)).toBe(0);
  });

  it('the draft keeps the answers; answers that are no longer eligible are dropped on load', async () => {
    const pro = await artist('pro');
    const draft: BuilderDraft = {
      version: 1,
      step: 2,
      idempotencyKey: crypto.randomUUID(),
      release: {
        title: 'Draft',
        genre: '',
        releaseDate: '',
        coverArt: null,
        copyrightHolder: '',
        copyrightYear: '2026',
        publishingHolder: '',
        publishingYear: '2026',
        upc: '',
        labelName: '',
        originalReleaseDate: '',
      },
      tracks: [
        {
          id: 't1',
          title: 'One',
          file: null,
          explicit: false,
          isrc: '',
          primaryArtists: [],
          featuredArtists: [],
          songwriters: [],
          producers: [],
          aiDisclosure: { usage: null, areas: [] },
          contentId: { answers: CONTENT_ID_ELIGIBLE_ANSWERS },
        },
      ],
      activeTrackId: 't1',
      platforms: [],
    };
    const saved = await system.request('/api/builder/draft', {
      method: 'PUT',
      cookie: pro.cookie,
      json: draft,
    });
    expect(saved.status).toBe(200);
    const loaded = await readJson(await system.request('/api/builder/draft', { cookie: pro.cookie }));
    expect(loaded.draft.tracks[0].contentId).toEqual({ answers: CONTENT_ID_ELIGIBLE_ANSWERS });
    // A draft saved before the field existed, or with an ineligible answer, loads without an opt-in.
    const stale = builderDraftSchema.parse({
      ...draft,
      tracks: [
        { ...draft.tracks[0], contentId: { answers: { ...CONTENT_ID_ELIGIBLE_ANSWERS, isKaraoke: 'yes' } } },
      ],
    });
    expect(stale.tracks[0]?.contentId).toBeNull();
    const { contentId: _dropped, ...older } = draft.tracks[0] ?? { contentId: null };
    expect(builderDraftSchema.parse({ ...draft, tracks: [older] }).tracks[0]?.contentId ?? null).toBeNull();
  });
});
