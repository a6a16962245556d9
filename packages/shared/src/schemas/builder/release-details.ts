/** Step 1, Release Details (spec 02 §5): the submitted fields, the saved draft, the cover checks, the step's errors. */

import { z } from 'zod';
import { LIMITS } from '../../constants';
import { safeText } from '../../text';
import {
  availabilityDraftSchema,
  availabilityDraftToInput,
  releaseAvailabilitySchema,
} from '../release-availability';
import { titleStyleError } from '../title-checks';
import {
  draftText,
  type FileState,
  fileRefSchema,
  firstErrors,
  genreSchema,
  isValidDate,
  isValidUpc,
  optionalText,
  requiredText,
  uploadIdSchema,
  yearSchema,
} from './fields';
import { BUILDER_MESSAGES } from './messages';

export const releaseDetailsSubmissionSchema = z.object({
  title: requiredText(BUILDER_MESSAGES.titleRequired),
  genre: genreSchema,
  releaseDate: safeText({ message: BUILDER_MESSAGES.releaseDateRequired })
    .trim()
    .min(1, BUILDER_MESSAGES.releaseDateRequired)
    .refine(isValidDate, BUILDER_MESSAGES.releaseDateInvalid),
  coverUploadId: uploadIdSchema(BUILDER_MESSAGES.coverArtRequired),
  copyrightHolder: requiredText(BUILDER_MESSAGES.copyrightHolderRequired),
  publishingHolder: requiredText(BUILDER_MESSAGES.publishingHolderRequired),
  copyrightYear: yearSchema('copyright'),
  publishingYear: yearSchema('publishing'),
  upc: safeText()
    .optional()
    .nullable()
    .transform((value, context) => {
      const digits = value?.trim() ?? '';
      if (!digits) return undefined;
      if (!isValidUpc(digits)) {
        context.addIssue({ code: 'custom', message: BUILDER_MESSAGES.upcInvalid });
        return z.NEVER;
      }
      return digits;
    }),
  labelName: optionalText(200),
  originalReleaseDate: safeText()
    .optional()
    .nullable()
    .transform((value, context) => {
      const text = value?.trim() ?? '';
      if (!text) return undefined;
      if (!isValidDate(text)) {
        context.addIssue({ code: 'custom', message: BUILDER_MESSAGES.originalReleaseDateInvalid });
        return z.NEVER;
      }
      return text;
    }),
  /** Release time and territories (record 199); left out: local midnight, worldwide. */
  availability: releaseAvailabilitySchema.prefault({}),
});
export type ReleaseDetailsSubmission = z.output<typeof releaseDetailsSubmissionSchema>;

export const releaseDraftSchema = z.object({
  title: draftText(),
  genre: draftText(50),
  releaseDate: draftText(10),
  coverArt: fileRefSchema.nullable().catch(null),
  copyrightHolder: draftText(),
  copyrightYear: draftText(4),
  publishingHolder: draftText(),
  publishingYear: draftText(4),
  upc: draftText(13),
  labelName: draftText(),
  originalReleaseDate: draftText(10),
  /** Release time and territories (record 199); absent in drafts saved before them: the defaults. */
  availability: availabilityDraftSchema.optional(),
});
export type ReleaseDraft = z.infer<typeof releaseDraftSchema>;

/** The cover art checks the browser can make before uploading (type and size; pixels need decoding). */
export function coverFileError(file: { name: string; type: string; size: number }): string | null {
  const isImageType = file.type === 'image/jpeg' || file.type === 'image/png';
  const isImageName = /\.(jpe?g|png)$/i.test(file.name);
  if (!isImageType && !(file.type === '' && isImageName)) return BUILDER_MESSAGES.coverArtFormat;
  if (file.size >= LIMITS.coverArtMaxBytes) return BUILDER_MESSAGES.coverArtSize;
  return null;
}

export function coverDimensionsError(width: number, height: number): string | null {
  return width === LIMITS.coverArtPixels && height === LIMITS.coverArtPixels
    ? null
    : BUILDER_MESSAGES.coverArtDimensions;
}

/** What a basic user's release details become: holders are the artist name, years the current year. */
export function lockedReleaseFields(artistName: string, now: Date = new Date()) {
  const year = String(now.getFullYear());
  return {
    copyrightHolder: artistName,
    publishingHolder: artistName,
    copyrightYear: year,
    publishingYear: year,
  };
}

/** Step 1 ('Continue to Track Details'): field errors keyed by release draft field. */
export function releaseStepErrors(
  release: ReleaseDraft,
  context: { isPro: boolean; coverState: FileState },
): Record<string, string> {
  const input = {
    ...release,
    availability: availabilityDraftToInput(release.availability),
    coverUploadId: context.coverState === 'checked' ? (release.coverArt?.uploadId ?? '') : '',
    upc: context.isPro ? release.upc : undefined,
    labelName: context.isPro ? release.labelName : undefined,
    originalReleaseDate: context.isPro ? release.originalReleaseDate : undefined,
  };
  const result = releaseDetailsSubmissionSchema.safeParse(input);
  const errors = result.success ? {} : firstErrors(result.error);
  const styleError = titleStyleError(release.title);
  if (styleError && !errors.title) errors.title = styleError;
  const coverError = errors.coverUploadId;
  delete errors.coverUploadId;
  if (context.coverState === 'uploading') errors.coverArt = BUILDER_MESSAGES.coverArtStillUploading;
  else if (coverError) errors.coverArt = coverError;
  return errors;
}
