/**
 * Royalty splits (issue 17, decision record 140): who shares a release's earnings, expenses recouped
 * before splits, invitations. Input schemas and response shapes shared by the server routes and the web.
 *
 * Routes served (apps/server/src/modules/splits/routes.ts):
 *   Owner or admin (ownership checked in the service; changes need a subscription, record 147):
 *     GET  /api/releases/:id/splits                (user) → ReleaseSplits (current splits, history,
 *                                                             payees, expenses, recoupment, held money)
 *     PUT  /api/releases/:id/splits          (subscriber) splitSetSchema → ReleaseSplits (a new version;
 *                                                             invitation mails limited, 429)
 *     POST /api/releases/:id/splits/payees/:payeeId/withdraw (user) → ReleaseSplits (pending only)
 *     POST /api/releases/:id/expenses        (subscriber) expenseSchema → ReleaseSplits (201; bounded,
 *                                                             mailed to accepted payees, audited: record 148)
 *   Invitations:
 *     GET  /api/split-invitations/:token         (public) → SplitInvitation (what accepting means, and
 *                                                             whether this viewer may)
 *     POST /api/split-invitations/:token/accept  (user)   → { accepted: true, releasedCents } (only the
 *                                                             invited address, verified; else 403)
 *   Payee (access('user'), every plan, no subscription needed):
 *     GET  /api/splits/shares                    → PayeeSharesResponse
 *
 * Percentages are decimal text with at most two decimals, compared as integer hundredths (never floats).
 */
import { z } from 'zod';
import { decimalToUnits, formatCents, parseAmountToCents, unitsToDecimal } from '../money';
import { safeText } from '../text';

export const SPLIT_LIMITS = {
  maxPayees: 20,
  maxDescription: 200,
  /** Letters or digits an expense description needs at least (record 148): "." or an invisible character is no description. */
  minDescriptionLetters: 3,
  /** $10,000.00 per expense line (record 148). */
  maxExpenseCents: 1_000_000,
  /** A release's expenses not yet recouped may not exceed $10,000.00 in total (record 148). */
  maxOutstandingExpenseCents: 1_000_000,
} as const;

/**
 * Invitation mails (record 147): per sending account and per invited address, over sliding windows counted
 * in the database (`split_invitation_sends`), so they hold across restarts and instances.
 */
export const INVITATION_LIMITS = {
  perAccountHour: { windowSeconds: 3600, max: 20 },
  perAccountDay: { windowSeconds: 86_400, max: 50 },
  perAddressDay: { windowSeconds: 86_400, max: 3 },
} as const;

/** "3 hours", "1 minute": a wait in the unit a person would say. */
export function waitText(seconds: number): string {
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  // Rounded up to whole minutes first, so 59 min 30 s reads "1 hour", not "60 minutes".
  const minutes = Math.ceil(seconds / 60);
  if (minutes >= 60) return unit(Math.ceil(seconds / 3600), 'hour');
  if (seconds >= 60) return unit(minutes, 'minute');
  return unit(Math.max(1, Math.ceil(seconds)), 'second');
}

