/**
 * Steps 3 and 4 (platforms, summary) and the submission itself: what the server takes (re-checked with
 * the plan's rules), the whole draft the wizard saves, and the request built from it.
 */
import { z } from 'zod';
import { LIMITS, PLATFORM_IDS, type PlatformId } from '../../constants';
import { safeText } from '../../text';
import { AI_MESSAGES } from '../ai-disclosure';
import { CONTENT_ID_MESSAGES } from '../content-id';
import { MEMBER_LOCK_TEXTS } from '../member-locks';
import { availabilityDraftToInput } from '../release-availability';
import { titleStyleError } from '../title-checks';
import { currentYears, titleKey } from './fields';
import { BUILDER_MESSAGES } from './messages';
import { releaseDetailsSubmissionSchema, releaseDraftSchema } from './release-details';
import { type ArtistDraft, trackDraftSchema, trackSubmissionSchema } from './tracks';

export const releaseSubmissionSchema = z
  .object({
    idempotencyKey: safeText().regex(
      /^[A-Za-z0-9-]{16,100}$/,
      'A submission key of 16 to 100 letters, digits or hyphens is required',
    ),
    /** The account's artist profile it is released under (record 201); the first profile when left out. */
    artistProfileId: z.uuid().optional(),
    release: releaseDetailsSubmissionSchema,
    tracks: z
      .array(trackSubmissionSchema)
      .min(LIMITS.tracksMin, BUILDER_MESSAGES.tooManyTracks)
      .max(LIMITS.tracksMax, BUILDER_MESSAGES.tooManyTracks),
    platforms: z
      .array(safeText())
      .min(1, BUILDER_MESSAGES.platformRequired)
      .max(PLATFORM_IDS.length)
      .superRefine((ids, context) => {
        ids.forEach((id, index) => {
          if (!(PLATFORM_IDS as string[]).includes(id))
            context.addIssue({ code: 'custom', message: BUILDER_MESSAGES.platformUnknown, path: [index] });
        });
      })
      .transform((ids) => [...new Set(ids)] as PlatformId[]),
  })
  .superRefine((value, context) => {
    const titles = new Set<string>();
    const isrcs = new Set<string>();
    const audio = new Set<string>();
    value.tracks.forEach((track, index) => {
      const key = titleKey(track.title);
      if (titles.has(key))
        context.addIssue({
          code: 'custom',
          message: BUILDER_MESSAGES.trackTitlesUnique,
          path: ['tracks', index, 'title'],
        });
      titles.add(key);
      if (track.isrc) {
        if (isrcs.has(track.isrc))
          context.addIssue({
            code: 'custom',
            message: BUILDER_MESSAGES.isrcDuplicate,
            path: ['tracks', index, 'isrc'],
          });
        isrcs.add(track.isrc);
      }
      if (audio.has(track.audioUploadId))
        context.addIssue({
          code: 'custom',
          message: BUILDER_MESSAGES.audioUsedTwice,
          path: ['tracks', index, 'audioUploadId'],
        });
      audio.add(track.audioUploadId);
    });
  });

/**
 * What the builder submits (records 295, 296): the release's rules, titles that pass the style guide and
 * every track's AI use answered. The catalogue import uses `releaseSubmissionSchema` alone (an imported
 * track has no answer, and its titles are what the stores already hold).
 */
export const builderSubmissionSchema = releaseSubmissionSchema.superRefine((value, context) => {
  // The title style guide (record 296): the release's title and every track's.
  const styleIssue = (title: string, path: (string | number)[]) => {
    const message = titleStyleError(title);
    if (message) context.addIssue({ code: 'custom', message, path });
  };
  styleIssue(value.release.title, ['release', 'title']);
  value.tracks.forEach((track, index) => {
    styleIssue(track.title, ['tracks', index, 'title']);
    if (!track.aiDisclosure)
      context.addIssue({
        code: 'custom',
        message: AI_MESSAGES.usageRequired,
        path: ['tracks', index, 'aiDisclosure'],
      });
  });
});
export type ReleaseSubmissionInput = z.input<typeof releaseSubmissionSchema>;
export type ReleaseSubmission = z.output<typeof releaseSubmissionSchema>;

/** Distinct artists by name (case-insensitive), first occurrence kept: the summary and the release row. */
export function uniqueArtistsByName<T extends { name: string }>(artists: readonly T[]): T[] {
  const seen = new Set<string>();
  const result: T[] = [];
  for (const artist of artists) {
    const key = artist.name.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    result.push(artist);
  }
  return result;
}

/**
 * The plan rules (§1, §5) on top of the schema: returns field errors keyed like the submission
 * (`release.upc`, `tracks.0.isrc`, `tracks` for release-wide rules). Empty when the plan allows it.
 */
