/**
 * What happens to the releases of a lapsed account (issue 26 finding 8, record 196): kept live (the
 * default), or taken down N days after the lapse, with mails at the lapse, 7 days before and at the
 * takedown. A lapse is the subscription gate closing (ended, past due; spec 01 §4).
 */
import { z } from 'zod';

export const LAPSE_POLICY_MODES = ['keep_live', 'take_down'] as const;
export type LapsePolicyMode = (typeof LAPSE_POLICY_MODES)[number];

export const LAPSE_TAKEDOWN_MIN_DAYS = 1;
export const LAPSE_TAKEDOWN_MAX_DAYS = 365;
/** The warning mail goes this many days before the takedown. */
export const LAPSE_WARNING_DAYS_BEFORE = 7;

/** One mail (and, for `takedown`, the takedown itself) per lapse and kind. */
export const LAPSE_NOTICE_KINDS = ['lapse', 'warning', 'takedown'] as const;
export type LapseNoticeKind = (typeof LAPSE_NOTICE_KINDS)[number];

export const lapsePolicySchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('keep_live') }),
  z.object({
    mode: z.literal('take_down'),
    days: z
      .number({ error: 'Enter a number of days.' })
      .int('Enter a whole number of days.')
      .min(LAPSE_TAKEDOWN_MIN_DAYS, `Enter ${LAPSE_TAKEDOWN_MIN_DAYS} to ${LAPSE_TAKEDOWN_MAX_DAYS} days.`)
      .max(LAPSE_TAKEDOWN_MAX_DAYS, `Enter ${LAPSE_TAKEDOWN_MIN_DAYS} to ${LAPSE_TAKEDOWN_MAX_DAYS} days.`),
  }),
]);
export type LapsePolicy = z.infer<typeof lapsePolicySchema>;

export const LAPSE_POLICY_TEXTS = {
  title: 'Lapsed accounts',
  intro:
    'What happens to the live releases of an account whose subscription ended (or whose payment failed).',
  keepLive: 'Keep live',
  takeDown: 'Take down after',
  saved: 'Lapsed-account policy saved.',
} as const;