/**
 * "jane.doe@example.com" → "j•••@example.com": shown on an invitation to anyone but the invited address
 * itself, so a forwarded or leaked link does not tell a stranger whom it was meant for (record 147).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

export const SPLIT_TEXTS = {
  sumNot100: 'The shares, with your own, must add up to exactly 100%.',
  duplicate: 'Each collaborator can be listed once.',
  ownerListed: 'You are already in the split as the owner: set your own share instead of listing yourself.',
  notOwner: 'Only the release owner can change its splits.',
  percentFormat: 'Enter a percentage with at most two decimals.',
  percentRange: 'A share must be between 0.01% and 100%.',
  ownerRange: 'Your own share must be between 0% and 100%.',
  invitationNotFound: 'This invitation link is not valid any more.',
  invitationWithdrawn: 'The release owner withdrew this invitation.',
  invitationAccepted: 'This invitation was already accepted.',
  ownInvitation: 'You cannot accept a share of your own release.',
  notPending: 'Only an invitation that has not been accepted can be withdrawn.',
  trackNotInRelease: 'That track is not on this release.',
  /** Fixed: nothing a sender typed ever becomes a subject or headline (record 147). */
  invitationMailSubject: 'You are invited to share royalties on Tunedrop',
  expenseMailSubject: 'An expense was added to a release you share on Tunedrop',
  /** An admin's change of another account's split (record 229): why, kept in the audit log and mailed. */
  reasonLabel: 'Reason for this change (required; the collaborators whose share changes are told)',
  reasonRequired:
    'Give a reason for changing this account’s split: it is logged and mailed to the collaborators.',
  shareChangedMailSubject: 'Your royalty share of a release on Tunedrop was changed',
  invitationOtherAccount: (maskedEmail: string) =>
    `This invitation was sent to ${maskedEmail}. Sign in with that email address to accept it.`,
  invitationUnverified:
    'Confirm your email address first: open the link in the confirmation mail we sent you, then accept this invitation.',
  invitationLimitAccount: (max: number, window: string, wait: string) =>
    `You can send at most ${max} split invitations per ${window}. Please wait ${wait} before inviting more people.`,
  invitationLimitAddress: (email: string, wait: string) =>
    `${email} has been invited too many times recently. Please wait ${wait} before inviting this address again.`,
  expenseDescription: `Describe the expense (at least ${SPLIT_LIMITS.minDescriptionLetters} letters or digits).`,
  expenseAmount: `Enter an amount above 0 and at most ${formatCents(SPLIT_LIMITS.maxExpenseCents)}, with at most two decimals.`,
  expenseOutstanding: (outstandingCents: number) =>
    `This release already has ${formatCents(outstandingCents)} of expenses not yet recouped; at most ${formatCents(SPLIT_LIMITS.maxOutstandingExpenseCents)} may be outstanding at once.`,
} as const;

const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/** "12.5" → 1250 hundredths of a percent; null when not a percentage with at most two decimals. */
export function percentToHundredths(text: string): number | null {
  const value = text.trim();
  if (!PERCENT.test(value)) return null;
  const hundredths = decimalToUnits(value, 2);
  return hundredths === null ? null : Number(hundredths);
}

/** 1250 → "12.50". */
export function hundredthsToPercent(hundredths: number): string {
  return unitsToDecimal(hundredths, 2);
}

const percentText = (min: number, rangeMessage: string) =>
  safeText()
    .trim()
    .refine((value) => percentToHundredths(value) !== null, SPLIT_TEXTS.percentFormat)
    .refine((value) => {
      const hundredths = percentToHundredths(value);
      return hundredths === null || (hundredths >= min && hundredths <= 10_000);
    }, rangeMessage);

export const splitPayeeInputSchema = z.object({
  email: z.email('Enter a valid email address').trim().toLowerCase().max(254),
  percent: percentText(1, SPLIT_TEXTS.percentRange),
});

/**
 * One split: the release default (trackId null) or one track's own split. The owner's share plus the
 * payees' shares add up to exactly 100.00; each payee once. (The owner listing their own email is refused
 * by the server, which knows it.)
 */
export const splitSetSchema = z
  .object({
    trackId: z.uuid().nullable(),
    ownerPercent: percentText(0, SPLIT_TEXTS.ownerRange),
    payees: z.array(splitPayeeInputSchema).max(SPLIT_LIMITS.maxPayees),
    /** Required of an admin changing another account's split (record 229); the server enforces it. */
    reason: safeText().trim().max(500).optional(),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.payees.forEach((payee, index) => {
      if (seen.has(payee.email)) {
        ctx.addIssue({ code: 'custom', message: SPLIT_TEXTS.duplicate, path: ['payees', index, 'email'] });
      }
      seen.add(payee.email);
    });
    const parts = [value.ownerPercent, ...value.payees.map((payee) => payee.percent)].map(
      percentToHundredths,
    );
    if (parts.some((part) => part === null)) return;
    const sum = parts.reduce<number>((total, part) => total + (part ?? 0), 0);
    if (sum !== 10_000)
      ctx.addIssue({ code: 'custom', message: SPLIT_TEXTS.sumNot100, path: ['ownerPercent'] });
  });
