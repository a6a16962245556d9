/** Every validation message of the release builder (spec 02 §5), through the shared schemas. */
import { describe, expect, it } from 'vitest';
import {
  audioFileError,
  type BuilderDraft,
  coverDimensionsError,
  coverFileError,
  currentYear,
  draftToSubmission,
  formatMegabytes,
  isValidUpc,
  lockedReleaseFields,
  BUILDER_MESSAGES as M,
  normalizeIsrc,
  parseSpotifyArtistUrl,
  planRuleErrors,
  type ReleaseDraft,
  releaseStepErrors,
  releaseSubmissionSchema,
  sanitizeFileName,
  spotifyArtistSchema,
  spotifySearchSchema,
  type TrackDraft,
  tracksStepErrors,
  uniqueArtistsByName,
  wavTooLargeMessage,
} from './builder';

const year = new Date().getFullYear();
const release = (overrides: Partial<ReleaseDraft> = {}): ReleaseDraft => ({
  title: 'Night Drive',
  genre: 'Pop',
  releaseDate: '2030-01-01',
  coverArt: { uploadId: 'a'.repeat(32), name: 'cover.png', sizeBytes: 100 },
  copyrightHolder: 'Luna',
  copyrightYear: String(year),
  publishingHolder: 'Luna',
  publishingYear: String(year),
  upc: '',
  labelName: '',
  originalReleaseDate: '',
  ...overrides,
});
const track = (overrides: Partial<TrackDraft> = {}): TrackDraft => ({
  id: crypto.randomUUID(),
  title: 'Song',
  file: { uploadId: 'b'.repeat(32), name: 'song.wav', sizeBytes: 100 },
  explicit: false,
  isrc: '',
  primaryArtists: [{ name: 'Luna', spotifyLink: '', appleMusicLink: '' }],
  featuredArtists: [],
  songwriters: [{ id: 's', firstName: 'Sam', middleName: '', lastName: 'Writer', role: 'music_and_lyrics' }],
  producers: [{ id: 'p', firstName: 'Pat', middleName: '', lastName: 'Producer' }],
  aiDisclosure: { usage: 'none', areas: [] },
  ...overrides,
});
const step1 = (
  draft: ReleaseDraft,
  isPro = false,
  coverState: 'checked' | 'uploading' | 'none' = 'checked',
) => releaseStepErrors(draft, { isPro, coverState });
const step2 = (tracks: TrackDraft[], isPro = false) =>
  tracksStepErrors(tracks, { isPro, fileState: (t) => (t.file ? 'checked' : 'none') });

describe('release details (step 1)', () => {
  it('passes a complete release', () => {
    expect(step1(release())).toEqual({});
  });

  it.each([
    ['title', { title: '  ' }, 'Release title is required'],
    ['genre', { genre: '' }, 'Please select a genre'],
    ['genre', { genre: 'Polka' }, 'Please select a genre'],
    ['releaseDate', { releaseDate: '' }, 'Release date is required'],
    ['releaseDate', { releaseDate: '2030-02-30' }, M.releaseDateInvalid],
    ['coverArt', { coverArt: null }, 'Cover artwork is required'],
    ['copyrightHolder', { copyrightHolder: '' }, 'Copyright holder is required'],
    ['publishingHolder', { publishingHolder: '' }, 'Publishing holder is required'],
    ['copyrightYear', { copyrightYear: '1899' }, 'Valid copyright year is required (1900 or later)'],
    [
      'copyrightYear',
      { copyrightYear: String(year + 2) },
      `Valid copyright year is required (1900 to ${currentYear()})`,
    ],
    [
      'publishingYear',
      { publishingYear: String(year + 2) },
      `Valid publishing year is required (1900 to ${currentYear()})`,
    ],
    ['copyrightYear', { copyrightYear: 'abcd' }, 'Valid copyright year is required (1900 or later)'],
    ['publishingYear', { publishingYear: '' }, 'Valid publishing year is required (1900 or later)'],
    ['publishingYear', { publishingYear: '1800' }, 'Valid publishing year is required (1900 or later)'],
  ] as const)('%s: %j gives %s', (field, overrides, message) => {
    expect(step1(release(overrides))[field]).toBe(message);
  });

  it('accepts 1900 and the current year', () => {
    expect(step1(release({ copyrightYear: '1900', publishingYear: String(year) }))).toEqual({});
  });

  it('asks to wait while the cover is still uploading', () => {
    expect(step1(release(), false, 'uploading').coverArt).toBe(M.coverArtStillUploading);
    expect(step1(release(), false, 'none').coverArt).toBe('Cover artwork is required');
  });

  it('checks UPC, label and original date for Pro only', () => {
    const withProFields = release({ upc: '123', originalReleaseDate: '2020-13-01' });
    expect(step1(withProFields, false)).toEqual({});
    expect(step1(withProFields, true)).toEqual({
      upc: M.upcInvalid,
      originalReleaseDate: M.originalReleaseDateInvalid,
    });
    expect(
      step1(release({ upc: '036000291452', labelName: 'Label', originalReleaseDate: '2001-02-03' }), true),
    ).toEqual({});
  });

  it('locks the holders to the artist name and the years to the current year for basic users', () => {
    expect(lockedReleaseFields('Luna')).toEqual({
      copyrightHolder: 'Luna',
      publishingHolder: 'Luna',
      copyrightYear: String(year),
      publishingYear: String(year),
    });
  });
});

