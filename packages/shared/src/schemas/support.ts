/**
 * Priority support (issue 28): a signed-in user's messages to support, staff replies, and the operator's
 * time zone in which reply-by times are counted (decision 173). One schema per rule, for the Help form,
 * the admin reply form and the server routes alike.
 */
import { z } from 'zod';
import { type GateInput, hasProFeatures, passesSubscriptionGate } from '../access';
import type { Plan } from '../constants';
import type { PageInfo } from '../paging';
import { multilineText, safeText } from '../text';

export const SUPPORT_LIMITS = {
  subjectMaxLength: 150,
  messageMaxLength: 5000,
  replyMaxLength: 5000,
  /** Messages one user may send per window (every plan alike). */
  rateLimitCount: 5,
  rateLimitWindowMinutes: 60,
  /** Business days to the reply-by time, per plan (spec 01 §8: Pro within 1, Basic 2-3: we promise 3). */
  replyBusinessDays: { pro: 1, basic: 3 } satisfies Record<Plan, number>,
} as const;

/**
 * The plan whose reply-by time a message gets (decision 173): Pro while a Pro subscription is in force, or
 * with the free_access or admin role, which have Pro features; anyone else, a lapsed Pro account and a
 * payee without a plan included, Basic. The server stores it with the message; the Help page shows it.
 */
export function supportPlanOf(account: GateInput & { plan: Plan }, now: Date = new Date()): Plan {
  return passesSubscriptionGate(account, now) && hasProFeatures(account.plan, account.roles)
    ? 'pro'
    : 'basic';
}

export const SUPPORT_MESSAGES = {
  subjectRequired: 'Please enter a subject.',
  subjectTooLong: `Subject must be at most ${SUPPORT_LIMITS.subjectMaxLength} characters.`,
  messageRequired: 'Please write your message.',
  messageTooLong: `Message must be at most ${SUPPORT_LIMITS.messageMaxLength} characters.`,
  replyRequired: 'Please write a reply.',
  replyTooLong: `Reply must be at most ${SUPPORT_LIMITS.replyMaxLength} characters.`,
  timeZoneInvalid: 'Please enter an IANA time zone such as UTC or Europe/Berlin.',
  notFound: 'Support message not found.',
  sent: 'Message sent',
  replySent: 'Reply sent',
  timeZoneSaved: 'Time zone saved',
  rateLimited: (minutes: number) =>
    `You have sent several messages to support in a short time. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before sending another one.`,
} as const;

export const supportMessageSchema = z.object({
  // The subject ends up in a mail subject line: one line, no control characters.
  subject: safeText()
    .trim()
    .min(1, SUPPORT_MESSAGES.subjectRequired)
    .max(SUPPORT_LIMITS.subjectMaxLength, SUPPORT_MESSAGES.subjectTooLong),
  body: multilineText()
    .trim()
    .min(1, SUPPORT_MESSAGES.messageRequired)
    .max(SUPPORT_LIMITS.messageMaxLength, SUPPORT_MESSAGES.messageTooLong),
});
export type SupportMessageInput = z.input<typeof supportMessageSchema>;
export type SupportMessage = z.output<typeof supportMessageSchema>;

export const supportReplySchema = z.object({
  body: multilineText()
    .trim()
    .min(1, SUPPORT_MESSAGES.replyRequired)
    .max(SUPPORT_LIMITS.replyMaxLength, SUPPORT_MESSAGES.replyTooLong),
});
export type SupportReplyInput = z.input<typeof supportReplySchema>;

/** A zone name the runtime's time zone database knows (`UTC`, `Europe/Berlin`); offsets like `+01:00` are not zones. */
export function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = safeText()
  .trim()
  .max(64, SUPPORT_MESSAGES.timeZoneInvalid)
  .refine(isIanaTimeZone, SUPPORT_MESSAGES.timeZoneInvalid);

/** PUT /api/admin/support/settings. */
export const supportSettingsSchema = z.object({ timeZone: timeZoneSchema });
export type SupportSettings = z.output<typeof supportSettingsSchema>;
export type SupportSettingsView = SupportSettings & { source: 'settings' | 'default' };

export const SUPPORT_FILTERS = ['open', 'answered', 'all'] as const;
export type SupportFilter = (typeof SUPPORT_FILTERS)[number];

export const supportListQuerySchema = z.object({
  status: z.enum(SUPPORT_FILTERS).default('open'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const SUPPORT_PAGE_SIZE = 25;

export type SupportReplyView = {
  id: string;
  body: string;
  authorName: string;
  createdAt: string;
};

/** One message with its thread, as its author and the admin see it. */
export type SupportThreadView = {
  id: string;
  subject: string;
  body: string;
  /** The plan that set the reply-by time when the message was sent. */
  plan: Plan;
  createdAt: string;
  replyBy: string;
  /** The operator's zone the reply-by time was counted in. */
  timeZone: string;
  answeredAt: string | null;
  replies: SupportReplyView[];
};

export type SupportThreadList = { items: SupportThreadView[] };

/** A row of the admin list: the thread plus who wrote it. */
export type AdminSupportMessageView = SupportThreadView & {
  userName: string;
  userEmail: string;
  isOverdue: boolean;
};

export type AdminSupportMessageList = PageInfo & {
  items: AdminSupportMessageView[];
  counts: { open: number; answered: number; overdue: number };
};