export function planRuleErrors(
  submission: ReleaseSubmission,
  context: { isPro: boolean; artistName: string; now?: Date; isTeamMember?: boolean },
): Record<string, string> {
  const errors: Record<string, string> = {};
  // A team member cannot upgrade: they read that the account does not include it (record 274).
  const texts = context.isTeamMember
    ? {
        proFeature: MEMBER_LOCK_TEXTS.feature,
        holderIsArtist: MEMBER_LOCK_TEXTS.holderIsArtist,
        yearIsCurrent: MEMBER_LOCK_TEXTS.yearIsCurrent,
        contentId: MEMBER_LOCK_TEXTS.contentId,
        onePrimaryArtist: MEMBER_LOCK_TEXTS.primaryArtists,
      }
    : {
        proFeature: BUILDER_MESSAGES.proFeature,
        holderIsArtist: BUILDER_MESSAGES.basicHolderIsArtist,
        yearIsCurrent: BUILDER_MESSAGES.basicYearIsCurrent,
        contentId: CONTENT_ID_MESSAGES.proOnly,
        onePrimaryArtist: BUILDER_MESSAGES.basicOnePrimaryArtist,
      };
  const { release, tracks } = submission;
  const distinctPrimary = uniqueArtistsByName(tracks.flatMap((track) => track.primaryArtists));
  if (context.isPro) {
    if (distinctPrimary.length > LIMITS.primaryArtistsPerReleasePro)
      errors.tracks = BUILDER_MESSAGES.maxPrimaryArtistsPerRelease;
    return errors;
  }
  if (release.upc) errors['release.upc'] = texts.proFeature;
  if (release.labelName) errors['release.labelName'] = texts.proFeature;
  if (release.originalReleaseDate) errors['release.originalReleaseDate'] = texts.proFeature;
  const artistName = context.artistName.trim();
  if (release.copyrightHolder !== artistName) errors['release.copyrightHolder'] = texts.holderIsArtist;
  if (release.publishingHolder !== artistName) errors['release.publishingHolder'] = texts.holderIsArtist;
  const years = currentYears(context.now);
  if (!years.includes(release.copyrightYear)) errors['release.copyrightYear'] = texts.yearIsCurrent;
  if (!years.includes(release.publishingYear)) errors['release.publishingYear'] = texts.yearIsCurrent;
  tracks.forEach((track, index) => {
    if (track.isrc) errors[`tracks.${index}.isrc`] = texts.proFeature;
    if (track.contentIdAnswers) errors[`tracks.${index}.contentIdAnswers`] = texts.contentId;
    if (track.primaryArtists.length > LIMITS.primaryArtistsPerReleaseBasic)
      errors[`tracks.${index}.primaryArtists`] = texts.onePrimaryArtist;
  });
  if (distinctPrimary.length > LIMITS.primaryArtistsPerReleaseBasic) errors.tracks = texts.onePrimaryArtist;
  return errors;
}

export const builderDraftSchema = z.object({
  version: z.literal(1),
  step: z.number().int().min(1).max(4).catch(1),
  idempotencyKey: safeText().regex(/^[A-Za-z0-9-]{16,100}$/),
  /** The artist profile chosen when the draft began (record 201); null for the account's first. */
  artistProfileId: z.uuid().nullish().catch(null),
  release: releaseDraftSchema,
  tracks: z.array(trackDraftSchema).min(LIMITS.tracksMin).max(LIMITS.tracksMax),
  activeTrackId: safeText().max(64).nullable().catch(null),
  platforms: z.array(safeText().max(40)).max(PLATFORM_IDS.length).catch([]),
});
export type BuilderDraft = z.infer<typeof builderDraftSchema>;

/** The upload ids a draft refers to: the clean-up keeps these while the draft exists. */
export function draftUploadIds(draft: BuilderDraft): string[] {
  const ids = [draft.release.coverArt?.uploadId, ...draft.tracks.map((track) => track.file?.uploadId)];
  return ids.filter((id): id is string => Boolean(id));
}

/** The request the wizard sends: Pro-only fields dropped for everyone else, empty credits removed. */
export function draftToSubmission(draft: BuilderDraft, context: { isPro: boolean }): ReleaseSubmissionInput {
  const { release } = draft;
  const artists = (list: readonly ArtistDraft[]) =>
    uniqueArtistsByName(list.filter((artist) => artist.name.trim())).map((artist) => ({
      name: artist.name,
      spotifyLink: artist.spotifyLink,
      appleMusicLink: artist.appleMusicLink,
    }));
  return {
    idempotencyKey: draft.idempotencyKey,
    ...(draft.artistProfileId ? { artistProfileId: draft.artistProfileId } : {}),
    release: {
      title: release.title,
      genre: release.genre as ReleaseSubmissionInput['release']['genre'],
      releaseDate: release.releaseDate,
      coverUploadId: release.coverArt?.uploadId ?? '',
      copyrightHolder: release.copyrightHolder,
      publishingHolder: release.publishingHolder,
      copyrightYear: release.copyrightYear,
      publishingYear: release.publishingYear,
      availability: availabilityDraftToInput(release.availability),
      ...(context.isPro
        ? { upc: release.upc, labelName: release.labelName, originalReleaseDate: release.originalReleaseDate }
        : {}),
    },
    tracks: draft.tracks.map((track) => ({
      title: track.title,
      audioUploadId: track.file?.uploadId ?? '',
      explicit: track.explicit,
      ...(context.isPro && track.isrc.trim() ? { isrc: track.isrc } : {}),
      ...(context.isPro && track.contentId ? { contentIdAnswers: track.contentId.answers } : {}),
      ...(track.aiDisclosure.usage
        ? { aiDisclosure: { usage: track.aiDisclosure.usage, areas: track.aiDisclosure.areas } }
        : {}),
      primaryArtists: artists(track.primaryArtists),
      featuredArtists: artists(track.featuredArtists),
      songwriters: track.songwriters.map(({ firstName, middleName, lastName, role }) => ({
        firstName,
        middleName,
        lastName,
        role,
      })),
      producers: track.producers.map(({ firstName, middleName, lastName }) => ({
        firstName,
        middleName,
        lastName,
      })),
    })),
    platforms: draft.platforms,
  };
}
