/**
 * YouTube Content ID (issue 28, decision 185): a Pro artist opts a track in after answering the eligibility
 * questions, and lists their own YouTube channels so their own uploads are not claimed. One schema per
 * rule, for the release page's forms, the server routes and the tests alike.
 */
import { z } from 'zod';
import { safeText } from '../text';

export const ANSWERS = ['yes', 'no'] as const;
export type Answer = (typeof ANSWERS)[number];

/**
 * The eligibility questions, in the order the form asks them. Each names the answer that keeps the track
 * eligible and the reason shown when the other one is given (YouTube's own rules for Content ID assets,
 * which TuneCore and DistroKid apply to their artists too).
 */
export const CONTENT_ID_QUESTIONS = [
  {
    id: 'ownsExclusiveRights',
    question: 'Do you own exclusive rights to this recording?',
    eligibleAnswer: 'yes',
    refusal:
      'Content ID needs exclusive rights to the recording: without them YouTube would claim videos for music that is not only yours.',
  },
  {
    id: 'hasUnclearedSamples',
    question: 'Does it use samples or loops you have not cleared?',
    eligibleAnswer: 'no',
    refusal:
      'Recordings with uncleared samples or loops cannot be claimed: the claim would match the original the sample came from.',
  },
  {
    id: 'hasNonExclusiveBeat',
    question: 'Is it built on a beat you licensed non-exclusively (a lease)?',
    eligibleAnswer: 'no',
    refusal:
      'Beats licensed non-exclusively are sold to other artists too, so Content ID would claim their songs as yours.',
  },
  {
    id: 'isCover',
    question: 'Is it a cover of a song written by someone else?',
    eligibleAnswer: 'no',
    refusal: 'Cover recordings are not eligible: the composition belongs to someone else.',
  },
  {
    id: 'isPublicDomain',
    question: 'Is it a recording of a public-domain work?',
    eligibleAnswer: 'no',
    refusal: 'Public-domain works cannot be claimed: anyone may record and upload them.',
  },
  {
    id: 'isKaraoke',
    question: 'Is it a karaoke or instrumental sing-along version?',
    eligibleAnswer: 'no',
    refusal: 'Karaoke versions are not eligible: they match the original recordings they imitate.',
  },
  {
    id: 'isSoundEffects',
    question: 'Is it a sound-effect recording?',
    eligibleAnswer: 'no',
    refusal: 'Sound effects are not eligible: they match countless videos that use similar sounds.',
  },
  {
    id: 'isAmbientOrNoise',
    question: 'Is it an ambient, nature-sound or white-noise recording?',
    eligibleAnswer: 'no',
    refusal:
      'Ambient, nature-sound and white-noise recordings are not eligible: they match too many unrelated videos.',
  },
] as const satisfies readonly { id: string; question: string; eligibleAnswer: Answer; refusal: string }[];

export type ContentIdQuestionId = (typeof CONTENT_ID_QUESTIONS)[number]['id'];

export const CONTENT_ID_MESSAGES = {
  answerRequired: 'Please answer this question.',
  proOnly: 'YouTube Content ID is part of the Pro plan. Upgrade to Pro to protect your tracks.',
  needsSubscription: 'YouTube Content ID needs a subscription in force. Resubscribe to Pro to change it.',
  /** A team member (record 230) is offered no plan: the owner decides. */
  notForTeam: 'YouTube Content ID is not included in this account. Its owner can add it.',
  trackNotFound: 'Track not found.',
  channelNotFound: 'Channel not found.',
  channelInvalid: 'Enter a YouTube channel id: UC followed by 22 letters, digits, - or _.',
  channelDuplicate: 'This channel is already on your list.',
  channelLimit: (max: number) => `You can list up to ${max} channels.`,
  optedIn: 'Track opted in to Content ID',
  optedOut: 'Track opted out of Content ID',
  channelAdded: 'Channel added',
  channelRemoved: 'Channel removed',
  /** Delivery to YouTube does not exist yet (issue 28 part 3): say what happens, no more. */
  startsOnDelivery: 'Content ID starts once your release is delivered to YouTube.',
  allowListHint: 'Videos on these channels are never claimed, so your own uploads stay unclaimed.',
} as const;

export const CONTENT_ID_LIMITS = { maxChannels: 20 } as const;

const answer = (eligible: Answer, refusal: string) =>
  z
    .enum(ANSWERS, { error: CONTENT_ID_MESSAGES.answerRequired })
    .refine((value) => value === eligible, { message: refusal });

/** The answers to every question; an ineligible answer fails on its own field with its reason. */
export const contentIdAnswersSchema = z.object(
  Object.fromEntries(CONTENT_ID_QUESTIONS.map((q) => [q.id, answer(q.eligibleAnswer, q.refusal)])) as Record<
    ContentIdQuestionId,
    ReturnType<typeof answer>
  >,
);
export type ContentIdAnswers = z.infer<typeof contentIdAnswersSchema>;
/** What the form holds before every question is answered. */
export type ContentIdAnswersInput = Record<ContentIdQuestionId, Answer | ''>;

/** A YouTube channel id: UC and 22 characters of YouTube's URL-safe alphabet. */
export const youtubeChannelIdSchema = safeText(
  CONTENT_ID_MESSAGES.channelInvalid,
  CONTENT_ID_MESSAGES.channelInvalid,
)
  .trim()
  .regex(/^UC[A-Za-z0-9_-]{22}$/, CONTENT_ID_MESSAGES.channelInvalid);

export const contentIdChannelSchema = z.object({ channelId: youtubeChannelIdSchema });
export type ContentIdChannelInput = z.input<typeof contentIdChannelSchema>;

export type ContentIdTrackState = 'not_opted_in' | 'opted_in' | 'opted_out';

export type ContentIdTrackView = {
  trackId: string;
  position: number;
  title: string;
  isrc: string | null;
  state: ContentIdTrackState;
  /** When the current state was chosen; null for a track never opted in. */
  changedAt: string | null;
};

export type ContentIdReleaseView = {
  releaseId: string;
  tracks: ContentIdTrackView[];
};

export type ContentIdChannelView = { id: string; channelId: string; createdAt: string };

export type AdminContentIdArtist = {
  userId: string;
  artistName: string | null;
  email: string;
  channels: string[];
  tracks: {
    trackId: string;
    title: string;
    isrc: string | null;
    releaseTitle: string;
    optedInAt: string;
    /** YouTube's asset id once known (record 193). */
    assetId: string | null;
  }[];
};

/** The answers that keep a track eligible (tests and fixtures). */
export const CONTENT_ID_ELIGIBLE_ANSWERS = Object.fromEntries(
  CONTENT_ID_QUESTIONS.map((q) => [q.id, q.eligibleAnswer]),
) as ContentIdAnswers;
