/**
 * A source release as the builder's submission (record 200), and every builder rule it breaks as report
 * lines naming the field. Release time, territories, stores and artist links go in too (record 233).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PLATFORM_IDS } from '@tunedrop/shared';
import {
  planRuleErrors,
  type ReleaseSubmission,
  type ReleaseSubmissionInput,
  releaseSubmissionSchema,
} from '@tunedrop/shared/schemas/builder';
import type { SourceRelease } from './source';

const placeholderId = () => randomBytes(16).toString('hex');

/** The builder's submission the source release amounts to; file ids are placeholders for files checked apart. */
function toSubmission(source: SourceRelease): {
  input: ReleaseSubmissionInput;
  coverId: string;
  audioIds: string[];
} {
  const coverId = placeholderId();
  const audioIds = source.tracks.map(() => placeholderId());
  const artists = (names: string[]) =>
    names.map((name) => ({ name, ...(source.artistLinks[name.trim().toLowerCase()] ?? {}) }));
  return {
    coverId,
    audioIds,
    input: {
      idempotencyKey: `catalogue-import-${randomUUID()}`,
      release: {
        title: source.title,
        genre: source.genre as ReleaseSubmissionInput['release']['genre'],
        releaseDate: source.releaseDate ?? '',
        coverUploadId: source.cover ? coverId : '',
        copyrightHolder: source.copyrightHolder,
        publishingHolder: source.publishingHolder,
        copyrightYear: source.copyrightYear === null ? '' : source.copyrightYear,
        publishingYear: source.publishingYear === null ? '' : source.publishingYear,
        upc: source.upc,
        labelName: source.labelName ?? undefined,
        originalReleaseDate: source.originalReleaseDate,
        ...(source.availability ? { availability: source.availability } : {}),
      },
      tracks: source.tracks.map((track, index) => ({
        title: track.title,
        audioUploadId: track.audio ? (audioIds[index] ?? '') : '',
        explicit: track.isExplicit,
        isrc: track.isrc,
        primaryArtists: artists(track.primaryArtists),
        featuredArtists: artists(track.featuredArtists),
        songwriters: track.songwriters,
        producers: track.producers,
      })),
      platforms: source.stores ?? [...PLATFORM_IDS],
    },
  };
}

const FIELD_NAMES: Record<string, string> = {
  title: 'title',
  genre: 'genre',
  releaseDate: 'release date',
  coverUploadId: 'cover',
  copyrightHolder: '© holder',
  publishingHolder: '℗ holder',
  copyrightYear: '© year',
  publishingYear: '℗ year',
  upc: 'UPC',
  labelName: 'label',
  originalReleaseDate: 'original release date',
  audioUploadId: 'audio file',
  isrc: 'ISRC',
  primaryArtists: 'primary artists',
  songwriters: 'songwriters',
  producers: 'producers',
  platforms: 'stores',
  availability: 'availability',
  releaseTime: 'release time',
  releaseTimeZone: 'release time zone',
  territories: 'territories',
};

/** `tracks.0.songwriters` → `Track 1 "Title", songwriters`; a rule's message follows. */
function describePath(keys: readonly PropertyKey[], source: SourceRelease): string {
  const [first, second, third] = keys.map(String);
  if (first === 'release' && second === 'availability')
    return `Release ${FIELD_NAMES[third ?? ''] ?? third ?? 'availability'}`;
  if (first === 'release') return `Release ${FIELD_NAMES[second ?? ''] ?? second ?? ''}`.trim();
  if (first === 'tracks' && second !== undefined && /^\d+$/.test(second)) {
    const index = Number(second);
    const title = source.tracks[index]?.title;
    const field = third ? `, ${FIELD_NAMES[third] ?? third}` : '';
    return `Track ${index + 1}${title ? ` "${title}"` : ''}${field}`;
  }
  if (first === 'tracks') return 'Tracks';
  return FIELD_NAMES[first ?? ''] ?? first ?? 'Release';
}

/** Every rule the builder applies that the source breaks, as report lines (empty when it passes). */
export function ruleReasons(
  source: SourceRelease,
  rules: { isPro: boolean; artistName: string },
  now: Date,
): { reasons: string[]; submission: ReleaseSubmission | null; coverId: string; audioIds: string[] } {
  const { input, coverId, audioIds } = toSubmission(source);
  const parsed = releaseSubmissionSchema.safeParse(input);
  if (!parsed.success) {
    const reasons = [
      ...new Set(parsed.error.issues.map((issue) => `${describePath(issue.path, source)}: ${issue.message}`)),
    ];
    return { reasons, submission: null, coverId, audioIds };
  }
  const planErrors = planRuleErrors(parsed.data, { ...rules, now });
  const reasons = Object.entries(planErrors).map(
    ([key, message]) => `${describePath(key.split('.'), source)}: ${message}`,
  );
  return { reasons, submission: parsed.data, coverId, audioIds };
}
