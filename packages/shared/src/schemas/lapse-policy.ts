/**
 * What happens to the releases of a lapsed account (issue 26 finding 8, record 196): kept live (the
 * default), or taken down N days after the lapse, with mails at the lapse, 7 days before and at the
 * takedown. A lapse is the subscription gate closing (ended, past due; spec 01 §4).
 */
import { z } from 'zod';
import { LAPSED_MESSAGES } from '../access';

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

/**
 * Where a lapsed account's releases stand under the policy (issue 44): the one source of the dates and the
 * consequence that the dashboard's banner and the lapse mails both say. `kept_live`: the policy keeps them
 * (or nothing of the account is out); `scheduled`: taken down on that day (YYYY-MM-DD, UTC) unless the
 * account subscribes again; `taking_down`: the takedown day came.
 */
export type LapseStanding =
  | { kind: 'kept_live' }
  | { kind: 'scheduled'; takedownDate: string }
  | { kind: 'taking_down' };

/** The consequence, in the same words on the banner and in the mails. */
export function lapseConsequence(standing: LapseStanding): string {
  switch (standing.kind) {
    case 'kept_live':
      return 'Your releases stay in the stores.';
    case 'scheduled':
      return `Unless you subscribe again, your live releases will be taken down from the stores on ${standing.takedownDate}.`;
    case 'taking_down':
      return 'Your releases are being taken down from the stores because your subscription is not active.';
  }
}

/** The lapsed banner's text: the spec's while releases are kept, else the policy's consequence first. */
export function lapsedBannerBody(standing: LapseStanding): string {
  if (standing.kind === 'kept_live') return LAPSED_MESSAGES.body;
  return `${lapseConsequence(standing)} Your royalties and withdrawals stay available. Resubscribe to upload new releases, edit or resubmit releases, and see analytics.`;
}
