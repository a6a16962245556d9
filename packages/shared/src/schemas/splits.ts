/**
 * Royalty splits (issue 17, decision record 140): who shares a release's earnings, expenses recouped
 * before splits, invitations. Input schemas and response shapes shared by the server routes and the web.
 *
 * Routes served (apps/server/src/modules/splits/routes.ts):
 *   Owner or admin (access('user'); ownership checked in the service):
 *     GET  /api/releases/:id/splits                          → ReleaseSplits (current splits, history,
 *                                                             payees, expenses, recoupment, held money)
 *     PUT  /api/releases/:id/splits                          splitSetSchema → ReleaseSplits (a new version)
 *     POST /api/releases/:id/splits/payees/:payeeId/withdraw → ReleaseSplits (pending invitations only)
 *     POST /api/releases/:id/expenses                        expenseSchema → ReleaseSplits (201)
 *   Invitations:
 *     GET  /api/split-invitations/:token         (public) → SplitInvitation (what accepting means)
 *     POST /api/split-invitations/:token/accept  (user)   → { accepted: true, releasedCents }
 *   Payee (access('user'), every plan, no subscription needed):
 *     GET  /api/splits/shares                    → PayeeSharesResponse
 *
 * Percentages are decimal text with at most two decimals, compared as integer hundredths (never floats).
 */
import { z } from 'zod';
import { parseAmountToCents } from '../money';
import { safeText } from '../text';

export const SPLIT_LIMITS = {
  maxPayees: 20,
  maxDescription: 200,
  /** $1,000,000.00 per expense line. */
  maxExpenseCents: 100_000_000,
} as const;

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
  invitationMailSubject: (releaseTitle: string) =>
    `You are invited to share the royalties of "${releaseTitle}"`,
} as const;

const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/** "12.5" → 1250 hundredths of a percent; null when not a percentage with at most two decimals. */
export function percentToHundredths(text: string): number | null {
  const value = text.trim();
  if (!PERCENT.test(value)) return null;
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1250 → "12.50". */
export function hundredthsToPercent(hundredths: number): string {
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
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

export const expenseSchema = z.object({
  amount: safeText()
    .trim()
    .refine((value) => {
      const cents = parseAmountToCents(value);
      return cents !== null && cents > 0 && cents <= SPLIT_LIMITS.maxExpenseCents && /^\d/.test(value);
    }, 'Enter an amount above 0 with at most two decimals.'),
  description: safeText().trim().min(1, 'Describe the expense.').max(SPLIT_LIMITS.maxDescription),
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
  expenses: { id: string; amountCents: number; description: string; spentOn: string; createdAt: string }[];
  recoupment: { expensesCents: number; recoupedCents: number; remainingCents: number };
  heldCents: number;
};

export type SplitInvitation = {
  releaseTitle: string;
  ownerName: string;
  email: string;
  status: PayeeStatus;
  /** What the payee receives: the release default and each track's own split that lists them. */
  shares: { trackTitle: string | null; percent: string }[];
  heldCents: number;
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

export type PayeeSharesResponse = {
  items: PayeeShare[];
  totals: { paidCents: number; heldCents: number };
};