export type SplitSetInput = z.input<typeof splitSetSchema>;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/** True when `text` has enough letters or digits to say what the money was spent on. */
export const isDescribed = (text: string) =>
  (text.match(LETTER_OR_DIGIT)?.length ?? 0) >= SPLIT_LIMITS.minDescriptionLetters;

export const expenseSchema = z.object({
  amount: safeText()
    .trim()
    .refine((value) => {
      const cents = parseAmountToCents(value);
      return cents !== null && cents > 0 && cents <= SPLIT_LIMITS.maxExpenseCents && /^\d/.test(value);
    }, SPLIT_TEXTS.expenseAmount),
  description: safeText()
    .trim()
    .max(SPLIT_LIMITS.maxDescription)
    .refine(isDescribed, SPLIT_TEXTS.expenseDescription),
  spentOn: z.iso.date('Enter the date as YYYY-MM-DD.'),
});
export type ExpenseInput = z.input<typeof expenseSchema>;

export type PayeeStatus = 'pending' | 'accepted' | 'withdrawn';

export type SplitShareView = { payeeId: string; email: string; status: PayeeStatus; percent: string };

export type SplitVersionView = {
  id: string;
  trackId: string | null;
  trackTitle: string | null;
  version: number;
  ownerPercent: string;
  shares: SplitShareView[];
  createdAt: string;
  createdByEmail: string | null;
};

export type ReleaseSplits = {
  releaseId: string;
  releaseTitle: string;
  ownerEmail: string;
  /** The viewer changes another account's split (an admin): a save needs a reason (record 229). */
  isReasonRequired: boolean;
  tracks: { id: string; position: number; title: string }[];
  /** The newest version per target (release default first, then tracks with their own split). */
  current: SplitVersionView[];
  /** Every version, newest first. */
  history: SplitVersionView[];
  payees: {
    id: string;
    email: string;
    status: PayeeStatus;
    invitedAt: string;
    acceptedAt: string | null;
    withdrawnAt: string | null;
    /** Cents held for this payee (not accepted yet), not yet released or returned. */
    heldCents: number;
    /** Cents paid to this payee so far. */
    paidCents: number;
  }[];
  expenses: SplitExpenseView[];
  recoupment: { expensesCents: number; recoupedCents: number; remainingCents: number };
  heldCents: number;
};

export type SplitExpenseView = {
  id: string;
  amountCents: number;
  description: string;
  spentOn: string;
  createdAt: string;
};

/**
 * Whether the viewer may accept (record 147): only a signed-in account whose verified email is the
 * invited address. `message` says why not, naming the invited address masked.
 */
export type InvitationAcceptance =
  | { status: 'ready'; message: null }
  | { status: 'signed_out' | 'other_account' | 'unverified' | 'owner'; message: string };

export type SplitInvitation = {
  releaseTitle: string;
  ownerName: string;
  /** The invited address in full for that account only; masked ("j•••@example.com") for anyone else. */
  email: string;
  status: PayeeStatus;
  acceptance: InvitationAcceptance;
  /** What the payee receives: the release default and each track's own split that lists them. */
  shares: { trackTitle: string | null; percent: string }[];
  heldCents: number;
  /** The release's expenses, repaid to the owner before shares apply, and what is left to repay. */
  expenses: SplitExpenseView[];
  remainingExpenseCents: number;
};

export type PayeeShare = {
  importId: string;
  reportName: string;
  period: string;
  releaseTitle: string;
  trackTitle: string | null;
  percent: string;
  amountUsd: string;
  held: boolean;
  postedAt: string;
};

/** An expense on a release whose earnings this account shares: repaid to its owner before the shares. */
export type PayeeExpense = SplitExpenseView & { releaseTitle: string; ownerName: string };

export type PayeeSharesResponse = {
  items: PayeeShare[];
  totals: { paidCents: number; heldCents: number };
  expenses: PayeeExpense[];
};