describe('cover art pre-checks', () => {
  it("takes JPG and PNG only: 'Only JPG and PNG formats are accepted'", () => {
    expect(coverFileError({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe(
      'Only JPG and PNG formats are accepted',
    );
    expect(coverFileError({ name: 'a.png', type: 'image/png', size: 10 })).toBeNull();
    expect(coverFileError({ name: 'a.jpg', type: 'image/jpeg', size: 10 })).toBeNull();
  });

  it("must be under 10MB: 'File size must be less than 10MB'", () => {
    expect(coverFileError({ name: 'a.png', type: 'image/png', size: 10 * 1024 * 1024 })).toBe(
      'File size must be less than 10MB',
    );
    expect(coverFileError({ name: 'a.png', type: 'image/png', size: 10 * 1024 * 1024 - 1 })).toBeNull();
  });

  it("must be exactly 3000x3000: 'Cover art must be exactly 3000x3000 pixels'", () => {
    expect(coverDimensionsError(3000, 3000)).toBeNull();
    expect(coverDimensionsError(100, 100)).toBe('Cover art must be exactly 3000x3000 pixels');
    expect(coverDimensionsError(3000, 2999)).toBe('Cover art must be exactly 3000x3000 pixels');
  });
});

describe('tracks (step 2)', () => {
  it('passes complete tracks', () => {
    expect(step2([track({ title: 'One' }), track({ title: 'Two' })])).toEqual([{}, {}]);
  });

  it.each([
    ['title', { title: '' }, 'Track title is required'],
    ['file', { file: null }, 'Audio file is required'],
    ['songwriters', { songwriters: [] }, 'At least one songwriter is required'],
    ['producers', { producers: [] }, 'At least one producer is required'],
    ['primaryArtists', { primaryArtists: [] }, 'At least one primary artist is required'],
  ] as const)('%s: %j gives %s', (field, overrides, message) => {
    expect(step2([track(overrides as Partial<TrackDraft>)])[0]?.[field]).toBe(message);
  });

  it("wants unique titles: 'Track titles must be unique' on the repeat, ignoring case and spaces", () => {
    const errors = step2([track({ title: 'Song' }), track({ title: ' song ' })]);
    expect(errors[0]).toEqual({});
    expect(errors[1]?.title).toBe('Track titles must be unique');
  });

  it('asks to wait while a file is still uploading', () => {
    const errors = tracksStepErrors([track()], { isPro: false, fileState: () => 'uploading' });
    expect(errors[0]?.file).toBe(M.audioStillUploading);
  });

  it('names the credit field that is missing', () => {
    const errors = step2([
      track({
        songwriters: [{ id: 's', firstName: '', middleName: '', lastName: 'W', role: 'lyrics' }],
        producers: [{ id: 'p', firstName: 'P', middleName: '', lastName: '' }],
      }),
    ]);
    expect(errors[0]).toEqual({
      'songwriters.0.firstName': M.firstNameRequired,
      'producers.0.lastName': M.lastNameRequired,
    });
  });

  it("caps primary artists at 4: 'Maximum 4 primary artists per track (Spotify limit).'", () => {
    const five = ['A', 'B', 'C', 'D', 'E'].map((name) => ({ name, spotifyLink: '', appleMusicLink: '' }));
    expect(step2([track({ primaryArtists: five })], true)[0]?.primaryArtists).toBe(
      'Maximum 4 primary artists per track (Spotify limit).',
    );
  });

  it("checks Spotify links: 'Please enter a valid Spotify artist link'", () => {
    const artist = {
      name: 'A',
      spotifyLink: 'https://open.spotify.com/album/xyzxyzxyzxyz',
      appleMusicLink: '',
    };
    expect(step2([track({ featuredArtists: [artist] })])[0]?.['featuredArtists.0.spotifyLink']).toBe(
      'Please enter a valid Spotify artist link',
    );
    const apple = { name: 'A', spotifyLink: '', appleMusicLink: 'https://example.com/a' };
    expect(step2([track({ primaryArtists: [apple] })])[0]?.['primaryArtists.0.appleMusicLink']).toBe(
      M.appleMusicLinkInvalid,
    );
  });

  it('checks ISRCs for Pro: format and repeats within the release', () => {
    const errors = step2(
      [
        track({ title: 'A', isrc: 'US-AB1-24-00001' }),
        track({ title: 'B', isrc: 'usab12400001' }),
        track({ title: 'C', isrc: 'nope' }),
      ],
      true,
    );
    expect(errors.map((e) => e.isrc)).toEqual([undefined, M.isrcDuplicate, M.isrcInvalid]);
    // Basic users never send one, so nothing to check.
    expect(step2([track({ isrc: 'nope' })], false)).toEqual([{}]);
  });

  it("refuses audio names not ending in .wav: 'Only WAV format is accepted'", () => {
    expect(audioFileError({ name: 'song.mp3', size: 1 }, 100)).toBe('Only WAV format is accepted');
    expect(audioFileError({ name: 'SONG.WAV', size: 1 }, 100)).toBeNull();
    expect(audioFileError({ name: 'song.wav', size: 101 }, 100)).toBe('WAV files must be at most 0.1 KB');
    expect(wavTooLargeMessage(2 * 1024 ** 3)).toBe('WAV files must be at most 2 GB');
  });

  it('shows sizes in MB', () => {
    expect(formatMegabytes(52_428_800)).toBe('50.00 MB');
  });
});

describe('artist search and links', () => {
  it("needs at least 2 characters: 'Please enter at least 2 characters'", () => {
    const result = spotifySearchSchema.safeParse({ query: ' a ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Please enter at least 2 characters');
    expect(spotifySearchSchema.safeParse({ query: 'ab' }).success).toBe(true);
  });

  it('reads the artist id from a Spotify artist link and nothing else', () => {
    expect(parseSpotifyArtistUrl('https://open.spotify.com/artist/1vCWHaC5f2uS3yhpwWbIA6?si=x')).toBe(
      '1vCWHaC5f2uS3yhpwWbIA6',
    );
    expect(parseSpotifyArtistUrl('https://open.spotify.com/track/1vCWHaC5f2uS3yhpwWbIA6')).toBeNull();
    expect(parseSpotifyArtistUrl('http://open.spotify.com/artist/1vCWHaC5f2uS3yhpwWbIA6')).toBeNull();
    expect(spotifyArtistSchema.safeParse({ artistUrl: 'x' }).error?.issues[0]?.message).toBe(
      M.spotifyLinkInvalid,
    );
  });

  it('de-duplicates artists by name', () => {
    expect(
      uniqueArtistsByName([{ name: 'Luna' }, { name: ' luna ' }, { name: 'Sol' }, { name: '' }]),
    ).toEqual([{ name: 'Luna' }, { name: 'Sol' }]);
  });
});

describe('codes and names', () => {
  it('normalises ISRCs: hyphens optional, stored upper-case', () => {
    expect(normalizeIsrc('us-ab1-24-00001')).toBe('USAB12400001');
    expect(normalizeIsrc('USAB12400001')).toBe('USAB12400001');
    expect(normalizeIsrc('US-AB1-24-0001')).toBeNull();
    expect(normalizeIsrc('U1-AB1-24-00001')).toBeNull();
  });

  it('checks UPC length and check digit', () => {
    expect(isValidUpc('036000291452')).toBe(true);
    expect(isValidUpc('4006381333931')).toBe(true);
    expect(isValidUpc('036000291453')).toBe(false);
    expect(isValidUpc('03600029145')).toBe(false);
    expect(isValidUpc('03600029145a')).toBe(false);
  });

  it('sanitises file names as §5 says', () => {
    expect(sanitizeFileName('Mélodie d’été (final).wav')).toBe('Melodie_d_ete_final_.wav');
    expect(sanitizeFileName('a  b__c.WAV')).toBe('a_b_c.WAV');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\music\\Ñandú-mix.wav')).toBe('Nandu-mix.wav');
  });
});

describe('the submission', () => {
  const draft = (overrides: Partial<BuilderDraft> = {}): BuilderDraft => ({
    version: 1,
    step: 4,
    idempotencyKey: crypto.randomUUID(),
    release: release({ upc: '036000291452', labelName: 'Label' }),
    tracks: [
      track({ title: 'One', isrc: 'US-AB1-24-00001' }),
      track({ title: 'Two', file: { uploadId: 'c'.repeat(32), name: 'b.wav', sizeBytes: 1 } }),
    ],
    activeTrackId: null,
    platforms: ['spotify'],
    ...overrides,
  });

  it('drops Pro-only fields for basic users and keeps them for Pro', () => {
    const basic = draftToSubmission(draft(), { isPro: false });
    expect(basic.release.upc).toBeUndefined();
    expect(basic.release.labelName).toBeUndefined();
    expect(basic.tracks[0]?.isrc).toBeUndefined();
    const pro = draftToSubmission(draft(), { isPro: true });
    expect(pro.release.upc).toBe('036000291452');
    expect(pro.tracks[0]?.isrc).toBe('US-AB1-24-00001');
    expect(releaseSubmissionSchema.safeParse(pro).success).toBe(true);
  });

  it("needs a platform: 'Please select at least one platform to continue'", () => {
    const result = releaseSubmissionSchema.safeParse(
      draftToSubmission(draft({ platforms: [] }), { isPro: false }),
    );
    expect(result.error?.issues[0]?.message).toBe('Please select at least one platform to continue');
  });

  it('applies the plan rules: basic gets one primary artist and locked fields; Pro up to 999', () => {
    const parsed = releaseSubmissionSchema.parse(draftToSubmission(draft(), { isPro: true }));
    expect(planRuleErrors(parsed, { isPro: true, artistName: 'Luna' })).toEqual({});
    const basic = planRuleErrors(parsed, { isPro: false, artistName: 'Luna' });
    expect(basic).toEqual({
      'release.upc': M.proFeature,
      'release.labelName': M.proFeature,
      'tracks.0.isrc': M.proFeature,
    });
    const twoArtists = releaseSubmissionSchema.parse(
      draftToSubmission(
        draft({
          tracks: [
            track({ title: 'A' }),
            track({
              title: 'B',
              primaryArtists: [{ name: 'Sol', spotifyLink: '', appleMusicLink: '' }],
              file: { uploadId: 'd'.repeat(32), name: 'd.wav', sizeBytes: 1 },
            }),
          ],
        }),
        { isPro: false },
      ),
    );
    expect(planRuleErrors(twoArtists, { isPro: false, artistName: 'Luna' }).tracks).toBe(
      M.basicOnePrimaryArtist,
    );
    expect(planRuleErrors(twoArtists, { isPro: true, artistName: 'Luna' })).toEqual({});
  });
});
