/** The builder's Content ID choice (issue 28, record 192): carried to the submission for Pro only, refused for Basic. */
import { describe, expect, it } from 'vitest';
import { type BuilderDraft, draftToSubmission, planRuleErrors, releaseSubmissionSchema } from '../builder';
import { CONTENT_ID_ELIGIBLE_ANSWERS, CONTENT_ID_MESSAGES } from '../content-id';

const year = String(new Date().getFullYear());
const draft = (contentId: BuilderDraft['tracks'][number]['contentId']): BuilderDraft => ({
  version: 1,
  step: 4,
  idempotencyKey: '0123456789abcdef0123',
  release: {
    title: 'Night Drive',
    genre: 'Pop',
    releaseDate: '2030-01-01',
    coverArt: { uploadId: 'a'.repeat(32), name: 'cover.png', sizeBytes: 100 },
    copyrightHolder: 'Luna',
    copyrightYear: year,
    publishingHolder: 'Luna',
    publishingYear: year,
    upc: '',
    labelName: '',
    originalReleaseDate: '',
  },
  tracks: [
    {
      id: 't1',
      title: 'Song',
      file: { uploadId: 'b'.repeat(32), name: 'song.wav', sizeBytes: 100 },
      explicit: false,
      isrc: '',
      primaryArtists: [{ name: 'Luna', spotifyLink: '', appleMusicLink: '' }],
      featuredArtists: [],
      songwriters: [{ id: 's', firstName: 'A', middleName: '', lastName: 'B', role: 'music' }],
      producers: [{ id: 'p', firstName: 'C', middleName: '', lastName: 'D' }],
      contentId,
      aiDisclosure: { usage: 'none', areas: [] },
    },
  ],
  activeTrackId: 't1',
  platforms: ['youtube_music'],
});

describe('Content ID in the builder', () => {
  it('a Pro draft sends the answers of an opted-in track; a Basic one never does', () => {
    const chosen = draft({ answers: CONTENT_ID_ELIGIBLE_ANSWERS });
    expect(draftToSubmission(chosen, { isPro: true }).tracks[0]?.contentIdAnswers).toEqual(
      CONTENT_ID_ELIGIBLE_ANSWERS,
    );
    expect(draftToSubmission(chosen, { isPro: false }).tracks[0]).not.toHaveProperty('contentIdAnswers');
    expect(draftToSubmission(draft(null), { isPro: true }).tracks[0]).not.toHaveProperty('contentIdAnswers');
  });

  it('the submission refuses an ineligible answer on its field, and Basic as a Pro feature', () => {
    const body = draftToSubmission(draft({ answers: CONTENT_ID_ELIGIBLE_ANSWERS }), { isPro: true });
    const refused = releaseSubmissionSchema.safeParse({
      ...body,
      tracks: body.tracks.map((t) => ({
        ...t,
        contentIdAnswers: { ...CONTENT_ID_ELIGIBLE_ANSWERS, isKaraoke: 'yes' },
      })),
    });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['tracks', 0, 'contentIdAnswers', 'isKaraoke']);
    const submission = releaseSubmissionSchema.parse(body);
    expect(planRuleErrors(submission, { isPro: true, artistName: 'Luna' })).toEqual({});
    expect(planRuleErrors(submission, { isPro: false, artistName: 'Luna' })).toEqual({
      'tracks.0.contentIdAnswers': CONTENT_ID_MESSAGES.proOnly,
    });
  });
});
