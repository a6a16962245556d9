/**
 * AI disclosure per track (issue 41, record 295): how AI was used, asked before submission, shown at
 * review, filterable in admin review and delivered in the ERN. One copy for the builder, the server and
 * the tests.
 */
import { z } from 'zod';

export const AI_USAGES = ['none', 'assisted', 'generated'] as const;
export type AiUsage = (typeof AI_USAGES)[number];

/** What AI helped with on an assisted track. */
export const AI_AREAS = ['lyrics', 'composition', 'vocals', 'instruments', 'mastering'] as const;
export type AiArea = (typeof AI_AREAS)[number];

export const AI_USAGE_LABELS: Record<AiUsage, string> = {
  none: 'No AI used',
  assisted: 'AI-assisted',
  generated: 'Fully AI-generated',
};

export const AI_AREA_LABELS: Record<AiArea, string> = {
  lyrics: 'Lyrics',
  composition: 'Composition',
  vocals: 'Vocals',
  instruments: 'Instruments',
  mastering: 'Mastering',
};

export const AI_MESSAGES = {
  usageRequired: 'Tell us how AI was used on this track',
  areasRequired: 'Choose what AI helped with on this track',
  /** Review and admin lists: a release submitted before the question was asked (record 295). */
  notAnswered: 'Not answered (submitted before AI disclosure was asked)',
} as const;

/**
 * A track's answer. `areas` only for an assisted track (at least one); a track with no AI or a fully
 * generated one carries none (they are dropped, so a changed mind in the builder leaves nothing behind).
 */
export const aiDisclosureSchema = z
  .object(
    {
      usage: z.enum(AI_USAGES, { error: AI_MESSAGES.usageRequired }),
      areas: z.array(z.enum(AI_AREAS)).max(AI_AREAS.length).default([]),
    },
    { error: AI_MESSAGES.usageRequired },
  )
  .transform((value) => ({
    usage: value.usage,
    areas: value.usage === 'assisted' ? AI_AREAS.filter((area) => value.areas.includes(area)) : [],
  }))
  .superRefine((value, context) => {
    if (value.usage === 'assisted' && value.areas.length === 0)
      context.addIssue({ code: 'custom', message: AI_MESSAGES.areasRequired, path: ['areas'] });
  });
export type AiDisclosureInput = z.input<typeof aiDisclosureSchema>;
export type AiDisclosure = z.output<typeof aiDisclosureSchema>;

/** The builder draft's answer: unanswered (null) until the artist picks one; old drafts load unanswered. */
export const aiDisclosureDraftSchema = z
  .object({
    usage: z.enum(AI_USAGES).nullable().catch(null),
    areas: z.array(z.enum(AI_AREAS)).max(AI_AREAS.length).catch([]),
  })
  .catch({ usage: null, areas: [] });
export type AiDisclosureDraft = z.infer<typeof aiDisclosureDraftSchema>;

export const emptyAiDisclosureDraft = (): AiDisclosureDraft => ({ usage: null, areas: [] });

/** The admin review filter: a usage, or releases with any track not answered. */
export const AI_REVIEW_FILTERS = ['any', 'none', 'assisted', 'generated', 'unanswered'] as const;
export type AiReviewFilter = (typeof AI_REVIEW_FILTERS)[number];
export const AI_REVIEW_FILTER_LABELS: Record<AiReviewFilter, string> = {
  any: 'Any AI use',
  none: 'No AI used',
  assisted: 'AI-assisted',
  generated: 'Fully AI-generated',
  unanswered: 'AI use not answered',
};

/** One line for review and summaries: "AI-assisted: Lyrics, Vocals", "No AI used", or not answered. */
export function describeAiDisclosure(value: { usage: AiUsage | null; areas: readonly AiArea[] }): string {
  if (!value.usage) return AI_MESSAGES.notAnswered;
  if (value.usage !== 'assisted' || value.areas.length === 0) return AI_USAGE_LABELS[value.usage];
  return `${AI_USAGE_LABELS.assisted}: ${value.areas.map((area) => AI_AREA_LABELS[area]).join(', ')}`;
}
